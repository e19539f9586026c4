-- What each crawler takes and gives back (src/ledger/referrals.ts, src/admin/operators.ts).
--
-- `bytes`: the bytes of the responses to the counted requests (their
-- Content-Length, or a count of the streamed body when there was none);
-- `pages`: how many of those responses were HTML (Content-Type text/html),
-- Cloudflare Radar's "HTML page crawl requests". Rows written before this
-- migration keep 0 in both: the report says so by showing no bytes for them.
ALTER TABLE counts_hourly ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE counts_hourly ADD COLUMN pages INTEGER NOT NULL DEFAULT 0;
ALTER TABLE counts_daily ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE counts_daily ADD COLUMN pages INTEGER NOT NULL DEFAULT 0;

-- People who arrived on an HTML page from an operator's product (a Referer
-- host in the registry's list, src/core/agents/registry/referrers.ts), per
-- UTC day, site host and referring host. A counter only: no path, no
-- User-Agent, no IP or hash of one. Pruned by the cron after the daily
-- counters' retention (400 days by default).
CREATE TABLE referrals_daily (
  day INTEGER NOT NULL,
  host TEXT NOT NULL,
  referrer TEXT NOT NULL,
  visits INTEGER NOT NULL,
  PRIMARY KEY (day, host, referrer)
) WITHOUT ROWID;
CREATE INDEX referrals_daily_by_day ON referrals_daily (day);
