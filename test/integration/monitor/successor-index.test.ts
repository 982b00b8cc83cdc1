import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readStatus } from "../../../src/cli/status.js";
import { computeCheckDigits, formatCnjNumber } from "../../../src/datajud/cnj-number.js";
import type { InProcessConnection } from "../../../src/mcp/in-process-client.js";
import { callTool } from "../../../src/mcp/tool-caller.js";
import { GetCaseOutput, ReadCasesOutput } from "../../../src/mcp/tool-schemas.js";
import { runSweep, type SweepDeps } from "../../../src/monitor/sweep.js";
import { NO_ALERT_POLICY } from "../../../src/policy/alert-rules.js";
import { getCase } from "../../../src/store/cases.js";
import type { Db } from "../../../src/store/database.js";
import { parseWatchlist, type WatchedCase } from "../../../src/watchlist/parse-watchlist.js";
import { type FakeDataJud, startFakeDataJud } from "../../fakes/fake-datajud.js";
import { type SweepHarness, startSweepHarness } from "../../support/sweep-harness.js";

/**
 * TRF6 took Minas Gerais over from TRF1 in 2022: a 4.01 number of a Belo Horizonte case (origin
 * 38xx) can live in api_publica_trf6. The record is the real TRF1 hit of the DataJud wiki
 * (test/fixtures/datajud/real/), renumbered into such a case.
 */
const REAL = JSON.parse(
  readFileSync(
    new URL("../../fixtures/datajud/real/trf1-00008323520184013202.json", import.meta.url),
    "utf8",
  ),
) as { trf1: Array<{ _id: string; _source: Record<string, unknown> }> };

function trf1Number(sequence: string, origin: string): string {
  const check = computeCheckDigits(sequence, "2021", "4", "01", origin);
  return `${sequence}${check}2021401${origin}`;
}

/** A Belo Horizonte case filed in TRF1 and now kept by TRF6. */
const MG = trf1Number("1004321", "3800");
/** A Brasília case that stayed in TRF1. */
const DF = trf1Number("1001234", "3400");

function doc(
  alias: string,
  digits: string,
  updatedAt = "2024-05-02T10:00:00.000Z",
): { _id: string; _source: Record<string, unknown> } {
  const real = REAL.trf1[0];
  if (!real) throw new Error("the real TRF1 fixture has no hit");
  return {
    _id: `${alias.toUpperCase()}_436_JE_16403_${digits}`,
    _source: {
      ...real._source,
      numeroProcesso: digits,
      tribunal: alias.toUpperCase(),
      dataHoraUltimaAtualizacao: updatedAt,
    },
  };
}

function watched(digits: string, court = "trf1"): WatchedCase {
  return {
    number: formatCnjNumber(digits),
    digits,
    court,
    label: null,
    notify: [],
    channels: [],
    policy: NO_ALERT_POLICY,
    line: 1,
  };
}

let fake: FakeDataJud;
let harness: SweepHarness;
let connection: InProcessConnection;
let db: Db;
let deps: SweepDeps;

beforeEach(async () => {
  fake = await startFakeDataJud({ apiKey: "trf6-key" });
  fake.setDocuments("trf1", [doc("trf1", DF)]);
  fake.setDocuments("trf6", [doc("trf6", MG)]);
  harness = await startSweepHarness(fake, { maxAttempts: 2, tempPrefix: "monitor-trf6-" });
  ({ connection, db, deps } = harness);
});

afterEach(async () => {
  await harness.close();
  await fake.close();
});

function sweep(cases: WatchedCase[]): ReturnType<typeof runSweep> {
  return runSweep(deps, { watchlist: cases, force: false, dryRun: false, trigger: "manual" });
}

/** Which index each request of `from` onwards asked, and whether it named the MG number. */
function asked(from: number, to?: number): Array<{ alias: string; mg: boolean }> {
  return fake.requests
    .slice(from, to)
    .map((r) => ({ alias: r.alias, mg: JSON.stringify(r.body).includes(MG) }));
}

describe("a TRF1 number that TRF6 holds", () => {
  it("is found in TRF6 after TRF1 answers cleanly without it, remembered, and asked in TRF6 first next time", async () => {
    const first = await sweep([watched(MG)]);
    const afterFirst = fake.requests.length;
    const second = await sweep([watched(MG)]);

    expect(first.cases).toEqual([
      expect.objectContaining({ number: formatCnjNumber(MG), court: "trf1", outcome: "baseline" }),
    ]);
    expect(asked(0, afterFirst)).toEqual([
      { alias: "trf1", mg: true },
      { alias: "trf6", mg: true },
      { alias: "trf6", mg: true },
    ]);
    expect(getCase(db, MG, "trf1")?.foundIn).toBe("trf6");
    expect(
      readStatus(db, { watchlist: null, now: new Date(), timezone: "America/Sao_Paulo" }).cases,
    ).toEqual([expect.objectContaining({ court: "trf1", foundIn: "trf6" })]);
    // Its freshness is TRF6's: the index DataJud reads the record from.
    expect(
      readStatus(db, {
        watchlist: null,
        now: new Date(),
        timezone: "America/Sao_Paulo",
      }).freshness.courts.map((c) => [c.court, c.cases]),
    ).toEqual([["trf6", 1]]);
    expect(second.cases[0]?.outcome).toBe("unchanged");
    expect(second.datajudRequests).toBe(1);
    expect(asked(afterFirst)).toEqual([{ alias: "trf6", mg: true }]);
  });

  it("is never counted not found nor declared gone while TRF6 has it", async () => {
    const reports = [];
    for (let i = 0; i < 5; i++) reports.push(await sweep([watched(MG)]));

    expect(reports.flatMap((r) => r.cases.map((c) => c.outcome))).toEqual([
      "baseline",
      "unchanged",
      "unchanged",
      "unchanged",
      "unchanged",
    ]);
    expect(getCase(db, MG, "trf1")).toMatchObject({ consecutiveNotFound: 0, goneAt: null });
  });

  it("shares each index's request with the other cases asked there", async () => {
    const cases = [watched(DF), watched(MG), watched(MG, "trf6")];
    await sweep(cases);
    const afterFirst = fake.requests.length;
    const second = await sweep(cases);

    expect(second.cases.map((c) => `${c.court} ${c.outcome}`)).toEqual([
      "trf1 unchanged",
      "trf1 unchanged",
      "trf6 unchanged",
    ]);
    expect(asked(afterFirst).sort((a, b) => a.alias.localeCompare(b.alias))).toEqual([
      { alias: "trf1", mg: false },
      { alias: "trf6", mg: true },
    ]);
  });

  it("falls back to TRF1 when it disappears from TRF6, and remembers TRF1 then", async () => {
    await sweep([watched(MG)]);
    fake.remove("trf6", doc("trf6", MG)._id);
    fake.upsert("trf1", doc("trf1", MG, "2024-06-01T10:00:00.000Z"));

    const moved = await sweep([watched(MG)]);

    expect(moved.cases[0]?.outcome).not.toBe("not_found");
    expect(moved.cases[0]?.outcome).not.toBe("failed");
    expect(getCase(db, MG, "trf1")).toMatchObject({ foundIn: "trf1", consecutiveNotFound: 0 });
  });

  it("is not found, and counted, only when every candidate index answers cleanly without it", async () => {
    await sweep([watched(MG)]);
    fake.remove("trf6", doc("trf6", MG)._id);
    const from = fake.requests.length;

    const reports = [];
    for (let i = 0; i < 3; i++) reports.push(await sweep([watched(MG)]));

    expect(reports.map((r) => r.cases[0]?.outcome)).toEqual([
      "not_found",
      "not_found",
      "not_found",
    ]);
    expect(asked(from).map((r) => r.alias)).toEqual([
      "trf6",
      "trf1",
      "trf6",
      "trf1",
      "trf6",
      "trf1",
    ]);
    expect(getCase(db, MG, "trf1")?.consecutiveNotFound).toBe(3);
    expect(getCase(db, MG, "trf1")?.goneAt).not.toBeNull();
  });
});

describe("a failed answer is a failed check, never a reason to look elsewhere", () => {
  it("does not ask TRF6 when TRF1 fails, and does not call the case not found", async () => {
    fake.failAlways({ status: 503, alias: "trf1" });

    const report = await sweep([watched(MG)]);

    expect(report.cases[0]?.outcome).toBe("failed");
    expect(asked(0).every((r) => r.alias === "trf1")).toBe(true);
    expect(getCase(db, MG, "trf1")).toMatchObject({
      consecutiveNotFound: 0,
      foundIn: null,
      lastOutcome: "failed",
    });
  });

  it("still asks TRF6 for its own cases when TRF1 fails", async () => {
    fake.failAlways({ status: 503, alias: "trf1" });

    const report = await sweep([watched(MG), watched(MG, "trf6")]);

    expect(report.cases.map((c) => `${c.court} ${c.outcome}`)).toEqual([
      "trf1 failed",
      "trf6 baseline",
    ]);
  });

  it("fails, and counts nothing, when TRF1 answers without it and TRF6 fails", async () => {
    await sweep([watched(MG)]);
    fake.remove("trf6", doc("trf6", MG)._id);
    await sweep([watched(MG)]);
    fake.failAlways({ status: 503, alias: "trf6" });

    const report = await sweep([watched(MG)]);

    expect(report.cases[0]?.outcome).toBe("failed");
    expect(getCase(db, MG, "trf1")).toMatchObject({ consecutiveNotFound: 1, goneAt: null });
  });
});

describe("cases seen before that leave TRF1 all at once", () => {
  /** A second Belo Horizonte case: a batch of two seen before is what makes an answer suspect. */
  const MG2 = trf1Number("1004322", "3800");

  it("are found in TRF6 when moved there together, not failed as a broken TRF1 answer", async () => {
    fake.setDocuments("trf1", [doc("trf1", MG), doc("trf1", MG2)]);
    fake.setDocuments("trf6", []);
    const first = await sweep([watched(MG), watched(MG2)]);
    fake.setDocuments("trf1", []);
    fake.setDocuments("trf6", [doc("trf6", MG), doc("trf6", MG2)]);
    const from = fake.requests.length;

    const moved = await sweep([watched(MG), watched(MG2)]);

    expect(first.cases.map((c) => c.outcome)).toEqual(["baseline", "baseline"]);
    expect(moved.cases.map((c) => c.outcome)).toEqual(["changed", "changed"]);
    expect(asked(from).map((r) => r.alias)).toEqual(["trf1", "trf6", "trf6"]);
    for (const digits of [MG, MG2]) {
      expect(getCase(db, digits, "trf1")).toMatchObject({
        foundIn: "trf6",
        consecutiveNotFound: 0,
        lastOutcome: "changed",
      });
    }
  });

  it("fail, and count nothing, when every candidate index answers without all of them at once", async () => {
    fake.setDocuments("trf1", [doc("trf1", MG), doc("trf1", MG2)]);
    fake.setDocuments("trf6", [doc("trf6", DF)]);
    await sweep([watched(MG), watched(MG2)]);
    fake.setDocuments("trf1", []);
    const from = fake.requests.length;

    const vanished = await sweep([watched(MG), watched(MG2)]);

    expect(vanished.cases.map((c) => c.outcome)).toEqual(["failed", "failed"]);
    expect(vanished.cases[0]?.error).toContain("every case of this answer seen before is missing");
    expect(asked(from).map((r) => r.alias)).toEqual(["trf1", "trf6"]);
    expect(getCase(db, MG, "trf1")).toMatchObject({ consecutiveNotFound: 0, goneAt: null });
  });
});

describe("the MCP tools", () => {
  it("find a TRF1 number in TRF6 without a court, and ask an explicit court alone", async () => {
    const call = (args: Record<string, unknown>) =>
      callTool(connection.client, "get_case", args, GetCaseOutput, { timeoutMs: 60_000 });

    const derived = await call({ cnjNumber: MG });
    const trf1Only = await call({ cnjNumber: MG, court: "trf1" });
    const trf6 = await call({ cnjNumber: MG, court: "trf6" });
    const batch = await callTool(
      connection.client,
      "read_cases",
      { cnjNumbers: [MG, DF] },
      ReadCasesOutput,
      { timeoutMs: 60_000 },
    );

    expect(derived).toMatchObject({ court: "trf6", found: true });
    expect(derived.provenance.index).toBe("api_publica_trf6");
    expect(trf1Only).toMatchObject({ court: "trf1", found: false });
    expect(trf6).toMatchObject({ court: "trf6", found: true });
    expect(batch.cases.map((c) => `${c.cnjNumber} ${c.court} ${c.found}`)).toEqual([
      `${formatCnjNumber(MG)} trf6 true`,
      `${formatCnjNumber(DF)} trf1 true`,
    ]);
  });

  it("report a failed TRF1 answer as an error, not as a TRF6 lookup", async () => {
    fake.failAlways({ status: 503, alias: "trf1" });

    const result = callTool(connection.client, "get_case", { cnjNumber: MG }, GetCaseOutput, {
      timeoutMs: 60_000,
    });

    await expect(result).rejects.toThrow(/503/);
    expect(fake.requests.every((r) => r.alias === "trf1")).toBe(true);
  });
});

describe("the watchlist", () => {
  it("accepts court: trf6 for a 4.01 number", () => {
    const text = `cases:\n  - number: "${formatCnjNumber(MG)}"\n    court: trf6\n`;

    const result = parseWatchlist(text, "w.yaml");

    expect(result.ok).toBe(true);
    expect(result.ok && result.watchlist.cases[0]?.court).toBe("trf6");
  });
});
