// The packed request shapes (migrations/0080, src/ledger/shape-packs.ts),
// written by the real write path into a local D1 and folded by the cron's
// merge: a write costs a pack per day, host, agent and version, whatever its
// paths; the merge keeps every sum the replay and the rules roll-up read.
import { env } from 'cloudflare:test'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { getImpact } from '../../src/admin/impact-queries.ts'
import { getReport } from '../../src/admin/queries.ts'
import { mergeShapePacks, recordRobotsVersion, rollUpLedger, writeEvents } from '../../src/ledger/ledger.ts'
import { GROUP_OF, PAGE_PATHS, SHAPE_PATHS_SQL, groupOf } from '../../src/ledger/shape-packs.ts'
import { LISTED_PATHS } from '../../src/ledger/shape-sql.ts'
import { DAY, HOUR, MINUTE, T0, googlebot, gptbot, judged } from '../support/report-fixtures.ts'
import { clearLedger } from '../support/workerd/ledger-tables.ts'

const db = env.DB
const DAY0 = Math.floor(T0 / DAY) * DAY

async function count(sql: string): Promise<number> {
  return (await db.prepare(sql).first<number>('n')) ?? 0
}

/** Every stored shape, per path, as a replay would add them up. */
async function paths(): Promise<unknown[]> {
  return (await db.prepare(`SELECT * FROM (${SHAPE_PATHS_SQL}) ORDER BY day, host, agent_key, robots_version, path`).all()).results
}

async function groups(table: string): Promise<[string, number, number, string, string, number][]> {
  const rows = (await db.prepare(`SELECT groups FROM ${table}`).all<{ groups: string }>()).results
  const all = rows.flatMap((r) => JSON.parse(r.groups) as [string, number, number, string, string, number][])
  return all.sort((a, b) => (a[0] < b[0] ? -1 : 1))
}

const requestTo = (path: string, i = 0, agent = gptbot) => judged({ agent, path, time: T0 + i, allowed: !path.startsWith('/admin/') })

beforeEach(() => clearLedger(db))
afterEach(() => vi.restoreAllMocks())

/** The write path's clock: a request of the last hour or two is not late (ledger.ts), so its day cannot be totalled yet. */
const nowIs = (time: number) => vi.spyOn(Date, 'now').mockReturnValue(time)

describe('packed request shapes', () => {
  it('computes a path group in SQL as in TypeScript', async () => {
    const cases = ['', '/', '/a', '/a/', '/a/b/c', '//x', '/é/x', '/search?q=/x', '*', 'x/y', '/%2F/y']
    // json_each has a column named path of its own: the cases are read through a subquery.
    const { results } = await db.prepare(`SELECT ${GROUP_OF} AS g FROM (SELECT value AS path, key FROM json_each(?1)) ORDER BY key`).bind(JSON.stringify(cases)).all<{ g: string }>()
    expect(results.map((r) => r.g)).toEqual(cases.map(groupOf))
    expect(groupOf('/articles/1')).toBe('/articles/')
    expect(groupOf('/about')).toBe('/')
  })

  it('writes one pack per day, host, agent and version, with each group totalled', async () => {
    const events = [
      ...Array.from({ length: 300 }, (_, i) => requestTo(`/articles/${i}`, i)),
      ...Array.from({ length: 100 }, (_, i) => requestTo(`/p${i}`, i)),
      requestTo('/admin/x'),
      requestTo('/admin/x', 1),
      requestTo('/caf%C3%A9/x'),
      judged({ agent: googlebot, path: '/articles/1' }),
    ]
    await writeEvents(db, events)
    expect(await count('SELECT count(*) AS n FROM shape_inbox')).toBe(2)
    expect(await groups('shape_inbox')).toEqual([
      ['/', 100, 100, '/p0', '/p99', 0],
      ['/admin/', 2, 1, '/admin/x', '/admin/x', 0],
      ['/articles/', 1, 1, '/articles/1', '/articles/1', 0],
      ['/articles/', 300, 300, '/articles/0', '/articles/99', 0],
      ['/caf%C3%A9/', 1, 1, '/caf%C3%A9/x', '/caf%C3%A9/x', 1],
    ])
    expect(await count('SELECT sum(requests) AS n FROM shape_inbox')).toBe(events.length)
  })

  it('folds the inbox into pages, keeping every path, sum, rule and replay the same', async () => {
    await recordRobotsVersion(db, { host: 'example.com', hash: 'v1', text: 'User-agent: *\nDisallow: /admin/\n', time: T0 - 30 * DAY })
    const written: string[] = []
    const write = (from: number) => {
      const batch = Array.from({ length: 40 }, (_, i) => requestTo(i % 4 === 0 ? `/admin/${(from + i) % 50}` : `/articles/${(from + i) % 50}`, HOUR + from + i))
      written.push(...batch.map((e) => e.path))
      return writeEvents(db, batch)
    }
    /** [group, requests, distinct paths] of what was written under `prefix`. */
    const expected = (prefix: string) => {
      const under = written.filter((p) => p.startsWith(prefix))
      const distinct = [...new Set(under)].sort()
      return [prefix, under.length, distinct.length, distinct[0], distinct.at(-1), 0]
    }
    await write(0)
    await write(20)
    await write(35)
    expect(await count('SELECT count(*) AS n FROM shape_inbox')).toBe(3)
    const before = await paths()
    expect(before.length).toBeGreaterThan(40)
    await rollUpLedger(db, { now: T0 })
    const rules = (await db.prepare('SELECT * FROM rules_daily ORDER BY rule_line').all()).results
    // Line 2 of the version, `Disallow: /admin/`: every /admin/ request counts (never fetched, host long served).
    expect(rules).toMatchObject([{ rule_line: 2, derived: written.filter((p) => p.startsWith('/admin/')).length }])
    const filter = { since: DAY0, until: DAY0 + DAY }
    const options = { candidates: new Map([['*', 'User-agent: *\nDisallow: /admin/\nDisallow: /articles/1\n']]), exempt: new Set<string>(), protect: new Set<string>() }
    const { rowsRead: _r1, ...replayBefore } = await getImpact(db, filter, options)
    expect(replayBefore.estimate.exact).toBe(true)

    expect(await mergeShapePacks(db)).toMatchObject({ merged: 3, pages: 1, complete: true })
    expect(await count('SELECT count(*) AS n FROM shape_inbox')).toBe(0)
    expect(await count('SELECT count(*) AS n FROM shape_packs')).toBe(1)
    expect(await paths()).toEqual(before)
    // The page's group totals are the write path's, over the merged paths.
    expect(await groups('shape_packs')).toEqual([expected('/admin/'), expected('/articles/')])
    await rollUpLedger(db, { now: T0 })
    expect((await db.prepare('SELECT * FROM rules_daily ORDER BY rule_line').all()).results).toEqual(rules)
    const { rowsRead: _r2, ...replayAfter } = await getImpact(db, filter, options)
    expect(replayAfter).toEqual(replayBefore)

    // A later write reopens the small page: still one page, every request once.
    await write(60)
    expect(await mergeShapePacks(db)).toMatchObject({ merged: 1, pages: 1, complete: true })
    expect(await count('SELECT count(*) AS n FROM shape_packs')).toBe(1)
    expect(await count('SELECT sum(requests) AS n FROM shape_packs')).toBe(160)
  })

  it('runs one fold at a time: two at once count each request once', async () => {
    for (let w = 0; w < 4; w++)
      await writeEvents(
        db,
        Array.from({ length: 30 }, (_, i) => requestTo(`/articles/${w * 7 + i}`, i)),
      )
    const before = await paths()
    const [a, b] = await Promise.all([mergeShapePacks(db), mergeShapePacks(db)])
    // One of them holds the lease; the other folds nothing and says it is not done.
    expect([a.merged, b.merged].sort()).toEqual([0, 4])
    expect([a.complete, b.complete].sort()).toEqual([false, true])
    expect(await paths()).toEqual(before)
    expect(await count('SELECT sum(requests) AS n FROM shape_packs')).toBe(120)
    // The lease is given back: the next fold runs.
    await writeEvents(
      db,
      Array.from({ length: 30 }, (_, i) => requestTo(`/tags/${i}`, i)),
    )
    expect(await mergeShapePacks(db)).toMatchObject({ merged: 1, complete: true })
  })

  it('cuts pages at PAGE_PATHS paths, and reopens only a small one', async () => {
    const n = 2 * PAGE_PATHS + 1000
    await writeEvents(
      db,
      Array.from({ length: n }, (_, i) => requestTo(`/p/${String(i).padStart(5, '0')}`, i)),
    )
    const packs = await count('SELECT count(*) AS n FROM shape_inbox')
    // A write's sets of statements stay within D1's 2 MB per bound string: 9,000 events take more than one.
    expect(packs).toBeGreaterThan(1)
    expect(await mergeShapePacks(db)).toMatchObject({ merged: packs, pages: 3, complete: true })
    const sizes = (await db.prepare('SELECT paths FROM shape_packs ORDER BY paths DESC').all<{ paths: number }>()).results.map((r) => r.paths)
    expect(sizes).toEqual([PAGE_PATHS, PAGE_PATHS, 1000])
    await writeEvents(db, [requestTo('/p/00000'), requestTo('/q'), requestTo('/r'), requestTo('/s')])
    await mergeShapePacks(db)
    const after = (await db.prepare('SELECT paths FROM shape_packs ORDER BY paths DESC').all<{ paths: number }>()).results.map((r) => r.paths)
    // The small page took all four: '/p/00000' a second time (its other count is on a full page), and three new paths.
    expect(after).toEqual([PAGE_PATHS, PAGE_PATHS, 1004])
    expect(await count(`SELECT sum(requests) AS n FROM (${SHAPE_PATHS_SQL})`)).toBe(n + 4)
    expect(await count(`SELECT requests AS n FROM (${SHAPE_PATHS_SQL}) WHERE path = '/p/00000'`)).toBe(2)
  })

  it('keeps a pack whose body does not parse in the inbox, and stops at its time budget', async () => {
    await writeEvents(db, [requestTo('/a/1'), requestTo('/a/2', 1), requestTo('/a/3', 2)])
    await db
      .prepare(`INSERT INTO shape_inbox (day, host, agent_key, robots_version, seq, agent_tokens, requests, paths, violations, groups, body)
        VALUES (?1, 'example.com', 'gptbot', 'v1', 1, 'gptbot', 3, 1, 0, '[]', '[["/b", 3')`)
      .bind(DAY0)
      .run()
    // Every reader skips it rather than fail: the paths, the replay, the rules roll-up.
    expect(await paths()).toHaveLength(3)
    const replay = await getImpact(db, { since: DAY0, until: DAY0 + DAY }, { candidates: new Map([['*', 'User-agent: *\nDisallow: /a/\n']]), exempt: new Set(), protect: new Set() })
    expect(replay.summary.requests).toBe(3)
    await rollUpLedger(db, { now: T0 })
    expect(await mergeShapePacks(db, { budgetMs: 0 })).toMatchObject({ merged: 0, pages: 0, complete: false })
    expect(await count('SELECT count(*) AS n FROM shape_inbox')).toBe(2)
    expect(await mergeShapePacks(db)).toMatchObject({ merged: 1, pages: 1, complete: true })
    expect(await db.prepare('SELECT body FROM shape_inbox').first('body')).toBe('[["/b", 3')
    expect(await count('SELECT sum(requests) AS n FROM shape_packs')).toBe(3)
  })

  it('totals the per-path shapes of a day that is over, once, and packs a request recorded later for it', async () => {
    await recordRobotsVersion(db, { host: 'example.com', hash: 'v1', text: 'User-agent: *\nDisallow: /admin/\n', time: T0 - 30 * DAY })
    // Small writes (a request or two), as they happen: a row per path.
    for (let i = 0; i < 12; i++) {
      nowIs(T0 + i * HOUR + 1000)
      await writeEvents(db, [requestTo(`/articles/${i % 5}`, i * HOUR), requestTo(i % 2 ? '/about' : '/', i * HOUR + 1)])
    }
    // A group of more paths than a total lists (LISTED_PATHS): a replay reads its day's rows.
    for (let i = 0; i < LISTED_PATHS + 4; i++) {
      nowIs(T0 + i * MINUTE + 1000)
      await writeEvents(db, [requestTo(`/tags/${i}`, i * MINUTE)])
    }
    vi.restoreAllMocks()
    expect(await count('SELECT count(*) AS n FROM shape_inbox')).toBe(0)
    const filter = { since: DAY0, until: DAY0 + 2 * DAY }
    const options = { candidates: new Map([['*', 'User-agent: *\nDisallow: /articles/3\n']]), exempt: new Set<string>(), protect: new Set<string>() }
    const { rowsRead: _r1, ...before } = await getImpact(db, filter, options)
    expect(before.summary.requests).toBe(44)

    // Not before the day's hours are rolled up, and an hour more.
    await rollUpLedger(db, { now: DAY0 + DAY + HOUR })
    expect(await mergeShapePacks(db)).toMatchObject({ days: 0, complete: true })
    await rollUpLedger(db, { now: DAY0 + DAY + 3 * HOUR })
    expect(await mergeShapePacks(db)).toMatchObject({ days: 1, complete: true })
    expect(await mergeShapePacks(db)).toMatchObject({ days: 0, complete: true })
    const totals = (await db.prepare('SELECT grp, requests, paths, min_path, max_path, list IS NOT NULL AS listed FROM shape_groups_daily ORDER BY grp').all()).results
    expect(totals).toEqual([
      { grp: '/', requests: 12, paths: 2, min_path: '/', max_path: '/about', listed: 1 },
      { grp: '/articles/', requests: 12, paths: 5, min_path: '/articles/0', max_path: '/articles/4', listed: 1 },
      { grp: '/tags/', requests: 20, paths: 20, min_path: '/tags/0', max_path: '/tags/9', listed: 0 },
    ])
    const { rowsRead: _r2, ...after } = await getImpact(db, filter, options)
    expect(after).toEqual(before)

    // Late, for the totalled day: packed, and still replayed.
    nowIs(DAY0 + DAY + 3 * HOUR)
    await writeEvents(db, [requestTo('/articles/3', 5 * HOUR)])
    expect(await count('SELECT count(*) AS n FROM shape_inbox')).toBe(1)
    expect(await count('SELECT count(*) AS n FROM shapes_daily')).toBe(27)
    const { rowsRead: _r3, ...late } = await getImpact(db, filter, options)
    expect(late.summary.requests).toBe(45)
  })

  it('replaces a closed day’s first paths of counted violations with its top paths, exactly', async () => {
    await recordRobotsVersion(db, { host: 'example.com', hash: 'v1', text: 'User-agent: *\nDisallow: /admin/\n', time: T0 - 30 * DAY })
    // The first three paths come first; the most requested one after them.
    const paths = ['/admin/a', '/admin/b', '/admin/c', ...Array.from({ length: 10 }, () => '/admin/z')]
    for (const [i, path] of paths.entries()) {
      nowIs(T0 + i * MINUTE + 1000)
      await writeEvents(db, [requestTo(path, i * MINUTE)])
    }
    vi.restoreAllMocks()
    const day = { since: DAY0, until: DAY0 + DAY }
    const before = await getReport(db, day)
    expect(before.topPaths.map((p) => [p.path, p.violations])).toEqual([
      ['/admin/a', 1],
      ['/admin/b', 1],
      ['/admin/c', 1],
    ])
    expect(before.coverage.paths.other).toBe(10)

    await rollUpLedger(db, { now: DAY0 + DAY + 3 * HOUR })
    expect(await mergeShapePacks(db)).toMatchObject({ days: 1 })
    const after = await getReport(db, day)
    expect(after.topPaths.map((p) => [p.path, p.violations])).toEqual([
      ['/admin/z', 10],
      ['/admin/a', 1],
      ['/admin/b', 1],
    ])
    expect(after.agents.find((a) => a.agentKey === 'gptbot')?.evidence.examplePaths[0]).toBe('/admin/z')
    expect(after.coverage.paths.other).toBe(1)
    expect(after.totals.violations).toBe(before.totals.violations)
  })

  it('gives a day of packs only its top paths too', async () => {
    await recordRobotsVersion(db, { host: 'example.com', hash: 'v1', text: 'User-agent: *\nDisallow: /admin/\n', time: T0 - 30 * DAY })
    const paths = ['/admin/a', '/admin/b', '/admin/c', ...Array.from({ length: 10 }, () => '/admin/z')]
    nowIs(T0 + HOUR)
    await writeEvents(
      db,
      paths.map((path, i) => requestTo(path, i * MINUTE)),
    )
    vi.restoreAllMocks()
    expect(await count('SELECT count(*) AS n FROM shapes_daily')).toBe(0)
    await rollUpLedger(db, { now: DAY0 + DAY + 3 * HOUR })
    expect(await mergeShapePacks(db)).toMatchObject({ merged: 1, days: 1, complete: true })
    const report = await getReport(db, { since: DAY0, until: DAY0 + DAY })
    expect(report.topPaths.map((p) => [p.path, p.violations])).toEqual([
      ['/admin/z', 10],
      ['/admin/a', 1],
      ['/admin/b', 1],
    ])
  })

  it('writes a small write a row per path instead, which every reader adds up with the packs', async () => {
    nowIs(T0 + 1000)
    await writeEvents(db, [requestTo('/a/1'), requestTo('/a/2', 1)])
    expect(await count('SELECT count(*) AS n FROM shape_inbox')).toBe(0)
    expect(await count('SELECT count(*) AS n FROM shapes_daily')).toBe(2)
    await writeEvents(db, [requestTo('/a/1', 2), requestTo('/a/3', 3), requestTo('/a/4', 4)])
    expect(await count('SELECT count(*) AS n FROM shape_inbox')).toBe(1)
    const rows = (await db.prepare(`SELECT path, requests FROM (${SHAPE_PATHS_SQL}) ORDER BY path`).all()).results
    expect(rows).toEqual([
      { path: '/a/1', requests: 2 },
      { path: '/a/2', requests: 1 },
      { path: '/a/3', requests: 1 },
      { path: '/a/4', requests: 1 },
    ])
  })
})
