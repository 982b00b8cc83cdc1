import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FakeDataJud, FakeFault } from "../../fakes/fake-datajud.js";
import {
  baseEnv,
  cliInProcess,
  emlFiles,
  loadFixtures,
  moveCase,
  n,
  outcomes,
  query,
  runOnce,
  startDataJud,
  type Workspace,
  workspace,
} from "./harness.js";

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
    expect(status.code).toBe(0);
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
