-- What the ledger could not store, and which hosts it stores. Numbered
-- 0010 so it stays apart from the ledger's own 0003+.

-- Events the recorder had to drop: D1 was unavailable for longer than its
-- in-memory backlog could hold (src/storage/recorder.ts), or rejected a row.
-- One row per episode of one isolate: `id` names it, so the isolate's own
-- write and the cron moving its KV stash (src/storage/losses.ts) are one row.
-- Times are the first and last dropped event's, ms since the epoch.
CREATE TABLE ledger_losses (
  id TEXT PRIMARY KEY,
  from_time INTEGER NOT NULL,
  to_time INTEGER NOT NULL,
  events INTEGER NOT NULL,
  recorded_at INTEGER NOT NULL
);
CREATE INDEX ledger_losses_by_time ON ledger_losses (to_time, from_time);

-- The distinct hosts the ledger keys rows by, when the config lists no
-- `hosts`: at most a cap (src/storage/hosts.ts); later hosts are recorded
-- under `other-hosts.invalid`. Admission is one INSERT that counts first,
-- so the cap holds across isolates.
CREATE TABLE ledger_hosts (
  host TEXT PRIMARY KEY,
  first_seen INTEGER NOT NULL
);
-- Hosts already in the ledger keep their place (first_seen 0: before this
-- table), but for names no request can be keyed by any more.
INSERT OR IGNORE INTO ledger_hosts (host, first_seen)
  SELECT host, 0 FROM robots_versions
  WHERE host NOT IN ('other-hosts.invalid', 'invalid-host.invalid') AND length(host) <= 253 AND host NOT LIKE '%.'
  GROUP BY host;
