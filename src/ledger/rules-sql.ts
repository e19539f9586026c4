/**
 * The cron's sum of violations per rule (migrations/0070), in SQL only: run
 * by rollUpLedger (src/ledger/rollup.ts) and by tests that run the built Workers.
 */
/** The first day whose violations per rule are still derived from the shapes (migrations/0070). */
const RULES_DAY = "coalesce((SELECT value FROM ledger_state WHERE name = 'rules_day'), 0)"

/** A pack's paths with counted violations, per table (src/ledger/shape-packs.ts): the body entries that carry a rule. */
const violationsOf = (table: string) => `SELECT p.day, p.host, p.robots_version, p.agent_key, e.value ->> 3 AS rule_line, e.value ->> 4 AS rule_type,
    coalesce(e.value ->> 5, '') AS rule_pattern, e.value ->> 2 AS violations
  FROM ${table} p, json_each(CASE WHEN json_valid(p.body) THEN p.body ELSE '[]' END) e WHERE p.day >= ${RULES_DAY} AND p.violations > 0 AND json_array_length(e.value) > 2`

/**
 * Violations per rule (rules_daily.derived), added up again from the shapes
 * (src/ledger/ledger-sql.ts INSERT_SHAPE_PACKS; the cron's merge keeps every
 * sum, and shapes_daily holds those written before the packs) for every day
 * from RULES_DAY on: absolute, so a run that stops half way or runs twice
 * never counts twice. A shape's violations only grow, so a total only grows:
 * a lower one means the shapes were pruned (their own retention), and the
 * total is kept. Then RULES_DAY moves to the day of the first hour not
 * rolled up: a request for an earlier hour is late from then on and is
 * counted in rules_daily.violations as it is written, never in a shape.
 * Reads the packs with violations of those days (normally today's and
 * yesterday's), writes a row per rule, agent and day that changed.
 */
const DERIVE = `INSERT INTO rules_daily (day, host, robots_version, rule_line, agent_key, rule_type, rule_pattern, violations, derived)
  SELECT day, host, robots_version, rule_line, agent_key, max(rule_type), max(rule_pattern), 0, sum(violations)
  FROM (${violationsOf('shape_inbox')}
    UNION ALL ${violationsOf('shape_packs')}
    UNION ALL SELECT day, host, robots_version, agent_key, rule_line, rule_type, coalesce(rule_pattern, ''), violations
      FROM shapes_daily WHERE day >= ${RULES_DAY} AND violations > 0)
  WHERE rule_line IS NOT NULL AND rule_type IS NOT NULL
  GROUP BY day, host, robots_version, rule_line, agent_key
  ON CONFLICT (day, host, robots_version, rule_line, agent_key) DO UPDATE SET derived = excluded.derived WHERE excluded.derived > derived`
const CLOSE = `INSERT INTO ledger_state (name, value)
  SELECT 'rules_day', (coalesce((SELECT value FROM ledger_state WHERE name = 'rolled_hour'), 0) / 86400000) * 86400000 WHERE true
  ON CONFLICT (name) DO UPDATE SET value = max(value, excluded.value)`

/** The statements of the sum, in order, for one batch (one transaction): RULES_DAY moves only with the sum that covers the days it leaves. */
export const DERIVE_RULES: readonly string[] = [DERIVE, CLOSE]
