/**
 * The SQL of the packed request shapes (src/ledger/shape-packs.ts), built
 * from constant names and free of Workers types, so Node tests read the
 * ledger with it too.
 */
import { COUNTED_SQL, TOP_PATHS_CLASS } from './classes.ts'
import { PATH_CAP } from './rollups.ts'
/**
 * A path's group: its first segment with both slashes (`/articles/` for
 * `/articles/1`), `/` for a path with no second slash, and the path itself
 * when it does not start with a slash (never a request path; `''` stays
 * `''`, which held requests beyond an old cap). Always a prefix of every
 * path in it, so a replay can judge a whole group by it when no rule tells
 * its paths apart. SQL over a column named `path`.
 */
export const GROUP_OF = `(CASE WHEN substr(path, 1, 1) <> '/' THEN path
  WHEN instr(substr(path, 2), '/') > 0 THEN substr(path, 1, instr(substr(path, 2), '/') + 1) ELSE '/' END)`

/** groupOf in TypeScript, as GROUP_OF computes it (tests and the merge's checks). */
export function groupOf(path: string): string {
  if (!path.startsWith('/')) return path
  const slash = path.indexOf('/', 1)
  return slash < 0 ? '/' : path.slice(0, slash + 1)
}

/**
 * A path every reading of which is the path itself (src/edge/guard/readings.ts):
 * ASCII (as many bytes as characters), no escape, backslash, `//` or dot
 * segment. SQL over a column named `path`.
 */
export const PLAIN = `(instr(path, '%') = 0 AND instr(path, char(92)) = 0 AND instr(path, '//') = 0 AND instr(path, '/.') = 0
  AND length(CAST(path AS BLOB)) = length(path))`

/** One entry of a pack's body: a path and its requests, then, when it has counted violations, their number and the rule they broke. */
export type PackEntry = [path: string, requests: number] | [path: string, requests: number, violations: number, line: number | null, type: string | null, pattern: string | null]

/** The tables a replay and the rules roll-up read shapes from (the legacy shapes_daily apart). */
export const PACK_TABLES = ['shape_inbox', 'shape_packs'] as const

/** A pack table's paths, one row per entry. */
const entriesOf = (t: string) => `SELECT p.day, p.host, p.agent_key, p.robots_version, e.value ->> 0 AS path, p.agent_tokens, e.value ->> 1 AS requests,
    coalesce(e.value ->> 2, 0) AS violations, e.value ->> 3 AS rule_line, e.value ->> 4 AS rule_type, e.value ->> 5 AS rule_pattern
  FROM ${t} p, json_each(CASE WHEN json_valid(p.body) THEN p.body ELSE '[]' END) e`

/**
 * Every stored shape as one row per day, host, agent, version and path, as
 * the per-path table before the packs held them (which it reads too): what
 * tests and a diagnosis compare with, never what a report or a replay reads
 * (their reads follow the packs, not the paths).
 */
export const SHAPE_PATHS_SQL = `SELECT day, host, agent_key, robots_version, path, max(agent_tokens) AS agent_tokens, sum(requests) AS requests,
    sum(violations) AS violations, max(rule_line) AS rule_line, max(rule_type) AS rule_type, max(rule_pattern) AS rule_pattern
  FROM (${PACK_TABLES.map(entriesOf).join(' UNION ALL ')}
    UNION ALL SELECT day, host, agent_key, robots_version, path, agent_tokens, requests, violations, rule_line, rule_type, rule_pattern FROM shapes_daily)
  GROUP BY day, host, agent_key, robots_version, path`

/** The first day whose shapes_daily rows are not totalled per group yet (shape_groups_daily, migrations/0080). */
export const GROUPS_DAY = "coalesce((SELECT value FROM ledger_state WHERE name = 'shape_groups_day'), 0)"

/** A group's paths are listed beside its totals up to this many (shape_groups_daily.list). */
export const LISTED_PATHS = 16

/**
 * Totals per day, host, agent, version and path group of shapes_daily's
 * rows of day ?1, replacing any (a day is totalled once; a run cut short
 * totals it again, alike), with the group's paths when they are few.
 */
export const TOTAL_GROUPS = `INSERT INTO shape_groups_daily (day, host, agent_key, robots_version, grp, agent_tokens, requests, paths, min_path, max_path, unplain, list)
  SELECT day, host, agent_key, robots_version, ${GROUP_OF}, max(agent_tokens), sum(requests), count(*), min(path), max(path), sum(NOT ${PLAIN}),
    CASE WHEN count(*) <= ${LISTED_PATHS} THEN json_group_array(json_array(path, requests)) END
  FROM shapes_daily WHERE day = ?1 GROUP BY day, host, agent_key, robots_version, ${GROUP_OF}
  ON CONFLICT (day, host, agent_key, robots_version, grp) DO UPDATE SET agent_tokens = excluded.agent_tokens, requests = excluded.requests,
    paths = excluded.paths, min_path = excluded.min_path, max_path = excluded.max_path, unplain = excluded.unplain, list = excluded.list`

/** The first day whose paths of counted violations the cron replaces with the day's top paths (migrations/0080: shapes carry violations from then on). */
const TOP_PATHS_DAY = "coalesce((SELECT value FROM ledger_state WHERE name = 'top_paths_day'), 0)"

/** Every path with counted violations of day ?1, per host and agent, from each table that holds shapes. */
const VIOLATED_PATHS = [
  ...PACK_TABLES.map(
    (t) => `SELECT p.host, p.agent_key, e.value ->> 0 AS path, e.value ->> 2 AS v FROM ${t} p, json_each(CASE WHEN json_valid(p.body) THEN p.body ELSE '[]' END) e
      WHERE p.day = ?1 AND p.violations > 0 AND json_array_length(e.value) > 2`,
  ),
  'SELECT host, agent_key, path, violations AS v FROM shapes_daily WHERE day = ?1 AND violations > 0',
].join(' UNION ALL ')

/**
 * A closed day's top PATH_CAP paths of counted violations per host and agent
 * (ties by path), with their exact counts, in place of the first PATH_CAP per
 * class that the write path keeps (ledger-sql.ts UPSERT_PATHS): the rest
 * stays the counters' total less them, as before. Genuine claims'
 * violations recorded on time, as the shapes count them (a request recorded
 * after its hour was rolled up counts in the counters and rules only).
 * Days before `top_paths_day` keep their rows: their shapes carry no violations.
 */
export const TOP_PATHS: readonly string[] = [
  `DELETE FROM paths_daily WHERE class IN (${COUNTED_SQL}) AND day = ?1 AND ?1 >= ${TOP_PATHS_DAY}`,
  `INSERT INTO paths_daily (class, day, host, agent_key, verification, robots_version, path, agent_tokens, requests, paths)
  SELECT '${TOP_PATHS_CLASS}', ?1, host, agent_key, '', '', path, '', v, 0 FROM (
    SELECT host, agent_key, path, sum(v) AS v, row_number() OVER (PARTITION BY host, agent_key ORDER BY sum(v) DESC, path) AS rank
    FROM (${VIOLATED_PATHS}) GROUP BY host, agent_key, path)
  WHERE rank <= ${PATH_CAP} AND ?1 >= ${TOP_PATHS_DAY}
  ON CONFLICT (class, day, host, agent_key, verification, robots_version, path) DO UPDATE SET requests = excluded.requests`,
]
