/**
 * The robots-edge CLI: `npm run robots -- <command>`, or the `robots-edge`
 * bin. Commands live in src/cli; run `--help` for the list.
 */
import { run } from './main.ts'
import { processIo } from './io.ts'

process.exitCode = await run(process.argv.slice(2), processIo())
