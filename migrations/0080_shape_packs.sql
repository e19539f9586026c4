-- Request shapes, packed. A row per path (shapes_daily) made a write cost a
-- row per distinct path it saw: about one row per request of a crawler that
-- rarely fetches a path twice, whatever the batching. A pack holds every path
-- one write saw for a day, host, agent and robots.txt version, as JSON, with
-- the totals of each path group (`/articles/`; `/` for paths without a
-- second slash) beside it: a write costs a row per agent, host and version.
--
-- Writes add packs to shape_inbox. The cron (src/ledger/shape-packs.ts)
-- merges a key's inbox packs into pages of shape_packs, each path once per
-- page, and deletes them in the same transaction: the sums a replay or the
-- rules roll-up read are the same before and after. Both tables are read
-- together with shapes_daily, which keeps the shapes written before this
-- migration and still takes those of small writes (a request or two from an
-- isolate costs a row per path either way; a pack would add its deletion).
--
-- body: JSON array of [path, requests] or, for a path with counted
-- violations, [path, requests, violations, rule_line, rule_type, rule_pattern].
-- groups: JSON array of [group, requests, paths, min_path, max_path, unplain]
-- over the body, where unplain counts paths with a reading other than
-- themselves (an escape, a backslash, `//`, a dot segment, non-ASCII): what
-- a replay reads first, never the bodies of groups it can judge whole.
-- paths: entries in body.
CREATE TABLE shape_inbox (
  day INTEGER NOT NULL,
  host TEXT NOT NULL,
  agent_key TEXT NOT NULL,
  robots_version TEXT NOT NULL,
  seq INTEGER NOT NULL,
  agent_tokens TEXT NOT NULL,
  requests INTEGER NOT NULL,
  paths INTEGER NOT NULL,
  violations INTEGER NOT NULL,
  groups TEXT NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (day, host, agent_key, robots_version, seq)
) WITHOUT ROWID;

CREATE TABLE shape_packs (
  day INTEGER NOT NULL,
  host TEXT NOT NULL,
  agent_key TEXT NOT NULL,
  robots_version TEXT NOT NULL,
  seq INTEGER NOT NULL,
  agent_tokens TEXT NOT NULL,
  requests INTEGER NOT NULL,
  paths INTEGER NOT NULL,
  violations INTEGER NOT NULL,
  groups TEXT NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (day, host, agent_key, robots_version, seq)
) WITHOUT ROWID;

-- Per day, host, agent, version and path group, the totals of shapes_daily's
-- rows of a day the cron has closed (src/ledger/shape-packs.ts): a replay
-- reads them instead of every path's row. A day is totalled once, when it
-- is over and its hours are rolled up; a request recorded later for it is
-- packed (src/ledger/ledger.ts), never written to shapes_daily, so the
-- totals stay whole. ledger_state `shape_groups_day`: the first day not
-- totalled yet.
CREATE TABLE shape_groups_daily (
  day INTEGER NOT NULL,
  host TEXT NOT NULL,
  agent_key TEXT NOT NULL,
  robots_version TEXT NOT NULL,
  grp TEXT NOT NULL,
  agent_tokens TEXT NOT NULL,
  requests INTEGER NOT NULL,
  paths INTEGER NOT NULL,
  min_path TEXT NOT NULL,
  max_path TEXT NOT NULL,
  unplain INTEGER NOT NULL,
  -- The group's paths, JSON [[path, requests], ...], when it has at most 16
  -- that day (a site's pages without a second slash, say): a replay that
  -- must judge them one by one reads them here, not from every row of the day.
  list TEXT,
  PRIMARY KEY (day, host, agent_key, robots_version, grp)
) WITHOUT ROWID;

-- A closed day's paths of counted violations are replaced by the cron with
-- its top paths per host and agent, from the shapes (src/ledger/shape-sql.ts
-- TOP_PATHS). From the first whole day after this migration on: earlier
-- shapes may carry no violations (before migration 0070), and their days keep
-- the paths written as they came.
INSERT INTO ledger_state (name, value)
  SELECT 'top_paths_day', (coalesce((SELECT value FROM ledger_state WHERE name = 'rolled_hour'), 0) / 86400000 + 1) * 86400000
  WHERE true ON CONFLICT (name) DO NOTHING;
