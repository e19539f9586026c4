-- Raw events become request samples for the drill-down (issue 9): each row
-- carries its class, fixed when it was recorded, and the table is clustered
-- by agent, host and time, so the drill-down reads only the rows it shows
-- (even for a host the agent never visited) and a row costs one write, with
-- no secondary index. Beyond a per-hour budget per agent and class, requests
-- are counted but not kept (src/storage/ledger.ts). Existing rows are kept.

INSERT INTO robots_hosts (host, first_served)
SELECT host, min(first_served) FROM robots_versions GROUP BY host;

ALTER TABLE events RENAME TO events_v1;

CREATE TABLE events (
  agent_key TEXT NOT NULL,
  host TEXT NOT NULL,
  -- 1 when the class is a counted violation (afterFetch, staleCopy, neverFetched).
  counted INTEGER NOT NULL,
  time INTEGER NOT NULL,
  -- Random for new rows: unique per agent, host and millisecond.
  id INTEGER NOT NULL,
  -- See src/storage/classes.ts.
  class TEXT NOT NULL,
  type TEXT NOT NULL,
  agent_id TEXT,
  agent_tokens TEXT NOT NULL,
  agent_kind TEXT NOT NULL,
  -- Other crawlers an ambiguous User-Agent header named, space-separated.
  agent_also TEXT,
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
  ip_hash TEXT,
  PRIMARY KEY (agent_key, host, counted, time, id)
) WITHOUT ROWID;

-- Existing rows get the class the write path would give them, judged against
-- everything the ledger knows. One robots-edge deviation, for these rows
-- only: SQL cannot re-run the engine, so a disallowed request within 24 hours
-- of a rule change, by an agent that had not read the new version, is taken
-- as grace whenever there was a previous version (new rows are checked
-- against the previous version itself, RFC 9309 §2.4).
INSERT INTO events (
  agent_key, host, counted, time, id, class, type, agent_id, agent_tokens, agent_kind, agent_also, operator, category,
  obeys_robots_txt, verification, method, path, user_agent, allowed, rule_type, rule_pattern, rule_line, robots_group,
  mode, action, status, robots_version, country, asn, ip_hash
)
SELECT agent_key, host, class IN ('afterFetch', 'staleCopy', 'neverFetched'), time, id, class, type, agent_id,
  agent_tokens, agent_kind, NULL, operator, category, obeys_robots_txt, verification, method, path, user_agent,
  allowed, rule_type, rule_pattern, rule_line, robots_group, mode, action, status, robots_version, country, asn, ip_hash
FROM (
  SELECT e.*, CASE
    WHEN e.type = 'robots-txt' THEN 'robotsTxt'
    WHEN e.allowed = 1 THEN 'allowed'
    WHEN e.verification = 'spoofed' THEN 'spoofed'
    WHEN e.verification = 'unknown' THEN 'unknown'
    WHEN EXISTS (SELECT 1 FROM robots_fetches f WHERE f.host = e.host AND f.robots_version = e.robots_version
      AND (f.agent_key = e.agent_key OR f.operator = e.operator) AND f.first_fetch <= e.time) THEN 'afterFetch'
    WHEN EXISTS (SELECT 1 FROM robots_versions r WHERE r.host = e.host AND r.hash = e.robots_version AND e.time < r.first_served + 86400000
      AND EXISTS (SELECT 1 FROM robots_versions p WHERE p.host = r.host AND p.first_served < r.first_served)) THEN 'grace'
    WHEN EXISTS (SELECT 1 FROM robots_fetches f WHERE f.host = e.host
      AND (f.agent_key = e.agent_key OR f.operator = e.operator) AND f.first_fetch <= e.time) THEN 'staleCopy'
    WHEN EXISTS (SELECT 1 FROM robots_hosts s WHERE s.host = e.host AND e.time < s.first_served + 86400000) THEN 'newHost'
    ELSE 'neverFetched'
  END AS class
  FROM events_v1 e
);

DROP TABLE events_v1;
