-- The ledger queue's applied message ids (src/ledger/queue-consumer.ts).
-- Queues deliver at least once: the transaction that writes a message's
-- events inserts its id here, and the primary key refuses a second insert,
-- so a redelivered message is never counted twice. An id begins with the
-- time it was sent (9 base-36 digits of ms), so the table is one B-tree
-- ordered by age: the cron deletes ids older than 5 days (longer than the
-- queue keeps a message) with one range delete, and the table stays bounded
-- by the messages of those days. Without a queue it stays empty.
CREATE TABLE ledger_queue_applied (
  id TEXT PRIMARY KEY
) WITHOUT ROWID;
