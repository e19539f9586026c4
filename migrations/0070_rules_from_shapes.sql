-- Issue 18: violations per rule line are no longer written per batch (0.28
-- rows written per event). Each request shape carries its counted violations
-- and the rule line they broke; the cron (src/ledger/rollup.ts) adds them up
-- into rules_daily.derived for the days that can still change. Existing rows
-- keep their counts in rules_daily.violations, which still takes requests
-- recorded for an hour already rolled up; the report adds both columns.
ALTER TABLE shapes_daily ADD COLUMN violations INTEGER NOT NULL DEFAULT 0;
ALTER TABLE shapes_daily ADD COLUMN rule_line INTEGER;
ALTER TABLE shapes_daily ADD COLUMN rule_type TEXT;
ALTER TABLE shapes_daily ADD COLUMN rule_pattern TEXT;
ALTER TABLE rules_daily ADD COLUMN derived INTEGER NOT NULL DEFAULT 0;
-- The first day the cron derives: the day of the first hour not rolled up. Requests
-- written from now on for earlier hours are late and still go to rules_daily.violations.
INSERT INTO ledger_state (name, value)
  SELECT 'rules_day', (coalesce((SELECT value FROM ledger_state WHERE name = 'rolled_hour'), 0) / 86400000) * 86400000
  WHERE true ON CONFLICT (name) DO NOTHING;
