-- Every movement stored once. A record's movement list was kept both as rows of `movements` and
-- inside `instances.record` (read only to write the model's prompt, now rebuilt from
-- `movements`): a third of the database. And each movement copy carried its glossary hint (131
-- bytes), the TPU's reading of its code, now derived from the code when it is read.
--
-- A record keeps its fields, with an empty movement list and no latest movement, as
-- instance_versions already did for the list. Only valid JSON is rewritten (every row is: the
-- columns CHECK json_valid), so no stored row can make the upgrade fail.
UPDATE instances
SET record = json_set(record, '$.movements', json('[]'), '$.latestMovement', NULL)
WHERE json_valid(record)
  AND (json_array_length(record, '$.movements') > 0
    OR json_type(record, '$.latestMovement') IS NOT 'null');

UPDATE instance_versions
SET record = json_set(record, '$.latestMovement', NULL)
WHERE json_valid(record) AND json_type(record, '$.latestMovement') IS NOT 'null';

UPDATE movements SET data = json_remove(data, '$.hint')
WHERE json_valid(data) AND json_type(data, '$.hint') IS NOT NULL;

UPDATE movement_versions SET data = json_remove(data, '$.hint')
WHERE json_valid(data) AND json_type(data, '$.hint') IS NOT NULL;

UPDATE movement_events SET before = json_remove(before, '$.hint')
WHERE before IS NOT NULL AND json_valid(before) AND json_type(before, '$.hint') IS NOT NULL;
