-- Fills the counters (0003) from what the ledger already holds, so the
-- report reads the same history after the upgrade: the raw rows (classified
-- by 0004), and agent_hourly for the hours whose raw rows were pruned. Those
-- disallowed requests have no raw row left to classify: they are counted as
-- 'unclassified' (shown, never counted as violations). Then agent_hourly,
-- superseded by counts_hourly, is dropped.

INSERT INTO agents (agent_key, agent_id, kind, operator, category, obeys_robots_txt, first_seen)
SELECT agent_key, max(agent_id), max(agent_kind), max(operator), max(category), max(obeys_robots_txt), min(time)
FROM events WHERE true GROUP BY agent_key;

INSERT INTO agents (agent_key, agent_id, kind, operator, category, obeys_robots_txt, first_seen)
SELECT agent_key, NULL, 'bot', max(operator), max(category), 0, min(hour)
FROM agent_hourly WHERE true GROUP BY agent_key
ON CONFLICT (agent_key) DO UPDATE SET first_seen = min(first_seen, excluded.first_seen);

INSERT INTO counts_hourly (agent_key, hour, host, verification, class, requests, blocked, sampled, first_time, last_time)
SELECT agent_key, (time / 3600000) * 3600000, host, verification, class, count(*), sum(action = 'block'), count(*), min(time), max(time)
FROM events GROUP BY 1, 2, 3, 4, 5;

-- What agent_hourly counted beyond the raw rows still stored, per key.
WITH raw AS (
  SELECT agent_key, (time / 3600000) * 3600000 AS hour, host, verification,
    sum(type = 'request') AS requests, sum(type = 'request' AND allowed = 0) AS disallowed,
    sum(type = 'request' AND action = 'block') AS blocked, sum(type = 'robots-txt') AS fetches
  FROM events GROUP BY 1, 2, 3, 4
), rest AS (
  SELECT a.agent_key, a.hour, a.host, a.verification,
    a.requests - coalesce(r.requests, 0) AS requests, a.disallowed - coalesce(r.disallowed, 0) AS disallowed,
    a.blocked - coalesce(r.blocked, 0) AS blocked, a.robots_fetches - coalesce(r.fetches, 0) AS fetches
  FROM agent_hourly a LEFT JOIN raw r ON r.agent_key = a.agent_key AND r.hour = a.hour AND r.host = a.host AND r.verification = a.verification
)
INSERT INTO counts_hourly (agent_key, hour, host, verification, class, requests, blocked, sampled, first_time, last_time)
SELECT * FROM (
  SELECT agent_key, hour, host, verification, 'allowed', requests - disallowed, CASE WHEN disallowed > 0 THEN 0 ELSE max(blocked, 0) END, 0, hour, hour + 3599999
  FROM rest WHERE requests - disallowed > 0
  UNION ALL
  SELECT agent_key, hour, host, verification, CASE verification WHEN 'spoofed' THEN 'spoofed' ELSE 'unclassified' END, disallowed, max(blocked, 0), 0, hour, hour + 3599999
  FROM rest WHERE disallowed > 0
  UNION ALL
  SELECT agent_key, hour, host, verification, 'robotsTxt', fetches, 0, 0, hour, hour + 3599999
  FROM rest WHERE fetches > 0
) WHERE true
ON CONFLICT (agent_key, hour, host, verification, class) DO UPDATE SET
  requests = requests + excluded.requests, blocked = blocked + excluded.blocked,
  first_time = min(first_time, excluded.first_time), last_time = max(last_time, excluded.last_time);

INSERT INTO paths_daily (class, day, host, agent_key, verification, robots_version, path, agent_tokens, requests)
SELECT class, (time / 86400000) * 86400000, host, agent_key, verification, robots_version, path, max(agent_tokens), count(*)
FROM events WHERE type = 'request' AND allowed = 0 GROUP BY 1, 2, 3, 4, 5, 6, 7;

-- Each group's row under path '' says how many paths it holds (uncapped here).
INSERT INTO paths_daily (class, day, host, agent_key, verification, robots_version, path, agent_tokens, requests, paths)
SELECT class, day, host, agent_key, verification, '', '', '', 0, count(*)
FROM paths_daily WHERE true GROUP BY class, day, host, agent_key, verification;

INSERT INTO counts_daily (agent_key, day, host, verification, class, requests, blocked, sampled, first_time, last_time)
SELECT agent_key, (hour / 86400000) * 86400000, host, verification, class, sum(requests), sum(blocked), sum(sampled), min(first_time), max(last_time)
FROM counts_hourly GROUP BY 1, 2, 3, 4, 5;

INSERT INTO rules_daily (day, host, robots_version, rule_line, agent_key, rule_type, rule_pattern, violations)
SELECT (time / 86400000) * 86400000, host, robots_version, rule_line, agent_key, max(rule_type), max(coalesce(rule_pattern, '')), count(*)
FROM events WHERE counted = 1 AND rule_line IS NOT NULL AND rule_type IS NOT NULL GROUP BY 1, 2, 3, 4, 5;

INSERT OR IGNORE INTO agent_groups (agent_key, day, robots_version, robots_group)
SELECT DISTINCT agent_key, (time / 86400000) * 86400000, robots_version, robots_group
FROM events WHERE type = 'request' AND verification IN ('verified', 'unverified') AND robots_group IS NOT NULL;

INSERT INTO timeline_hourly (hour, host, category, requests, violations)
SELECT c.hour, c.host, coalesce(a.category, ''), sum(c.requests),
  sum(CASE WHEN c.class IN ('afterFetch', 'staleCopy', 'neverFetched') THEN c.requests ELSE 0 END)
FROM counts_hourly c JOIN agents a ON a.agent_key = c.agent_key
WHERE a.kind = 'bot' AND c.verification IN ('verified', 'unverified') AND c.class <> 'robotsTxt'
GROUP BY 1, 2, 3;

UPDATE robots_versions SET last_used = max(
  (first_served / 86400000) * 86400000,
  coalesce((SELECT max(day) FROM paths_daily p WHERE p.host = robots_versions.host AND p.robots_version = robots_versions.hash), 0),
  coalesce((SELECT (max(last_fetch) / 86400000) * 86400000 FROM robots_fetches f WHERE f.host = robots_versions.host AND f.robots_version = robots_versions.hash), 0),
  coalesce((SELECT max(day) FROM agent_groups g WHERE g.robots_version = robots_versions.hash), 0)
);

INSERT INTO ledger_state (name, value) SELECT 'raw_since', min(time) FROM events HAVING count(*) > 0;
INSERT INTO ledger_state (name, value) SELECT 'rolled_hour', max(hour) + 3600000 FROM counts_hourly HAVING count(*) > 0;

DROP TABLE agent_hourly;
