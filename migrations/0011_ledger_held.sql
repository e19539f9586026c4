-- Events a recorder held in memory during a D1 outage, and how many of them
-- D1 went on to store. While D1 refuses writes, the recorder makes every
-- event it holds durable in KV first (src/storage/journal.ts: one KV key per
-- batch of events, naming how many); each later write to D1 adds, in the
-- same transaction as the events, the number of that batch's events it
-- stored. What a batch counted but D1 never stored (its isolate died, or
-- dropped them) is then exactly `count - stored`, whoever works it out: the
-- isolate itself, or the cron for an isolate that is gone.
CREATE TABLE ledger_held (
  id TEXT PRIMARY KEY,
  stored INTEGER NOT NULL,
  -- When D1 first stored one of its events, ms since the epoch; the row is
  -- pruned by the cron a week later, long after its KV key is gone.
  since INTEGER NOT NULL
);
CREATE INDEX ledger_held_by_time ON ledger_held (since);
