-- Placeholder schema, replaced by the ledger migration.
CREATE TABLE IF NOT EXISTS robots_versions (hash TEXT NOT NULL, host TEXT NOT NULL, first_served INTEGER NOT NULL, PRIMARY KEY (hash, host));
