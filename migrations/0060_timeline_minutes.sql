-- Judged requests and counted violations per minute, host and category:
-- the dashboard's timeline of a short span (a first minute of traffic reads
-- as minutes, not as one hourly spike). As timeline_hourly: crawlers only
-- (tools apart), genuine claims only (spoofed and unchecked ones left out),
-- robots.txt fetches apart; `category` is '' when the agent has none. Keyed
-- by minute first, not by agent: a write batch adds a row or two, not one
-- per agent, and a short range is one seek. Written with counts_hourly
-- (src/ledger/ledger-sql.ts) for requests up to three hours old when
-- recorded (minutes are read for no older activity), kept two days: the cron prunes older rows
-- (src/ledger/prune.ts). The report uses them only where they add up to the
-- hourly counters (src/admin/queries.ts), so hours recorded before this
-- table existed, or pruned, read per hour.
CREATE TABLE timeline_minutes (
  minute INTEGER NOT NULL,
  host TEXT NOT NULL,
  category TEXT NOT NULL,
  requests INTEGER NOT NULL,
  violations INTEGER NOT NULL,
  PRIMARY KEY (minute, host, category)
) WITHOUT ROWID;
