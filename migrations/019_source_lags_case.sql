-- The movements of a case already matched to a DJEN publication are read per case by each
-- sweep's cross-source check and each alert's footer (store/source-freshness.ts
-- matchedMovements). Without an index each read scanned every lag: 3.1 s of a sweep's check at
-- 5,000 cases and 15,000 lags (test/bench/source-check.ts).
CREATE INDEX source_lags_case ON source_lags (case_id);
