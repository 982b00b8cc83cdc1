-- Proof of watching (issue 36): an append-only record of every check of a source and every step
-- of a delivery, chained per subject (a case's 20 digits, 'oab:<registration>', 'operator').
-- Triggers write each entry in the very transaction that writes what it records, whatever code
-- path wrote it; the process then seals the entries in order (prev_hash, hash: src/proof/chain.ts).
-- A sealed entry edited or deleted breaks its subject's chain. `checks` rows are folded and pruned
-- by retention; these are not (retention here leaves a signed anchor, ledger_anchors).
CREATE TABLE ledger (
  seq INTEGER PRIMARY KEY,
  subject TEXT NOT NULL,
  at TEXT NOT NULL,
  kind TEXT NOT NULL,
  source TEXT NOT NULL,
  query TEXT NOT NULL,
  outcome TEXT NOT NULL,
  answer_hash TEXT,
  detail TEXT NOT NULL CHECK (json_valid(detail)),
  prev_hash TEXT,
  hash TEXT
) STRICT;

CREATE INDEX ledger_subject_seq ON ledger (subject, seq);
CREATE INDEX ledger_unsealed ON ledger (seq) WHERE hash IS NULL;

-- Where retention pruned a subject's oldest entries: the last pruned entry's hash, signed.
CREATE TABLE ledger_anchors (
  subject TEXT PRIMARY KEY,
  hash TEXT NOT NULL,
  entries INTEGER NOT NULL,
  first_at TEXT,
  last_at TEXT NOT NULL,
  made_at TEXT NOT NULL,
  public_key TEXT NOT NULL,
  signature TEXT NOT NULL
) STRICT;

-- What DJEN answered for a source at its last check: a digest of the items (src/proof/chain.ts).
ALTER TABLE djen_sources ADD COLUMN last_answer_hash TEXT;

CREATE TRIGGER ledger_datajud_check AFTER INSERT ON checks
BEGIN
  INSERT INTO ledger (subject, at, kind, source, query, outcome, answer_hash, detail)
  SELECT c.digits, NEW.checked_at, 'datajud_check', 'datajud', c.court, NEW.outcome,
    NEW.fingerprint,
    json_object('run', NEW.run_id, 'newMovements', NEW.new_movements,
      'errorKind', NEW.error_kind, 'error', NEW.error, 'answeredAt', NEW.datajud_fetched_at)
  FROM cases c WHERE c.id = NEW.case_id;
END;

CREATE TRIGGER ledger_djen_check_first AFTER INSERT ON djen_sources
WHEN NEW.last_checked_at IS NOT NULL
BEGIN
  INSERT INTO ledger (subject, at, kind, source, query, outcome, answer_hash, detail)
  VALUES (
    CASE NEW.kind WHEN 'case' THEN NEW.key ELSE 'oab:' || NEW.key END,
    NEW.last_checked_at, 'djen_check', 'djen', NEW.kind || ':' || NEW.key,
    coalesce(NEW.last_outcome, 'unknown'), NEW.last_answer_hash,
    json_object('errorKind', NEW.last_error_kind, 'error', NEW.last_error));
END;

CREATE TRIGGER ledger_djen_check AFTER UPDATE OF last_checked_at ON djen_sources
WHEN NEW.last_checked_at IS NOT NULL
BEGIN
  INSERT INTO ledger (subject, at, kind, source, query, outcome, answer_hash, detail)
  VALUES (
    CASE NEW.kind WHEN 'case' THEN NEW.key ELSE 'oab:' || NEW.key END,
    NEW.last_checked_at, 'djen_check', 'djen', NEW.kind || ':' || NEW.key,
    coalesce(NEW.last_outcome, 'unknown'), NEW.last_answer_hash,
    json_object('errorKind', NEW.last_error_kind, 'error', NEW.last_error));
END;

CREATE TRIGGER ledger_delivery_queued AFTER INSERT ON outbox
BEGIN
  INSERT INTO ledger (subject, at, kind, source, query, outcome, answer_hash, detail)
  VALUES (
    coalesce((SELECT digits FROM cases WHERE id = NEW.case_id), 'operator'),
    NEW.created_at, 'delivery', NEW.channel, NEW.recipient, 'queued', NEW.message_id,
    json_object('outbox', NEW.id, 'kind', NEW.kind, 'subject', NEW.subject,
      'notBefore', NEW.next_attempt_at));
END;

-- A send's result. A failure's row keeps no time of its own, so the entry takes the database's.
CREATE TRIGGER ledger_delivery_result AFTER UPDATE OF status, attempts ON outbox
WHEN NEW.status IS NOT OLD.status OR NEW.attempts IS NOT OLD.attempts
BEGIN
  INSERT INTO ledger (subject, at, kind, source, query, outcome, answer_hash, detail)
  VALUES (
    coalesce((SELECT digits FROM cases WHERE id = NEW.case_id), 'operator'),
    coalesce(CASE WHEN NEW.status = 'sent' THEN NEW.sent_at END,
      strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    'delivery', NEW.channel, NEW.recipient,
    CASE NEW.status WHEN 'sent' THEN 'sent' WHEN 'dead' THEN 'given_up' ELSE 'failed' END,
    NEW.message_id,
    json_object('outbox', NEW.id, 'kind', NEW.kind, 'attempts', NEW.attempts,
      'error', CASE WHEN NEW.status = 'sent' THEN NULL ELSE NEW.last_error END,
      'response', CASE WHEN NEW.status = 'sent' THEN NEW.smtp_response END));
END;
