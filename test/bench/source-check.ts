/**
 * What the cross-source check (monitor/report/source-check.ts) costs a sweep, by watched cases:
 * `node --import tsx test/bench/source-check.ts --cases 1000,5000`. Each case has one instance
 * with 30 movements (3 of them disponibilizações seen after its first read) and 5 DJEN
 * publications in the last 120 days, 2 of which no movement records (they stay unmatched and are
 * looked at again every sweep). Prints the first check (every publication matched), a second one
 * (only the unmatched left) and 100 alerts' footers (sourcesOfCase). Figures, not assertions.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { checkSources, sourcesOfCase } from "../../src/monitor/report/source-check.js";
import type { MailPolicy } from "../../src/policy/mail-policy.js";
import { closeDatabase, openDatabase } from "../../src/store/database.js";
import { caseNumber } from "./bench-data.js";

const { values } = parseArgs({ options: { cases: { type: "string", default: "1000,5000" } } });
const NOW = new Date("2026-12-06T13:00:00.000Z");
const DAY = 86_400_000;

function day(offset: number): string {
  return new Date(NOW.getTime() - offset * DAY).toISOString().slice(0, 10);
}

function fill(path: string, cases: number): void {
  const db = openDatabase(path);
  const at = new Date(NOW.getTime() - 200 * DAY).toISOString();
  const later = (d: number) => new Date(NOW.getTime() - d * DAY).toISOString();
  const kase = db.prepare(
    `INSERT INTO cases (id, number, digits, court, watched, first_seen_at, created_at)
     VALUES (?, ?, ?, ?, 1, ?, ?)`,
  );
  const instance = db.prepare(
    `INSERT INTO instances (id, case_id, instance, record_id, record, first_seen_at, updated_at, moved_at)
     VALUES (?, ?, 'G1', ?, ?, ?, ?, ?)`,
  );
  const movement = db.prepare(
    `INSERT INTO movements (case_id, instance_id, movement_id, code, name, date_time, data, first_seen_at)
     VALUES (?, ?, ?, ?, 'm', ?, '{}', ?)`,
  );
  const publication = db.prepare(
    `INSERT INTO publications (djen_id, case_number, court, available_on, kind, publication, text, raw, first_seen_at, sent_on)
     VALUES (?, ?, 'TJSP', ?, 'Intimação', '{"active":true}', '', '{}', ?, ?)`,
  );
  const source = db.prepare(
    `INSERT INTO djen_sources (kind, key, first_ok_at, last_checked_at, last_ok_at, last_outcome)
     VALUES ('case', ?, ?, ?, ?, 'ok')`,
  );
  db.transaction(() => {
    for (let i = 1; i <= cases; i++) {
      const { formatted, digits, court } = caseNumber(i);
      kase.run(i, formatted, digits, court.alias, at, at);
      const record = JSON.stringify({ lastUpdatedAt: `${day(3)}T10:00:00` });
      instance.run(i, i, `r${i}`, record, at, later(3), later(3));
      for (let m = 0; m < 30; m++) {
        const recording = m < 3;
        const d = recording ? 10 + m * 30 : m * 6;
        movement.run(i, i, `m${i}-${m}`, recording ? 1061 : 85, `${day(d)}T09:00:00`, later(d - 3));
      }
      for (let p = 0; p < 5; p++) {
        // 10, 40, 70: recorded by the movements above; 100 and 115: by none.
        const d = [10, 40, 70, 100, 115][p] ?? 0;
        publication.run(`${i}-${p}`, digits, day(d), later(d), day(d + 1));
      }
      source.run(digits, at, later(0.1), later(0.1));
    }
  })();
  closeDatabase(db);
}

function ms(from: bigint): string {
  return (Number(process.hrtime.bigint() - from) / 1e6).toFixed(0);
}

const POLICY = { timezone: "America/Sao_Paulo" } as unknown as MailPolicy;

for (const size of (values.cases ?? "")
  .split(",")
  .filter((s) => s !== "")
  .map(Number)) {
  const dir = mkdtempSync(join(tmpdir(), "bench-source-check-"));
  const path = join(dir, "monitor.db");
  fill(path, size);
  const db = openDatabase(path);
  const deps = { db, now: NOW, domain: "bench.example", admin: null, policy: POLICY, cases: [] };
  let t = process.hrtime.bigint();
  const first = checkSources(deps);
  const firstMs = ms(t);
  t = process.hrtime.bigint();
  checkSources(deps);
  const secondMs = ms(t);
  t = process.hrtime.bigint();
  for (let i = 1; i <= 100; i++) sourcesOfCase(db, i, NOW);
  const footersMs = ms(t);
  console.log(
    `${size} cases, ${size * 5} publications: first check ${firstMs} ms (${first.lagsMeasured} lags), second ${secondMs} ms, 100 alert footers ${footersMs} ms`,
  );
  closeDatabase(db);
  if (process.env.KEEP === undefined) rmSync(dir, { recursive: true, force: true });
  else console.log(path);
}
