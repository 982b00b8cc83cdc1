-- Each outbox row names the type of message it carries, so a drain reads its payload through that
-- type's schema instead of trying schemas in turn (notify/outbox/message-types.ts):
-- movement (a case's change, also `monitor test-email`'s sample), correction (a case.correction
-- event for webhooks and chats), publication (a DJEN publication, its cancellation or a moved
-- estimate), operator (mail.admin's alerts), status-report and djen-gap (a DataJud act made
-- available in the DJe that DJEN did not return).
ALTER TABLE outbox ADD COLUMN message_type TEXT NOT NULL DEFAULT 'movement';

-- Rows queued before: their type read once from what each kind of payload alone carries (a
-- report or an operator alert by the row's kind; a correction's and a publication's `notice`, a
-- gap warning's `type`).
UPDATE outbox SET message_type = 'status-report' WHERE kind = 'report';
UPDATE outbox SET message_type = 'operator' WHERE kind = 'admin';
UPDATE outbox SET message_type = 'correction'
WHERE kind NOT IN ('report', 'admin') AND json_valid(payload)
  AND json_extract(payload, '$.notice') = 'case.correction';
UPDATE outbox SET message_type = 'publication'
WHERE kind NOT IN ('report', 'admin') AND json_valid(payload)
  AND json_extract(payload, '$.notice') IN ('published', 'cancelled', 're-estimated')
  AND json_extract(payload, '$.djenId') IS NOT NULL;
UPDATE outbox SET message_type = 'djen-gap'
WHERE kind NOT IN ('report', 'admin') AND json_valid(payload)
  AND json_extract(payload, '$.type') = 'djen_gap';
