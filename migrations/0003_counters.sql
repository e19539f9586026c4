-- Counters that hold the truth (issue 9). Each judged request is classified
-- when it is recorded (src/storage/classes.ts) and counted here in the same
-- transaction as its raw row, so the report reads counters only: its cost
-- follows the number of agents, hosts and days, never the number of requests.
-- Times are milliseconds since the epoch; `hour` and `day` are the start of
-- the UTC hour or day. Tables keyed by agent first are read agent by agent,
-- driven from `agents` (a handful of rows), so a time range never scans.

-- Every agent as first seen: what the report shows and filters by.
CREATE TABLE agents (
  agent_key TEXT NOT NULL PRIMARY KEY,
  agent_id TEXT,
  kind TEXT NOT NULL,
  operator TEXT,
  category TEXT,
  obeys_robots_txt INTEGER NOT NULL,
  first_seen INTEGER NOT NULL
) WITHOUT ROWID;

-- Exact counts per agent, hour, host, verification and class. `requests`
-- counts robots.txt fetches for class 'robotsTxt'. `sampled` is how many of
-- them were kept as raw rows (the per-hour sampling budget).
CREATE TABLE counts_hourly (
  agent_key TEXT NOT NULL,
  hour INTEGER NOT NULL,
  host TEXT NOT NULL,
  verification TEXT NOT NULL,
  class TEXT NOT NULL,
  requests INTEGER NOT NULL,
  blocked INTEGER NOT NULL,
  sampled INTEGER NOT NULL,
  first_time INTEGER NOT NULL,
  last_time INTEGER NOT NULL,
  PRIMARY KEY (agent_key, hour, host, verification, class)
) WITHOUT ROWID;

-- The same per UTC day, so a week reads 7 rows per key instead of 168.
-- Rolled up from counts_hourly by the cron, hour by hour (src/storage/rollup.ts;
-- ledger_state `rolled_hour`); a request recorded late, for an hour already
-- rolled up, is added here directly.
CREATE TABLE counts_daily (
  agent_key TEXT NOT NULL,
  day INTEGER NOT NULL,
  host TEXT NOT NULL,
  verification TEXT NOT NULL,
  class TEXT NOT NULL,
  requests INTEGER NOT NULL,
  blocked INTEGER NOT NULL,
  sampled INTEGER NOT NULL,
  first_time INTEGER NOT NULL,
  last_time INTEGER NOT NULL,
  PRIMARY KEY (agent_key, day, host, verification, class)
) WITHOUT ROWID;

-- Judged requests and counted violations per hour, host and category, for
-- the timeline: crawlers only (tools apart), spoofed and unchecked claims
-- left out. `category` is '' when the agent has none. Rolled up with
-- counts_daily; hours not rolled up yet are read from counts_hourly.
CREATE TABLE timeline_hourly (
  hour INTEGER NOT NULL,
  host TEXT NOT NULL,
  category TEXT NOT NULL,
  requests INTEGER NOT NULL,
  violations INTEGER NOT NULL,
  PRIMARY KEY (hour, host, category)
) WITHOUT ROWID;

-- Disallowed requests per path, per day, agent, class and robots.txt
-- version: the most violated paths, each agent's example paths, and the
-- distinct (host, agent tokens, path, version) a replay of a changed policy
-- needs for what robots.txt disallowed (allowed requests: the raw samples).
-- Bounded: per (class, day, host, agent, verification) only the first
-- PATH_CAP distinct paths get a row (src/storage/rollups.ts); the rest add
-- up in that group's row with version '' and path '', whose `paths` counts
-- the rows the group holds.
CREATE TABLE paths_daily (
  class TEXT NOT NULL,
  day INTEGER NOT NULL,
  host TEXT NOT NULL,
  agent_key TEXT NOT NULL,
  verification TEXT NOT NULL,
  robots_version TEXT NOT NULL,
  path TEXT NOT NULL,
  agent_tokens TEXT NOT NULL,
  requests INTEGER NOT NULL,
  paths INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (class, day, host, agent_key, verification, robots_version, path)
) WITHOUT ROWID;

-- Counted violations per deciding rule (its line in that version) and agent.
CREATE TABLE rules_daily (
  day INTEGER NOT NULL,
  host TEXT NOT NULL,
  robots_version TEXT NOT NULL,
  rule_line INTEGER NOT NULL,
  agent_key TEXT NOT NULL,
  rule_type TEXT NOT NULL,
  rule_pattern TEXT NOT NULL,
  violations INTEGER NOT NULL,
  PRIMARY KEY (day, host, robots_version, rule_line, agent_key)
) WITHOUT ROWID;

-- Which group of which version applied to an agent's (genuine) requests, per
-- day: the report re-reads the group to tell "complies" from "nothing to ignore".
CREATE TABLE agent_groups (
  agent_key TEXT NOT NULL,
  day INTEGER NOT NULL,
  robots_version TEXT NOT NULL,
  robots_group TEXT NOT NULL,
  PRIMARY KEY (agent_key, day, robots_version, robots_group)
) WITHOUT ROWID;

-- When robots-edge first served each host: in the first 24 hours a crawler
-- may still hold the site's previous robots.txt (RFC 9309 §2.4).
CREATE TABLE robots_hosts (
  host TEXT NOT NULL PRIMARY KEY,
  first_served INTEGER NOT NULL
) WITHOUT ROWID;

-- The last day any request was judged by a version: versions unused past the
-- counters' retention are pruned (the newest of each host is always kept).
ALTER TABLE robots_versions ADD COLUMN last_used INTEGER;

-- Small facts about the ledger itself: `raw_since` (raw rows older than this
-- were pruned, so request samples cover only what follows), `rolled_hour`
-- (hours before it are in counts_daily and timeline_hourly), and where each
-- retention starts.
CREATE TABLE ledger_state (
  name TEXT NOT NULL PRIMARY KEY,
  value INTEGER NOT NULL
) WITHOUT ROWID;
