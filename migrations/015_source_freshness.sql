-- How fresh each source is, measured from what the monitor itself saw (docs/freshness.md).
--
-- publications.sent_on: DJEN's `dataenvio`, the day the court sent the item (YYYY-MM-DD), beside
-- its day of disponibilização: DJEN's own lag. Items stored before keep it in `raw`: read here
-- when it is a plain date or an ISO date-time, else left NULL (never guessed).
ALTER TABLE publications ADD COLUMN sent_on TEXT;

UPDATE publications
SET sent_on = substr(coalesce(json_extract(raw, '$.dataenvio'), json_extract(raw, '$.dataEnvio'),
  json_extract(raw, '$.data_envio')), 1, 10)
WHERE json_valid(raw)
  AND coalesce(json_extract(raw, '$.dataenvio'), json_extract(raw, '$.dataEnvio'),
    json_extract(raw, '$.data_envio')) GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*';

-- instances.moved_at: when the monitor first saw the record's current DataJud update
-- (`dataHoraUltimaAtualizacao`, else `@timestamp`): our instant, UTC. Records stored before take
-- the first stored version carrying that same update, the earliest the monitor can vouch for.
ALTER TABLE instances ADD COLUMN moved_at TEXT;

UPDATE instances
SET moved_at = coalesce((
  SELECT min(v.recorded_at) FROM instance_versions v
  WHERE v.instance_id = instances.id
    AND coalesce(json_extract(v.record, '$.lastUpdatedAt'), json_extract(v.record, '$.indexedAt'))
      IS coalesce(json_extract(instances.record, '$.lastUpdatedAt'),
        json_extract(instances.record, '$.indexedAt'))
), first_seen_at);

-- One row per DJEN publication of a watched case that a DataJud movement was later seen to
-- record (a disponibilização, publicação or intimação of about its day): the court's lag, from
-- the day DJEN made it available to the São Paulo day the sweep first saw the movement.
CREATE TABLE source_lags (
  publication_id INTEGER PRIMARY KEY REFERENCES publications (id) ON DELETE CASCADE,
  movement_row_id INTEGER REFERENCES movements (id) ON DELETE SET NULL,
  case_id INTEGER NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
  -- The case's DataJud alias (tjsp, trf1): lags are kept per court.
  court TEXT NOT NULL,
  available_on TEXT NOT NULL,
  seen_at TEXT NOT NULL,
  -- NULL: the movement was already there when the monitor first read the instance, so the
  -- publication is matched (DataJud has it) but no lag is measured from it.
  lag_days INTEGER CHECK (lag_days IS NULL OR lag_days >= 0),
  measured_at TEXT NOT NULL
) STRICT;

CREATE INDEX source_lags_court ON source_lags (court, available_on);

-- A DataJud movement saying an intimação was made available in the DJe on a day DJEN, asked
-- completely for that case and day, did not return: the lawyers are warned once.
CREATE TABLE djen_gaps (
  movement_row_id INTEGER PRIMARY KEY REFERENCES movements (id) ON DELETE CASCADE,
  case_id INTEGER NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
  available_on TEXT NOT NULL,
  found_at TEXT NOT NULL,
  urgent INTEGER NOT NULL CHECK (urgent IN (0, 1)),
  -- E-mails queued for it (0: nobody watches the case by mail).
  queued INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE INDEX djen_gaps_case ON djen_gaps (case_id);

-- A court whose watched cases DataJud has not updated for much longer than its usual lag while
-- DJEN carries new publications of them: one operator alert when it opens.
CREATE TABLE silent_courts (
  id INTEGER PRIMARY KEY,
  court TEXT NOT NULL,
  -- The newest DataJud update the monitor saw among the court's watched cases (our instant).
  since TEXT NOT NULL,
  opened_at TEXT NOT NULL,
  details TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(details)),
  recovered_at TEXT
) STRICT;

CREATE UNIQUE INDEX silent_courts_one_open ON silent_courts (court) WHERE recovered_at IS NULL;
