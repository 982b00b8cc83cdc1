-- DataJud's per-minute budget shared by every process on this database (issue 38): the daemon's
-- sweeps and /mcp, `run-once`, and `monitor mcp` over stdio beside them each record the searches
-- they start here, so together they keep to datajud.requestsPerMinute instead of each process
-- taking the whole of it. Rows older than the window are deleted as new ones are taken.
CREATE TABLE datajud_grants (
  id INTEGER PRIMARY KEY,
  -- Epoch milliseconds of the grant, on the granting process's clock (one machine, one file).
  at_ms INTEGER NOT NULL,
  -- 1: a sweep's search (it comes first); 0: an MCP tool's (its share is bounded while a sweep is on).
  sweep INTEGER NOT NULL CHECK (sweep IN (0, 1)),
  pid INTEGER NOT NULL
) STRICT;

CREATE INDEX datajud_grants_at ON datajud_grants (at_ms);
