import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeClock } from "../../fakes/fake-clock.js";
import { djenItem } from "../../fakes/fake-djen.js";
import { cliInProcess, n } from "../../support/cli-harness.js";
import { type DjenSweep, startDjenSweep } from "../../support/djen-sweep.js";

/*
 * The record of watching through real sweeps with DJEN on (issue 36): the fake DataJud and the
 * fake DJEN on a fake clock, the real sweep (MCP, clients, SQLite, outbox, SMTP). Each DJEN check
 * of the watched case writes its ledger entry in the case's chain (the source, the query, the
 * hash of the answer, the outcome), beside DataJud's checks and the publication's delivery;
 * `proof verify` passes on the exported file, and fails once an entry is changed with sqlite3.
 */

const ANA = "ana@example.com";
const despejo = n.tjdftDespejo;
const digits = despejo.replace(/\D/gu, "");

const WATCHLIST = `
defaults:
  notify: [${ANA}]
cases:
  - number: "${despejo}"
    label: "Despejo"
`;

/** Tuesday 30 September 2025, 10:00 in São Paulo. */
const START = Date.UTC(2025, 8, 30, 13, 0);
const HOUR = 3_600_000;
const OTHER_LAWYER = [{ name: "BETO ADVOGADO", oab: "999", uf: "DF" }];

interface Entry {
  seq: number;
  kind: string;
  source: string;
  query: string;
  outcome: string;
  answerHash: string | null;
}

let harness: DjenSweep;
const clock = new FakeClock({ now: START, autoAdvance: true });

async function sweepAnHourLater(): Promise<void> {
  clock.set(clock.now() + HOUR);
  await harness.sweep();
}

async function exportRecord(file: string): Promise<{ path: string; entries: Entry[] }> {
  const run = await cliInProcess(["proof", despejo], harness.env, harness.dir);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const path = join(harness.dir, file);
  writeFileSync(path, run.stdout);
  return { path, entries: (JSON.parse(run.stdout) as { entries: Entry[] }).entries };
}

async function verify(path: string) {
  return cliInProcess(["proof", "verify", path], harness.env, harness.dir);
}

/** One statement run by the sqlite3 shell, as a person with the database file would. */
function sqlite3(statement: string): void {
  try {
    execFileSync("sqlite3", [harness.dbPath, statement], { stdio: "pipe" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    // No sqlite3 shell on this machine: the same statement through the same SQLite library.
    const db = new Database(harness.dbPath, { fileMustExist: true });
    try {
      db.exec(statement);
    } finally {
      db.close();
    }
  }
}

beforeAll(async () => {
  harness = await startDjenSweep({
    prefix: "monitor-proof-djen-",
    apiKey: "proof-djen-key",
    watchlist: WATCHLIST,
    clock,
  });
  // 1. The first look: DataJud's baseline, DJEN's item already there (recorded, not told).
  harness.djen.setItems([
    djenItem({ id: 3001, caseNumber: digits, date: "2025-09-29", lawyers: OTHER_LAWYER }),
  ]);
  await sweepAnHourLater();
  // 2. A new intimação: one alert to Ana.
  harness.djen.add(
    djenItem({ id: 3002, caseNumber: digits, date: "2025-09-30", lawyers: OTHER_LAWYER }),
  );
  await sweepAnHourLater();
  // 3. DJEN fails: a failed check, recorded as one.
  harness.djen.failAlways({ status: 500, body: { message: "erro interno" } });
  await sweepAnHourLater();
  harness.djen.failAlways(null);
}, 60_000);

afterAll(async () => {
  await harness?.close();
});

describe("proof of watching with DJEN on", () => {
  it("writes an entry for each DJEN check of the case, in its chain, and the file verifies", async () => {
    const { path, entries } = await exportRecord("record.json");
    const djen = entries.filter((e) => e.kind === "djen_check");
    expect(djen.map((e) => [e.source, e.query, e.outcome])).toEqual([
      ["djen", `case:${digits}`, "ok"],
      ["djen", `case:${digits}`, "ok"],
      ["djen", `case:${digits}`, "failed"],
    ]);
    // The two answers differ (a new item), so their hashes do; a failed check hashes nothing.
    const [first, second, failed] = djen.map((e) => e.answerHash);
    expect(first).toMatch(/^[0-9a-f]{64}$/u);
    expect(second).toMatch(/^[0-9a-f]{64}$/u);
    expect(second).not.toBe(first);
    expect(failed).toBeNull();
    expect(entries.filter((e) => e.kind === "datajud_check").map((e) => e.outcome)).toEqual([
      "baseline",
      "unchanged",
      "unchanged",
    ]);
    // The intimação's e-mail to Ana: queued, then sent.
    const deliveries = entries.filter((e) => e.kind === "delivery");
    expect(deliveries.map((e) => [e.source, e.query, e.outcome])).toEqual([
      ["email", ANA, "queued"],
      ["email", ANA, "sent"],
    ]);

    const verdict = await verify(path);
    expect(verdict.stdout).toMatch(/^intact: 8 entries of /u);
    expect(verdict.code).toBe(0);
  });

  it("is broken by an UPDATE with sqlite3 that makes the failed DJEN check look clean", async () => {
    const before = await exportRecord("before.json");
    const failed = before.entries.find((e) => e.kind === "djen_check" && e.outcome === "failed");
    if (failed === undefined) throw new Error("no failed DJEN check recorded");

    sqlite3(`UPDATE ledger SET outcome = 'ok' WHERE seq = ${failed.seq}`);

    const after = await exportRecord("after.json");
    expect(after.entries.find((e) => e.seq === failed.seq)?.outcome).toBe("ok");
    const verdict = await verify(after.path);
    expect(verdict.code).toBe(1);
    expect(verdict.stdout).toMatch(
      new RegExp(`^BROKEN: .*entry ${failed.seq} .*changed after it was written`, "u"),
    );
    // The file exported before the edit still verifies: it is its own evidence.
    expect((await verify(before.path)).code).toBe(0);
  });
});
