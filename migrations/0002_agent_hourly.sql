-- Per-agent hourly counts. They outlive the raw events (kept about 400 days
-- against 30), so long-range charts need no raw rows. `hour` is the
-- millisecond start of the UTC hour.
CREATE TABLE agent_hourly (
  host TEXT NOT NULL,
  hour INTEGER NOT NULL,
  agent_key TEXT NOT NULL,
  verification TEXT NOT NULL,
  operator TEXT,
  category TEXT,
  requests INTEGER NOT NULL DEFAULT 0,
  disallowed INTEGER NOT NULL DEFAULT 0,
  blocked INTEGER NOT NULL DEFAULT 0,
  robots_fetches INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (host, hour, agent_key, verification)
);
CREATE INDEX agent_hourly_by_hour ON agent_hourly (hour);
CREATE INDEX agent_hourly_by_agent_hour ON agent_hourly (agent_key, hour);
