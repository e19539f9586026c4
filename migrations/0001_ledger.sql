-- The compliance ledger: what robots.txt said, who read it, and what each
-- agent asked for. Times are milliseconds since the epoch, as in
-- JudgedRequest.time (src/events.ts). No column ever holds a raw IP address:
-- events carry only a salted hash of it.

-- Every version of robots.txt served for a host. The text is kept so the
-- report can re-run the engine on the previous version (RFC 9309 §2.4 grace).
CREATE TABLE robots_versions (
  host TEXT NOT NULL,
  hash TEXT NOT NULL,
  text TEXT NOT NULL,
  first_served INTEGER NOT NULL,
  PRIMARY KEY (host, hash)
);
CREATE INDEX robots_versions_by_host_time ON robots_versions (host, first_served);

-- Raw events, one row per judged request (type 'request') or per fetch of
-- /robots.txt (type 'robots-txt'). Pruned by age and count (pruneLedger).
CREATE TABLE events (
  id INTEGER PRIMARY KEY,
  type TEXT NOT NULL,
  time INTEGER NOT NULL,
  host TEXT NOT NULL,
  -- Registry id, else first product token, else 'unknown' (agentKey()).
  agent_key TEXT NOT NULL,
  agent_id TEXT,
  -- Product tokens, most specific first, separated by one space (tokens never hold one).
  agent_tokens TEXT NOT NULL,
  agent_kind TEXT NOT NULL,
  operator TEXT,
  category TEXT,
  obeys_robots_txt INTEGER NOT NULL,
  verification TEXT NOT NULL,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  user_agent TEXT NOT NULL,
  allowed INTEGER NOT NULL,
  rule_type TEXT,
  rule_pattern TEXT,
  rule_line INTEGER,
  robots_group TEXT,
  mode TEXT NOT NULL,
  action TEXT NOT NULL,
  status INTEGER NOT NULL,
  robots_version TEXT NOT NULL,
  country TEXT,
  asn INTEGER,
  ip_hash TEXT
);
-- Pruning by age and the report's time range.
CREATE INDEX events_by_time ON events (time);
CREATE INDEX events_by_host_time ON events (host, time);
-- Drill-down into one agent, newest first.
CREATE INDEX events_by_agent_time ON events (agent_key, time);
-- The report reads every violation in its range; they are few next to all requests.
CREATE INDEX events_violations_by_time ON events (time, agent_key) WHERE allowed = 0;

-- Who read which version of robots.txt, and when first. Unlike the raw
-- events it is never pruned (one row per host, agent and version), so
-- "had it read the rules?" stays answerable for as long as violations are kept.
CREATE TABLE robots_fetches (
  host TEXT NOT NULL,
  agent_key TEXT NOT NULL,
  robots_version TEXT NOT NULL,
  operator TEXT,
  first_fetch INTEGER NOT NULL,
  last_fetch INTEGER NOT NULL,
  fetches INTEGER NOT NULL,
  PRIMARY KEY (host, agent_key, robots_version)
);
CREATE INDEX robots_fetches_by_operator ON robots_fetches (host, operator, robots_version) WHERE operator IS NOT NULL;
