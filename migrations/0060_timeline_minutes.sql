-- Judged requests and counted violations per minute, agent and host: the
-- dashboard's timeline of a short span (a first minute of traffic reads as
-- minutes, not as one hourly spike). Genuine claims only (spoofed and
-- unchecked ones left out), robots.txt fetches apart, as timeline_hourly;
-- keyed by agent first, so a range is read agent by agent, driven from
-- `agents`. Written with counts_hourly (src/ledger/ledger-sql.ts), kept two
-- days: the cron prunes older rows (src/ledger/prune.ts). The report uses
-- them only where they add up to the hourly counters (src/admin/queries.ts),
-- so hours recorded before this table existed, or pruned, read per hour.
CREATE TABLE timeline_minutes (
  agent_key TEXT NOT NULL,
  minute INTEGER NOT NULL,
  host TEXT NOT NULL,
  requests INTEGER NOT NULL,
  violations INTEGER NOT NULL,
  PRIMARY KEY (agent_key, minute, host)
) WITHOUT ROWID;
