-- What the daemon could not send to, by endpoint: an endpoint exists because the configuration
-- names it, and any process queues its alerts; only a process holding its URL, token and secret
-- sends them. A daemon started without one of them records here which variables it lacks (and
-- when it started), so `monitor status`, another process, can say why the alerts wait.
--
-- daemon_missing: the variable names the daemon lacks, space-separated; NULL: it has them all.
-- daemon_checked_at: when a daemon first started lacking them, kept across restarts while it still
-- lacks the same ones (one operator alert per spell); NULL when it lacks none.
ALTER TABLE endpoint_state ADD COLUMN daemon_missing TEXT;
ALTER TABLE endpoint_state ADD COLUMN daemon_checked_at TEXT;
