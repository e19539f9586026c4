-- Alerts (src/admin/alerts.ts): what the cron last saw of each alert
-- condition, so a condition is posted once until it changes, and the
-- messages it has still to deliver. Both are small: one row per agent or
-- loss episode that met a condition, and the messages not yet delivered.
-- The cron prunes both (ALERT_RETENTION_MS). Existing tables are untouched.

-- The last state of each condition (e.g. key 'verdict:gptbot', state
-- 'ignores robots.txt'). `checked_at`: when the cron last found the
-- condition as stored; rows unchecked past the retention are pruned.
CREATE TABLE alert_state (
  alert_key TEXT NOT NULL PRIMARY KEY,
  state TEXT NOT NULL,
  changed_at INTEGER NOT NULL,
  checked_at INTEGER NOT NULL
) WITHOUT ROWID;

-- Messages to post, oldest first; a row leaves once the webhook took it
-- (2xx). A failed post stays, with its attempts and last error, and is
-- tried again on the next cron run; past the retention it is pruned and
-- counted as dropped in the cron's log line, never silently.
CREATE TABLE alert_outbox (
  id INTEGER PRIMARY KEY,
  alert_key TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT
);
CREATE INDEX alert_outbox_by_created ON alert_outbox (created_at);
