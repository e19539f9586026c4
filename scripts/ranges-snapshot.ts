/**
 * `npm run ranges:snapshot [-- --out FILE]`: a release step, run on a machine
 * with internet before `npm publish`. Fetches every operator's IP-range list
 * from its own URL and writes the dated snapshot the package ships
 * (default data/ip-ranges-snapshot.json), naming each list it could not
 * fetch and why. Exit 0 when at least one list was written, 1 when none was
 * (then no file is written, so an offline run cannot replace a good
 * snapshot with an empty one).
 */
import { parseArgs } from 'node:util'
import { snapshotPath } from '../src/cli/ip-ranges-snapshot.ts'
import { buildSnapshot, writeSnapshot } from '../src/cli/ip-ranges-snapshot-writer.ts'

const { values } = parseArgs({ options: { out: { type: 'string' } } })
const out = values.out ?? snapshotPath()
const snapshot = await buildSnapshot()
for (const list of snapshot.lists) console.log(`✓ ${list.url}: ${list.entries.length} entries, retrieved ${list.retrieved}`)
for (const m of snapshot.missing) console.log(`✗ ${m.url}: ${m.reason}`)
if (snapshot.lists.length === 0) {
  console.error(`No list could be fetched, so ${out} was not written: run this where the operators' URLs are reachable.`)
  process.exitCode = 1
} else {
  writeSnapshot(out, snapshot)
  console.log(`Wrote ${out}: snapshot of ${snapshot.snapshot}, ${snapshot.lists.length} of ${snapshot.lists.length + snapshot.missing.length} lists.`)
}
