-- What a replay of a changed policy needs (issue 13): the distinct request
-- shapes (host, agent, robots.txt version, path) each agent's genuine
-- requests took, per UTC day, with the requests behind each, so a replay
-- judges each shape once and still knows the share of the agent's traffic
-- it stands for. Every judged request is counted, allowed or not; spoofed
-- claims are left out (they are not the agent they name). Upserted in the
-- same write batch as the other counters (src/storage/ledger-sql.ts).
--
-- Bounded: per (day, host, agent) only the first SHAPE_CAP distinct
-- (version, path) get a row (src/storage/rollups.ts); the rest add up in
-- that group's row with version '' and path '', whose `paths` counts the
-- rows the group holds. A replay says how many requests fell there.
-- Pruned after its own retention (pruneLedger's shapeRetentionDays).
CREATE TABLE shapes_daily (
  day INTEGER NOT NULL,
  host TEXT NOT NULL,
  agent_key TEXT NOT NULL,
  robots_version TEXT NOT NULL,
  path TEXT NOT NULL,
  -- The agent's product tokens, most specific first, space-separated.
  agent_tokens TEXT NOT NULL,
  requests INTEGER NOT NULL,
  paths INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (day, host, agent_key, robots_version, path)
) WITHOUT ROWID;

-- Requests recorded before this table existed have no shapes: a replay
-- covers requests from this time on (ms). Only for a ledger that held data.
INSERT INTO ledger_state (name, value)
SELECT 'shapes_since', CAST(strftime('%s', 'now') AS INTEGER) * 1000 WHERE EXISTS (SELECT 1 FROM counts_hourly)
ON CONFLICT (name) DO NOTHING;

-- Which deployment first served each version, where the Worker has a
-- version metadata binding (wrangler.toml [version_metadata]): its Worker
-- version id and tag. NULL when it had none.
ALTER TABLE robots_versions ADD COLUMN deployment_id TEXT;
ALTER TABLE robots_versions ADD COLUMN deployment_tag TEXT;
-- When an isolate last recorded the version as the one it serves (ms): each
-- new isolate records its version once, so after a deploy (or a revert to
-- an older text) the version served now is the one recorded last.
ALTER TABLE robots_versions ADD COLUMN recorded_at INTEGER;
UPDATE robots_versions SET recorded_at = first_served;
