/**
 * The SQL of one write batch (src/ledger/ledger.ts), built once from
 * constant names. Rows are bound as one JSON array per statement (?1) and
 * unpacked with `json_each`: D1 allows at most 100 bound parameters per
 * statement. Each statement classifies what it reads with CLASS_SQL, against
 * the same state, so all of them agree on every request's class.
 */
import { CLASS_SQL, COUNTED_SQL } from './classes.ts'
import { EVENT_COLUMNS } from './rollups.ts'
import { GROUP_OF, PLAIN } from './shape-sql.ts'

/** The raw row's fields in the order rawRow (src/ledger/ledger.ts) binds them: arrays parse faster than objects. */
export const RAW_ORDER = ['id', 'known', 'prev_allowed', ...EVENT_COLUMNS] as const
const RAW_FIELDS = `SELECT key AS i, ${RAW_ORDER.map((c, n) => `value ->> ${n} AS ${c}`).join(', ')} FROM json_each(?1)`

const FACT_FIELDS = `SELECT key AS i, value ->> '$.a' AS agent_key, value ->> '$.o' AS operator, value ->> '$.h' AS host,
  value ->> '$.v' AS verification, value ->> '$.r' AS robots_version, value ->> '$.t' AS time, value ->> '$.c' AS known,
  value ->> '$.p' AS prev_allowed, value ->> '$.b' AS blocked, value ->> '$.q' AS request, value ->> '$.pa' AS path,
  value ->> '$.tk' AS agent_tokens, value ->> '$.rl' AS rule_line, value ->> '$.rt' AS rule_type, value ->> '$.rp' AS rule_pattern,
  coalesce(value ->> '$.by', 0) AS bytes, coalesce(value ->> '$.pg', 0) AS page
  FROM json_each(?1)`

function classified(fields: string): string {
  return `SELECT j.*, (j.time / 3600000) * 3600000 AS hour, (j.time / 86400000) * 86400000 AS day, ${CLASS_SQL} AS cls FROM (${fields}) j`
}

/** The facts of ?1, each with its hour, day and class (`cls`). */
const FACTS = classified(FACT_FIELDS)

/**
 * The sampling budget of a class, per agent, hour, host and verification:
 * ?3 for counted violations (the evidence the drill-down shows), ?2 for the rest.
 */
const budgetOf = (cls: string) => `(CASE WHEN ${cls} IN (${COUNTED_SQL}) THEN ?3 ELSE ?2 END)`

/**
 * The raw rows already kept for a row `x`'s agent, hour, verification and
 * class, over every host (its counters' `sampled`): the sampling budget is
 * per agent, class and hour, as the report says, not per host too (issue
 * 18: per host it kept four times as many rows on a site of four hosts).
 * Reads the agent's counters of that hour.
 */
const usedBy = (x: string) =>
  `coalesce((SELECT sum(u.sampled) FROM counts_hourly u WHERE u.agent_key = ${x}.agent_key AND u.hour = ${x}.hour AND u.verification = ${x}.verification AND u.class = ${x}.cls), 0)`

/**
 * Whether a row `x` of a batch is kept raw: within its agent, hour, verification and class,
 * while fewer than its class's budget (budgetOf) have been (usedBy, read
 * before this batch updates the counters, plus its rank in the batch). The
 * raw rows (INSERT_RAW) and the counters' `sampled` (UPSERT_COUNTS_HOURLY,
 * UPSERT_LATE_DAILY) decide it alike, on the same order of events: an
 * isolate leaves out only whole groups whose budget
 * is spent, where every row is turned away anyway.
 */
const keptOf = (x: string) => `(${usedBy(x)} + row_number() OVER (PARTITION BY ${x}.agent_key, ${x}.hour, ${x}.verification, ${x}.cls ORDER BY ${x}.i) <= ${budgetOf(`${x}.cls`)})`

/** Agents as first seen; an existing row is only written to fill a gap. */
export const UPSERT_AGENTS = `INSERT INTO agents (agent_key, agent_id, kind, operator, category, obeys_robots_txt, first_seen)
  SELECT value ->> '$.agent_key', value ->> '$.agent_id', value ->> '$.kind', value ->> '$.operator', value ->> '$.category',
    value ->> '$.obeys_robots_txt', value ->> '$.first_seen' FROM json_each(?1) WHERE true
  ON CONFLICT (agent_key) DO UPDATE SET agent_id = coalesce(agent_id, excluded.agent_id), operator = coalesce(operator, excluded.operator),
    category = coalesce(category, excluded.category), first_seen = min(first_seen, excluded.first_seen)
  WHERE (agent_id IS NULL AND excluded.agent_id IS NOT NULL) OR (operator IS NULL AND excluded.operator IS NOT NULL)
    OR (category IS NULL AND excluded.category IS NOT NULL) OR excluded.first_seen < first_seen`

export const UPSERT_FETCHES = `INSERT INTO robots_fetches (host, agent_key, robots_version, operator, first_fetch, last_fetch, fetches)
  SELECT value ->> '$.host', value ->> '$.agent_key', value ->> '$.robots_version', value ->> '$.operator',
    value ->> '$.first_fetch', value ->> '$.last_fetch', value ->> '$.fetches' FROM json_each(?1) WHERE true
  ON CONFLICT (host, agent_key, robots_version) DO UPDATE SET first_fetch = min(first_fetch, excluded.first_fetch),
    last_fetch = max(last_fetch, excluded.last_fetch), fetches = fetches + excluded.fetches`

/** Marks the versions in use today; writes only when the day moves on. */
export const TOUCH_VERSIONS = `UPDATE robots_versions SET last_used = j.d
  FROM (SELECT value ->> '$.h' AS h, value ->> '$.r' AS r, value ->> '$.d' AS d FROM json_each(?1)) j
  WHERE robots_versions.host = j.h AND robots_versions.hash = j.r AND (robots_versions.last_used IS NULL OR robots_versions.last_used < j.d)`

/** Raw rows, sampled: a request is kept while its agent, hour, verification and class are within their budget (keptOf). */
export const INSERT_RAW = `INSERT INTO events (agent_key, host, counted, time, id, class, ${EVENT_COLUMNS.filter((c) => !['agent_key', 'host', 'time'].includes(c)).join(', ')})
  SELECT s.agent_key, s.host, s.cls IN (${COUNTED_SQL}), s.time, s.id, s.cls, ${EVENT_COLUMNS.filter((c) => !['agent_key', 'host', 'time'].includes(c))
    .map((c) => `s.${c}`)
    .join(', ')}
  FROM (SELECT c.*, ${keptOf('c')} AS kept FROM (${classified(RAW_FIELDS)}) c) s
  WHERE s.kept
  ON CONFLICT DO NOTHING`

/** Hours before this are rolled up into counts_daily and timeline_hourly (src/ledger/rollup.ts). */
const ROLLED_HOUR = "coalesce((SELECT value FROM ledger_state WHERE name = 'rolled_hour'), 0)"
/** The facts of requests recorded late, for an hour already rolled up, classified. */
const LATE_FACTS = classified(`${FACT_FIELDS} WHERE (value ->> '$.t' / 3600000) * 3600000 < ${ROLLED_HOUR}`)

/**
 * Daily counts of requests recorded for an hour the cron has already rolled
 * up (normally none), before the hourly ones: the raw rows kept
 * (`sampled`) are worked out per hour against counts_hourly as it was.
 */
export const UPSERT_LATE_DAILY = `WITH c AS (SELECT f.*, ${keptOf('f')} AS kept FROM (${LATE_FACTS}) f)
  INSERT INTO counts_daily (agent_key, day, host, verification, class, requests, blocked, sampled, first_time, last_time, bytes, pages)
  SELECT agent_key, day, host, verification, cls, count(*), sum(blocked), sum(kept), min(time), max(time), sum(bytes), sum(page)
  FROM c WHERE true GROUP BY agent_key, day, host, verification, cls
  ON CONFLICT (agent_key, day, host, verification, class) DO UPDATE SET requests = requests + excluded.requests,
    blocked = blocked + excluded.blocked, sampled = sampled + excluded.sampled, bytes = bytes + excluded.bytes, pages = pages + excluded.pages,
    first_time = min(first_time, excluded.first_time), last_time = max(last_time, excluded.last_time)`

/** The timeline of requests recorded late, for an hour already rolled up: crawlers only, genuine claims only. */
export const UPSERT_LATE_TIMELINE = `INSERT INTO timeline_hourly (hour, host, category, requests, violations)
  SELECT c.hour, c.host, coalesce(a.category, ''), count(*), sum(c.cls IN (${COUNTED_SQL}))
  FROM (${LATE_FACTS}) c JOIN agents a ON a.agent_key = c.agent_key
  WHERE c.request = 1 AND a.kind = 'bot' AND c.verification IN ('verified', 'unverified')
  GROUP BY c.hour, c.host, coalesce(a.category, '')
  ON CONFLICT (hour, host, category) DO UPDATE SET requests = requests + excluded.requests, violations = violations + excluded.violations`

/**
 * Per minute, host and category, the timeline of a short span (migrations/0060): crawlers only, genuine claims only.
 * Only requests from ?2 on (the start of the hour three hours before the write): minutes are read only for activity up to three hours old, and a
 * late batch then adds no row per minute (the report reads such hours per hour, from counters that add up).
 * And only in a host's first MINUTES_FOR hours (from its first robots.txt version; a host with none yet counts as new): what a first
 * session shows per minute. Afterwards a row per minute would be most of what an isolate's write of a request or two costs (one row
 * of three), for a short range the report reads per hour anyway, exactly.
 */
const MINUTES_FOR = 6 * 3_600_000
export const UPSERT_MINUTES = `INSERT INTO timeline_minutes (minute, host, category, requests, violations)
  SELECT (c.time / 60000) * 60000, c.host, coalesce(a.category, ''), count(*), sum(c.cls IN (${COUNTED_SQL}))
  FROM (${FACTS}) c JOIN agents a ON a.agent_key = c.agent_key
  WHERE c.request = 1 AND c.time >= ?2 AND a.kind = 'bot' AND c.verification IN ('verified', 'unverified')
    AND c.time < coalesce((SELECT min(v.first_served) FROM robots_versions v WHERE v.host = c.host), c.time) + ${MINUTES_FOR}
  GROUP BY 1, 2, 3
  ON CONFLICT (minute, host, category) DO UPDATE SET requests = requests + excluded.requests, violations = violations + excluded.violations`

/**
 * Returns each counter's agent, hour, verification and class (its sampling group) and raw rows kept, so the isolate
 * stops sending a group's raw rows this hour once they add up to its budget.
 */
export const UPSERT_COUNTS_HOURLY = `INSERT INTO counts_hourly (agent_key, hour, host, verification, class, requests, blocked, sampled, first_time, last_time, bytes, pages)
  SELECT agent_key, hour, host, verification, cls, count(*), sum(blocked), sum(kept), min(time), max(time), sum(bytes), sum(page)
  FROM (SELECT f.*, ${keptOf('f')} AS kept FROM (${FACTS}) f) WHERE true GROUP BY agent_key, hour, host, verification, cls
  ON CONFLICT (agent_key, hour, host, verification, class) DO UPDATE SET requests = requests + excluded.requests,
    blocked = blocked + excluded.blocked, sampled = sampled + excluded.sampled, bytes = bytes + excluded.bytes, pages = pages + excluded.pages,
    first_time = min(first_time, excluded.first_time), last_time = max(last_time, excluded.last_time)
  RETURNING agent_key || char(10) || hour || char(10) || verification || char(10) || class AS grp, sampled`

/** The disallowed requests' facts (allowed ones and fetches are not counted per path), classified. */
const DISALLOWED_FACTS = classified(`${FACT_FIELDS} WHERE value ->> '$.q' = 1 AND coalesce(value ->> '$.c', '') <> 'allowed'`)

/**
 * Paths of disallowed requests: a path new to its group (class, day, host,
 * agent, verification) gets a row while the group holds fewer than ?2 paths
 * (counted from its rows: at most ?2 read), most requested first; beyond it
 * the requests are not written here at all (a row per path would make the report's reads grow with paths): the counters hold
 * every request, so the rest of a group is their total less its rows. Rows
 * under version '' and path '' are from before, when the rest was written.
 */
export const UPSERT_PATHS = `WITH c AS (${DISALLOWED_FACTS}),
  g AS (SELECT cls, day, host, agent_key, verification, robots_version, path, max(agent_tokens) AS agent_tokens, count(*) AS n,
          EXISTS (SELECT 1 FROM paths_daily p WHERE p.class = c.cls AND p.day = c.day AND p.host = c.host AND p.agent_key = c.agent_key
            AND p.verification = c.verification AND p.robots_version = c.robots_version AND p.path = c.path) AS known
        FROM c GROUP BY cls, day, host, agent_key, verification, robots_version, path),
  r AS (SELECT g.*, row_number() OVER (PARTITION BY cls, day, host, agent_key, verification, known ORDER BY n DESC, robots_version, path) AS rank
        FROM g),
  o AS (SELECT DISTINCT cls, day, host, agent_key, verification FROM r WHERE known = 0),
  h AS (SELECT o.*, (SELECT count(*) FROM (SELECT 1 FROM paths_daily p WHERE p.class = o.cls AND p.day = o.day AND p.host = o.host
            AND p.agent_key = o.agent_key AND p.verification = o.verification AND p.path <> '' LIMIT ?2)) AS held FROM o)
  INSERT INTO paths_daily (class, day, host, agent_key, verification, robots_version, path, agent_tokens, requests, paths)
  SELECT r.cls, r.day, r.host, r.agent_key, r.verification, r.robots_version, r.path, r.agent_tokens, r.n, 0
  FROM r LEFT JOIN h ON h.cls = r.cls AND h.day = r.day AND h.host = r.host AND h.agent_key = r.agent_key AND h.verification = r.verification
  WHERE r.known = 1 OR coalesce(h.held, 0) + r.rank <= ?2
  ON CONFLICT (class, day, host, agent_key, verification, robots_version, path) DO UPDATE SET requests = requests + excluded.requests`

/**
 * Request shapes for a replay (src/ledger/shape-packs.ts): every genuine
 * claim's judged request (spoofed ones are not the agent they name), as one
 * pack per day, host, agent and version of the chunk, holding each of its
 * paths with its requests, and each path group's totals. ?2: the chunk's
 * pack id (random; the key's last column). Nothing is capped when written, so a replay is exact;
 * the cron bounds the shapes by their retention and a cap (src/ledger/prune.ts).
 *
 * A path also carries its counted violations and the rule line they broke
 * (migrations/0070): the cron adds them up per rule (src/ledger/rules-sql.ts),
 * so no row per rule is written per batch. The rule follows from the
 * version, the path and the agent's tokens, which a pack keeps one of, as
 * the replay does. Requests for an hour already rolled up are not counted
 * here but in rules_daily directly (UPSERT_LATE_RULES): the cron derives only
 * days it has not closed.
 */
const VIOLATES = `(c.known IS NULL AND c.cls IN (${COUNTED_SQL}) AND c.rule_line IS NOT NULL AND c.rule_type IS NOT NULL AND c.hour >= ${ROLLED_HOUR})`
export const INSERT_SHAPE_PACKS = `WITH c AS MATERIALIZED (${FACTS} WHERE j.request = 1 AND j.verification <> 'spoofed'),
  s AS MATERIALIZED (SELECT c.day, c.host, c.agent_key, c.robots_version, c.path, max(c.agent_tokens) AS tokens, count(*) AS n, sum(${VIOLATES}) AS v,
      max(CASE WHEN ${VIOLATES} THEN c.rule_line END) AS rl, max(CASE WHEN ${VIOLATES} THEN c.rule_type END) AS rt,
      max(CASE WHEN ${VIOLATES} THEN coalesce(c.rule_pattern, '') END) AS rp, ${GROUP_OF} AS g, ${PLAIN} AS plain
    FROM c GROUP BY c.day, c.host, c.agent_key, c.robots_version, c.path),
  t AS (SELECT day, host, agent_key, robots_version, json_group_array(json_array(g, n, k, lo, hi, u)) AS groups
    FROM (SELECT day, host, agent_key, robots_version, g, sum(n) AS n, count(*) AS k, min(path) AS lo, max(path) AS hi, sum(NOT plain) AS u
      FROM s GROUP BY day, host, agent_key, robots_version, g)
    GROUP BY day, host, agent_key, robots_version)
  INSERT INTO shape_inbox (day, host, agent_key, robots_version, seq, agent_tokens, requests, paths, violations, groups, body)
  SELECT s.day, s.host, s.agent_key, s.robots_version, ?2, max(s.tokens), sum(s.n), count(*), sum(s.v), max(t.groups),
    json_group_array(CASE WHEN s.v > 0 THEN json_array(s.path, s.n, s.v, s.rl, s.rt, s.rp) ELSE json_array(s.path, s.n) END)
  FROM s JOIN t ON t.day = s.day AND t.host = s.host AND t.agent_key = s.agent_key AND t.robots_version = s.robots_version
  GROUP BY s.day, s.host, s.agent_key, s.robots_version`

/**
 * The same shapes one row per day, host, agent, version and path
 * (shapes_daily), for a small write: a write of a few events costs a row per
 * path either way, and a pack would cost its deletion by the cron's fold
 * too. Readers add both up (src/ledger/shape-packs.ts SHAPE_PATHS_SQL).
 */
export const UPSERT_SHAPE_PATHS = `WITH c AS MATERIALIZED (${FACTS} WHERE j.request = 1 AND j.verification <> 'spoofed')
  INSERT INTO shapes_daily (day, host, agent_key, robots_version, path, agent_tokens, requests, paths, violations, rule_line, rule_type, rule_pattern)
  SELECT c.day, c.host, c.agent_key, c.robots_version, c.path, max(c.agent_tokens), count(*), 0, sum(${VIOLATES}),
    max(CASE WHEN ${VIOLATES} THEN c.rule_line END), max(CASE WHEN ${VIOLATES} THEN c.rule_type END),
    max(CASE WHEN ${VIOLATES} THEN coalesce(c.rule_pattern, '') END)
  FROM c WHERE true GROUP BY c.day, c.host, c.agent_key, c.robots_version, c.path
  ON CONFLICT (day, host, agent_key, robots_version, path) DO UPDATE SET requests = requests + excluded.requests,
    violations = violations + excluded.violations, rule_line = coalesce(excluded.rule_line, rule_line),
    rule_type = coalesce(excluded.rule_type, rule_type), rule_pattern = coalesce(excluded.rule_pattern, rule_pattern)`

/** The facts SQL classifies (a genuine claim's disallowed requests) of an hour already rolled up, classified. */
const LATE_UNSETTLED_FACTS = classified(`${FACT_FIELDS} WHERE value ->> '$.c' IS NULL AND (value ->> '$.t' / 3600000) * 3600000 < ${ROLLED_HOUR}`)

/** Violations per rule of requests recorded late, for an hour already rolled up (normally none): see INSERT_SHAPE_PACKS. */
export const UPSERT_LATE_RULES = `INSERT INTO rules_daily (day, host, robots_version, rule_line, agent_key, rule_type, rule_pattern, violations)
  SELECT day, host, robots_version, rule_line, agent_key, max(rule_type), max(coalesce(rule_pattern, '')), count(*)
  FROM (${LATE_UNSETTLED_FACTS}) WHERE cls IN (${COUNTED_SQL}) AND rule_line IS NOT NULL AND rule_type IS NOT NULL
  GROUP BY day, host, robots_version, rule_line, agent_key
  ON CONFLICT (day, host, robots_version, rule_line, agent_key) DO UPDATE SET violations = violations + excluded.violations`

export const INSERT_GROUPS = `INSERT OR IGNORE INTO agent_groups (agent_key, day, robots_version, robots_group)
  SELECT value ->> '$.agent_key', value ->> '$.day', value ->> '$.robots_version', value ->> '$.robots_group' FROM json_each(?1)`
