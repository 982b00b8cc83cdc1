-- What the monitor remembers of each webhook or chat endpoint across restarts, by its channel and
-- its name in the configuration (never its URL, token or secret).
--
-- disabled_at: it answered 410 Gone (the receiver says it is no more: an archived Slack channel,
-- a deleted hook). Nothing is sent to it until `datajud-monitor endpoint enable NAME`; what was
-- queued for it meanwhile is given up. dead_since: an alert to it was given up (its attempts ran
-- out) and none has been delivered since; the operator is told once when it is set, not per alert.
CREATE TABLE endpoint_state (
  channel TEXT NOT NULL,
  name TEXT NOT NULL,
  disabled_at TEXT,
  -- The answer that disabled it, already cleared of the endpoint's secrets.
  disabled_reason TEXT,
  dead_since TEXT,
  PRIMARY KEY (channel, name)
) STRICT;
