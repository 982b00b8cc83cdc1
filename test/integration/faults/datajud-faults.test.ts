import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MOVEMENTS_MAX } from "../../../src/datajud/case-reader.js";
import type { FakeDataJud, FakeFault } from "../../fakes/fake-datajud.js";
import {
  baseEnv,
  cliInProcess,
  closedPort,
  emlFiles,
  fixtureDoc,
  loadFixtures,
  moveCase,
  n,
  outcomes,
  query,
  runOnce,
  SENTENCE,
  startDataJud,
  type Workspace,
  workspace,
} from "../../support/cli-harness.js";

let datajud: FakeDataJud;
let ws: Workspace;

function env(): Record<string, string> {
  return baseEnv(ws, datajud);
}

beforeAll(async () => {
  datajud = await startDataJud("faults-key");
});

afterAll(async () => {
  await datajud.close();
});

beforeEach(async () => {
  loadFixtures(datajud);
  ws = workspace("faults-datajud-");
  const baseline = await runOnce(ws, env());
  if (baseline.code !== 0) throw new Error(`baseline failed: ${baseline.stdout}`);
});

/** A 200 that counts the case but leaves its hits out, as the live API has sent. */
const HOLLOW = {
  took: 3,
  timed_out: false,
  _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
  hits: { total: { value: 1, relation: "eq" }, max_score: null, hits: [] },
};

const ALL_UNCHANGED = {
  [`${n.trf1Previdenciario}@trf1`]: "unchanged",
  [`${n.trt2Reclamacao}@trt2`]: "unchanged",
  [`${n.tjdftDespejo}@tjdft`]: "unchanged",
};

describe("transient DataJud faults within one sweep", () => {
  const transient: Array<[string, FakeFault]> = [
    ["503", { status: 503, body: { error: "Service Unavailable", status: 503 } }],
    ["504 from the gateway, as HTML", { status: 504, body: "<html>Gateway Time-out</html>" }],
    ["429 with Retry-After", { status: 429, headers: { "retry-after": "1" } }],
    ["200 with a failed shard", { partialShards: true }],
    ["200 that timed out", { timedOut: true }],
    ["garbage instead of JSON", { status: 200, body: "{not json" }],
    ["200 with a total but no hits", { status: 200, body: HOLLOW }],
    ["a request that never answers", { hang: true }],
  ];

  it.each(transient)(
    "absorbs %s: exit 0, no false change, no false not_found",
    async (_, fault) => {
      datajud.failNext({ ...fault, alias: "trt2" });
      const before = datajud.requests.length;

      const run = await runOnce(ws, env());

      expect(run.code, run.stdout).toBe(0);
      expect(outcomes(run.report)).toEqual(ALL_UNCHANGED);
      expect(run.report.changed).toBe(0);
      // The fault cost one retry on trt2, nothing more.
      expect(datajud.requests.length - before).toBe(4);
    },
  );

  it("still detects a real change when the first answer for that court was partial", async () => {
    moveCase(datajud, "trt2", n.trt2Reclamacao);
    datajud.failNext({ partialShards: true, alias: "trt2" });

    const run = await runOnce(ws, env());

    expect(run.code).toBe(0);
    expect(outcomes(run.report)[`${n.trt2Reclamacao}@trt2`]).toBe("changed");
    expect(run.report.changed).toBe(1);
  });
});

describe("a DataJud that stays down", () => {
  it("fails every case, mails nobody, marks nothing gone, and the next healthy sweep finds them unchanged", async () => {
    const mailBefore = emlFiles(ws).length;
    datajud.failAlways({ status: 503 });
    const quick = { ...env(), DATAJUD_MAX_ATTEMPTS: "2" };

    const down = await runOnce(ws, quick);
    datajud.failAlways(null);
    const back = await runOnce(ws, env());

    expect(down.code).toBe(1);
    expect(down.report.failed).toBe(3);
    expect(down.report.cases.every((c) => c.outcome === "failed" && c.error !== null)).toBe(true);
    expect(down.report.emailsQueued).toBe(0);
    expect(emlFiles(ws).length).toBe(mailBefore);
    expect(query(ws, "SELECT number FROM cases WHERE gone_at IS NOT NULL")).toEqual([]);
    expect(
      query<{ n: number }>(ws, "SELECT COUNT(*) AS n FROM checks WHERE outcome = 'not_found'"),
    ).toEqual([{ n: 0 }]);
    expect(query(ws, "SELECT id FROM changes")).toEqual([]);
    expect(back.code).toBe(0);
    expect(outcomes(back.report)).toEqual(ALL_UNCHANGED);
  });

  it("reads a total without hits as a failed check every time, never as not found", async () => {
    datajud.failAlways({ status: 200, body: HOLLOW, alias: "trt2" });

    const hollow = await runOnce(ws, { ...env(), DATAJUD_MAX_ATTEMPTS: "2" });
    datajud.failAlways(null);

    expect(hollow.code).toBe(1);
    expect(outcomes(hollow.report)).toEqual({
      ...ALL_UNCHANGED,
      [`${n.trt2Reclamacao}@trt2`]: "failed",
    });
    expect(hollow.report.cases.find((c) => c.court === "trt2")?.error).toContain("no hits");
    expect(
      query<{ n: number }>(ws, "SELECT COUNT(*) AS n FROM checks WHERE outcome = 'not_found'"),
    ).toEqual([{ n: 0 }]);
  });

  it("stops after one query when DataJud cannot be reached, and says so in one line", async () => {
    const port = await closedPort();
    // One query at a time, so the count shows that the rest were never sent (the stop with
    // queries in flight: sweep-concurrency.test.ts).
    const down = {
      ...env(),
      DATAJUD_BASE_URL: `http://127.0.0.1:${port}`,
      DATAJUD_CONCURRENCY: "1",
    };

    const json = await runOnce(ws, down);
    const plain = await cliInProcess(["run-once"], down, ws.dir);

    expect(json.code).toBe(1);
    expect(json.report.failed).toBe(3);
    // One query's attempts (DATAJUD_MAX_ATTEMPTS=3, fewer when its deadline comes first), not
    // three queries' worth.
    expect(json.report.datajudRequests).toBeGreaterThanOrEqual(1);
    expect(json.report.datajudRequests).toBeLessThanOrEqual(3);
    expect(json.report.unreachable).toMatch(
      new RegExp(
        `^could not reach DataJud \\(http://127\\.0\\.0\\.1:${port}\\) for api_publica_\\w+: .*ECONNREFUSED`,
      ),
    );
    const notAsked = json.report.cases.filter((c) =>
      c.error?.startsWith("not asked: DataJud could not be reached"),
    );
    expect(notAsked).toHaveLength(2);
    expect(json.report.cases.every((c) => c.outcome === "failed")).toBe(true);
    expect(plain.code).toBe(1);
    expect(plain.stdout.trim().split("\n")).toHaveLength(1);
    expect(plain.stdout).toMatch(
      /^3 cases not checked: could not reach DataJud \(http:\/\/127\.0\.0\.1:\d+\).*Run `datajud-monitor doctor`/,
    );
    expect(
      query<{ n: number }>(ws, "SELECT COUNT(*) AS n FROM checks WHERE outcome = 'failed'"),
    ).toEqual([{ n: 6 }]);
  });

  it("reports a rejected key with the rotation hint, also in monitor status", async () => {
    const rotated = { ...env(), DATAJUD_API_KEY: "an-old-rotated-key" };

    const run = await runOnce(ws, rotated);
    const status = await cliInProcess(["status", "--json"], env(), ws.dir);

    expect(run.code).toBe(1);
    expect(run.report.failed).toBe(3);
    for (const c of run.report.cases) {
      expect(c.outcome).toBe("failed");
      expect(c.error).toContain("HTTP 401");
      expect(c.error).toContain("DATAJUD_API_KEY");
      expect(c.error).not.toContain("an-old-rotated-key");
    }
    // Needs attention: every case fails, and so did the sweep.
    expect(status.code).toBe(3);
    expect(JSON.parse(status.stdout).attention).toEqual([
      "3 cases failing",
      "the last sweep failed: DataJud answered for no case",
    ]);
    const cases = JSON.parse(status.stdout).cases as Array<{
      lastOutcome: string;
      lastError: string | null;
    }>;
    expect(cases).toHaveLength(3);
    expect(cases.every((c) => c.lastOutcome === "failed" && c.lastError?.includes("401"))).toBe(
      true,
    );
  });
});

/** A clean-looking 200 without any hit: what a lost shard or a reindex looks like from outside. */
function emptyAnswer(shards: object | null): object {
  return {
    took: 2,
    timed_out: false,
    ...(shards === null ? {} : { _shards: shards }),
    hits: { total: { value: 0, relation: "eq" }, max_score: null, hits: [] },
  };
}

function goneCases(): unknown[] {
  return query(ws, "SELECT number FROM cases WHERE gone_at IS NOT NULL");
}

describe("an incomplete 200 is not 'not found'", () => {
  const incomplete: Array<[string, object]> = [
    [
      "fewer successful shards than the total, none failed",
      emptyAnswer({ total: 5, successful: 4, skipped: 0, failed: 0 }),
    ],
    ["no _shards at all", emptyAnswer(null)],
  ];

  it.each(incomplete)("%s: a failed check sweep after sweep, never gone", async (_, body) => {
    datajud.failAlways({ status: 200, body, alias: "trt2" });
    const quick = { ...env(), DATAJUD_MAX_ATTEMPTS: "1" };

    const runs = [];
    for (let i = 0; i < 4; i++) runs.push(await runOnce(ws, quick));
    datajud.failAlways(null);

    for (const run of runs) {
      expect(run.code).toBe(1);
      expect(outcomes(run.report)[`${n.trt2Reclamacao}@trt2`]).toBe("failed");
    }
    expect(goneCases()).toEqual([]);
    expect(
      query<{ n: number }>(ws, "SELECT COUNT(*) AS n FROM checks WHERE outcome = 'not_found'"),
    ).toEqual([{ n: 0 }]);
  });

  it("an answer in which every case seen before is suddenly missing is a failed check, not a mass disappearance", async () => {
    ws = workspace("faults-vanish-", [n.tjdftDespejo, n.tjdftJuizado, n.trt2Reclamacao]);
    await runOnce(ws, env());
    datajud.setDocuments("tjdft", []);

    const runs = [];
    for (let i = 0; i < 4; i++) runs.push(await runOnce(ws, env()));
    loadFixtures(datajud);
    const back = await runOnce(ws, env());

    for (const run of runs) {
      expect(outcomes(run.report)).toEqual({
        [`${n.tjdftDespejo}@tjdft`]: "failed",
        [`${n.tjdftJuizado}@tjdft`]: "failed",
        [`${n.trt2Reclamacao}@trt2`]: "unchanged",
      });
      expect(run.report.cases.find((c) => c.court === "tjdft")?.error).toContain(
        "every case of this answer seen before is missing",
      );
    }
    expect(goneCases()).toEqual([]);
    expect(outcomes(back.report)).toEqual({
      [`${n.tjdftDespejo}@tjdft`]: "unchanged",
      [`${n.tjdftJuizado}@tjdft`]: "unchanged",
      [`${n.trt2Reclamacao}@trt2`]: "unchanged",
    });
  });

  it("one case that cleanly disappears is declared gone after three answers, and mail.admin hears it once", async () => {
    const config = join(ws.dir, "monitor.yaml");
    writeFileSync(config, "mail:\n  admin: ti@example.com\n");
    const withAdmin = { ...env(), MONITOR_CONFIG: config };
    const trt2 = fixtureDoc("trt2", n.trt2Reclamacao);
    datajud.remove("trt2", trt2._id);

    const runs = [];
    for (let i = 0; i < 5; i++) runs.push(await runOnce(ws, withAdmin));
    const operatorMail = await Promise.all(
      emlFiles(ws)
        .filter((m) => m.includes("To: ti@example.com"))
        .map((m) => simpleParser(m)),
    );

    expect(runs.map((r) => outcomes(r.report)[`${n.trt2Reclamacao}@trt2`])).toEqual([
      "not_found",
      "not_found",
      "not_found",
      "not_found",
      "not_found",
    ]);
    expect(goneCases()).toEqual([{ number: n.trt2Reclamacao }]);
    expect(operatorMail).toHaveLength(1);
    expect(operatorMail[0]?.subject).toBe("[datajud] ⚠ 1 case not found in DataJud");
    expect(operatorMail[0]?.text).toContain(n.trt2Reclamacao);
    expect(operatorMail[0]?.text).toContain("3 complete answers in a row without the case");
  });
});

describe("a record past 10,000 movements", () => {
  it("is read whole, every sweep, never failing the case (the old bound failed it forever)", async () => {
    const long = fixtureDoc("tjdft", n.tjdftDespejo);
    const served = long._source.movimentos as unknown[];
    const added = Array.from({ length: 10_500 }, (_, m) => ({
      codigo: 85,
      nome: "Petição",
      dataHora: new Date(Date.UTC(2024, 0, 1) + m * 60_000).toISOString(),
    }));
    long._source.movimentos = [...served, ...added];
    long._source.dataHoraUltimaAtualizacao = "2025-11-21T09:00:00.000Z";
    datajud.upsert("tjdft", long);

    const first = await runOnce(ws, env());
    const second = await runOnce(ws, env());

    expect(outcomes(first.report)[`${n.tjdftDespejo}@tjdft`]).toBe("changed");
    expect(outcomes(second.report)[`${n.tjdftDespejo}@tjdft`]).toBe("unchanged");
    const [stored] = query<{ n: number }>(
      ws,
      "SELECT COUNT(*) AS n FROM movements m JOIN cases c ON c.id = m.case_id WHERE c.digits = ?",
      n.tjdftDespejo.replace(/\D/g, ""),
    );
    expect(stored?.n).toBe(served.length + 10_500);
  });
});

describe("a record too large to read", () => {
  it("fails that case's check with the reason, and the case beside it in the same court is read", async () => {
    ws = workspace("faults-too-large-", [n.tjdftDespejo, n.tjdftJuizado]);
    await runOnce(ws, env());
    const huge = fixtureDoc("tjdft", n.tjdftDespejo);
    huge._source.movimentos = Array.from({ length: MOVEMENTS_MAX + 1 }, (_, m) => ({
      codigo: 85,
      nome: "Petição",
      dataHora: new Date(Date.UTC(2020, 0, 1) + m * 60_000).toISOString(),
    }));
    huge._source.dataHoraUltimaAtualizacao = "2025-11-21T09:00:00.000Z";
    datajud.upsert("tjdft", huge);
    const moved = fixtureDoc("tjdft", n.tjdftJuizado, "JE");
    (moved._source.movimentos as unknown[]).push(SENTENCE);
    moved._source.dataHoraUltimaAtualizacao = "2025-11-21T09:00:00.000Z";
    datajud.upsert("tjdft", moved);

    const run = await runOnce(ws, env());

    expect(outcomes(run.report)).toEqual({
      [`${n.tjdftDespejo}@tjdft`]: "failed",
      [`${n.tjdftJuizado}@tjdft`]: "changed",
    });
    expect(run.report.cases.find((c) => c.number === n.tjdftDespejo)?.error).toContain(
      `${(MOVEMENTS_MAX + 1).toLocaleString("en")} movements in one record`,
    );
    expect(goneCases()).toEqual([]);
  });
});
