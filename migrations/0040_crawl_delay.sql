-- Crawl-delay, measured where events from every isolate meet (the writer),
-- not per isolate: an agent's consecutive requests may reach different
-- isolates, and arrive out of order or late. Crawl-delay is no part of
-- RFC 9309; it is an extension Bing and Yandex read (Google ignores it).
--
-- The time of each request by an agent whose group sets a crawl delay, with
-- that delay (ms), kept only until the cron rolls its hour up
-- (src/ledger/crawl-delay.ts). Spoofed and unchecked claims are not stored.
CREATE TABLE crawl_times (
  host TEXT NOT NULL,
  agent_key TEXT NOT NULL,
  time INTEGER NOT NULL,
  delay_ms INTEGER NOT NULL
);
CREATE INDEX crawl_times_by_agent ON crawl_times (host, agent_key, time);

-- Per host, agent and UTC day: requests, and how many came sooner than the
-- delay after the one before (`early`). `late`: requests recorded after a
-- later request of the same agent and host had been rolled up, whose
-- interval can no longer be known (counted, never judged early).
-- `delay_ms`: the longest delay in force that day.
CREATE TABLE crawl_delay_daily (
  host TEXT NOT NULL,
  agent_key TEXT NOT NULL,
  day INTEGER NOT NULL,
  delay_ms INTEGER NOT NULL,
  requests INTEGER NOT NULL,
  early INTEGER NOT NULL,
  late INTEGER NOT NULL,
  PRIMARY KEY (host, agent_key, day)
) WITHOUT ROWID;

-- The last rolled-up request per host and agent: the first request of the
-- next roll-up is measured from it, across hours and days.
CREATE TABLE crawl_delay_last (
  host TEXT NOT NULL,
  agent_key TEXT NOT NULL,
  time INTEGER NOT NULL,
  PRIMARY KEY (host, agent_key)
) WITHOUT ROWID;
