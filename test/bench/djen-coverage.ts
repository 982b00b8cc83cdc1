import Database from "better-sqlite3";

/*
 * Whether a case number covered by a watched registration still needs its own DJEN query, measured
 * on a monitor's database (`npm run bench -- --djen-coverage path/to/monitor.db`): of the
 * publications a case number's own query found, how many a watched registration's query found too
 * (`publications.found_by`). Read-only; the figures are only as good as the weeks of answers the
 * database holds from a server in Brazil.
 */

export interface DjenCoverage {
  /** Publications of watched case numbers that the case number's own query found. */
  foundByCase: number;
  /** Of those, found by a watched registration's query too. */
  alsoByRegistration: number;
  /** Case numbers with at least one publication a registration found too ("covered"). */
  coveredCases: number;
  /** Publications of covered case numbers that only the case number's own query found. */
  onlyByCaseInCovered: number;
}

export function djenCoverage(path: string): DjenCoverage {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const watched = new Set(
      db
        .prepare<[], { key: string }>("SELECT key FROM djen_sources WHERE kind = 'case'")
        .all()
        .map((r) => r.key),
    );
    const rows = db
      .prepare<[], { caseNumber: string | null; foundBy: string }>(
        "SELECT case_number AS caseNumber, found_by AS foundBy FROM publications",
      )
      .all();
    const byCase = new Map<string, { total: number; byOab: number }>();
    for (const row of rows) {
      if (row.caseNumber === null || !watched.has(row.caseNumber)) continue;
      const finders = JSON.parse(row.foundBy) as string[];
      if (!finders.includes(`case:${row.caseNumber}`)) continue;
      const entry = byCase.get(row.caseNumber) ?? { total: 0, byOab: 0 };
      entry.total += 1;
      if (finders.some((f) => f.startsWith("oab:"))) entry.byOab += 1;
      byCase.set(row.caseNumber, entry);
    }
    const entries = [...byCase.values()];
    const covered = entries.filter((e) => e.byOab > 0);
    return {
      foundByCase: entries.reduce((sum, e) => sum + e.total, 0),
      alsoByRegistration: entries.reduce((sum, e) => sum + e.byOab, 0),
      coveredCases: covered.length,
      onlyByCaseInCovered: covered.reduce((sum, e) => sum + e.total - e.byOab, 0),
    };
  } finally {
    db.close();
  }
}
