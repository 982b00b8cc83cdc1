import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { dateInZone } from "../../../src/time/zoned-time.js";
import type { FakeDataJud } from "../../fakes/fake-datajud.js";
import { djenItem, type FakeDjen, startFakeDjen } from "../../fakes/fake-djen.js";
import {
  baseEnv,
  cliInProcess,
  emlFiles,
  loadFixtures,
  moveCase,
  n,
  query,
  runOnce,
  startDataJud,
  type Workspace,
  workspace,
} from "../../support/cli-harness.js";
import { closedPort } from "../../support/closed-port.js";
import { waitFor } from "../../support/wait-for.js";

/*
 * DJEN failing, through `monitor run-once` and `monitor status`: an answer that ignored its
 * filter is rejected (nothing of it stored), DJEN down is a failed check (never "no
 * publications") that mail.admin hears of after a streak, and a 403 abroad is one clear error.
 */

const despejo = n.tjdftDespejo;
const digits = despejo.replace(/\D/g, "");
const ADMIN = "ti@example.com";

let datajud: FakeDataJud;
let djen: FakeDjen;
let ws: Workspace;

/** Today in São Paulo: in the window (yesterday and today) of runs whose clock follows the real one. */
function today(): string {
  return dateInZone(Date.now());
}

function env(): Record<string, string> {
  writeFileSync(
    join(ws.dir, "monitor.yaml"),
    `mail:\n  admin: ${ADMIN}\n  healthAfterFailedSweeps: 2\n`,
  );
  return baseEnv(ws, datajud, {
    MONITOR_CONFIG: join(ws.dir, "monitor.yaml"),
    DJEN_ENABLED: "true",
    DJEN_BASE_URL: djen.url,
    DJEN_MAX_ATTEMPTS: "1",
    // Runs seconds apart: every source asked at each run (the plan is tested on its own).
    DJEN_CASE_EVERY_HOURS: "0",
    DJEN_OAB_EVERY_HOURS: "0",
  });
}

/** Every e-mail written as .eml so far: recipient, subject and text, parsed as a client would. */
async function mails(): Promise<Array<{ to: string; subject: string; text: string }>> {
  const parsed = await Promise.all(emlFiles(ws).map((eml) => simpleParser(eml)));
  return parsed
    .map((m) => ({
      to: (Array.isArray(m.to) ? m.to[0] : m.to)?.text ?? "",
      subject: m.subject ?? "",
      text: typeof m.text === "string" ? m.text : "",
    }))
    .sort((a, b) => a.subject.localeCompare(b.subject));
}

function publications(): Array<{ djenId: string; disposition: string | null }> {
  return query(ws, "SELECT djen_id AS djenId, disposition FROM publications ORDER BY djen_id");
}

beforeAll(async () => {
  datajud = await startDataJud("djen-faults-key");
  djen = await startFakeDjen();
});

afterAll(async () => {
  await djen?.close();
  await datajud?.close();
});

afterEach(() => {
  djen.release();
  loadFixtures(datajud);
  djen.foreign = false;
  djen.failAlways(null);
  djen.setItems([]);
  rmSync(ws.dir, { recursive: true, force: true });
});

describe("DJEN beside DataJud", () => {
  it("is asked while DataJud is still answering, so a sweep takes the longer of the two", async () => {
    ws = workspace("djen-overlap-", [despejo]);
    djen.setItems([djenItem({ id: 2101, caseNumber: digits, date: today() })]);
    datajud.hold();

    const running = runOnce(ws, env());
    await waitFor(() => djen.requests.length > 0, "a DJEN request while DataJud holds its answer");
    const djenAskedWhileHeld = datajud.inFlight > 0;
    datajud.release();
    const result = await running;

    expect(djenAskedWhileHeld).toBe(true);
    expect(result.code).toBe(0);
    expect(result.report.checked).toBe(1);
    expect(result.report.publications).toMatchObject({ checked: 1, failed: 0, newPublications: 1 });
  });

  it("mails a DataJud change while DJEN still holds its answer, and a publication while DataJud holds its", async () => {
    ws = workspace("djen-apart-", [despejo]);
    await runOnce(ws, env());
    moveCase(datajud, "tjdft", despejo);
    djen.hold();

    const slowDjen = runOnce(ws, env());
    await waitFor(
      () => emlFiles(ws).length === 1,
      "the change's alert while DJEN holds its answer",
    );
    const djenStillHeld = djen.held;
    djen.release();
    const first = await slowDjen;
    djen.add(djenItem({ id: 4101, caseNumber: digits, date: today() }));
    const later = moveCase(datajud, "tjdft", despejo);
    (later._source.movimentos as unknown[]).push({
      codigo: 11009,
      nome: "Despacho",
      dataHora: "2025-11-24T10:00:00.000Z",
    });
    later._source.dataHoraUltimaAtualizacao = "2025-11-24T11:00:00.000Z";
    datajud.upsert("tjdft", later);
    datajud.hold();
    const slowDataJud = runOnce(ws, env());
    await waitFor(
      () => emlFiles(ws).length === 2,
      "the publication's alert while DataJud holds its answer",
    );
    const dataJudStillHeld = datajud.inFlight;
    const mailedFirst = (await mails()).map((m) => m.subject);
    datajud.release();
    const second = await slowDataJud;

    expect(djenStillHeld).toBeGreaterThan(0);
    expect(first.report).toMatchObject({ changed: 1, emailsSent: 1 });
    expect(dataJudStillHeld).toBeGreaterThan(0);
    expect(mailedFirst).toEqual([
      expect.stringMatching(/0713383-43\.2025\.8\.07\.0006/),
      expect.stringMatching(
        /^\[datajud\] ⚠ URGENTE Intimação no DJEN: 0713383-43\.2025\.8\.07\.0006/,
      ),
    ]);
    expect(second.report).toMatchObject({ changed: 1, emailsSent: 2 });
    expect(emlFiles(ws)).toHaveLength(3);
  });
});

describe("DJEN failures are failed checks", () => {
  it("rejects an answer that ignored its filter: nothing of it stored, the check failed, exit 1", async () => {
    ws = workspace("djen-filter-", [despejo]);
    djen.setItems([djenItem({ id: 2001, caseNumber: digits, date: today() })]);
    await runOnce(ws, env());
    djen.add(
      djenItem({ id: 2002, caseNumber: "10352894820228260602", court: "TJSP", date: today() }),
      djenItem({ id: 2003, caseNumber: digits, date: today() }),
    );

    djen.failNext({ ignoreFilters: true });
    const rejected = await runOnce(ws, env());
    const status = await cliInProcess(["status", "--json"], env(), ws.dir);
    const stored = publications().map((p) => p.djenId);
    const recovered = await runOnce(ws, env());

    expect(rejected.code).toBe(1);
    expect(rejected.report.publications).toMatchObject({
      checked: 1,
      failed: 1,
      newPublications: 0,
    });
    expect(rejected.report.publications?.failures[0]?.error).toMatch(
      /does not match it \(item 2002 is for case 10352894820228260602, not 07133834320258070006\): it ignored a filter, so none of it is used/,
    );
    expect(stored).toEqual(["2001"]);
    expect(JSON.parse(status.stdout).cases[0].djen).toMatchObject({
      lastOutcome: "failed",
      consecutiveFailures: 1,
    });
    expect(recovered.code).toBe(0);
    expect(publications()).toEqual([
      { djenId: "2001", disposition: "baseline" },
      { djenId: "2003", disposition: "alert" },
    ]);
    expect((await mails()).map((m) => m.subject)).toEqual([
      expect.stringMatching(
        /^\[datajud\] ⚠ URGENTE Intimação no DJEN: 0713383-43\.2025\.8\.07\.0006/,
      ),
    ]);
  });

  it("cuts an endless answer at djen.maxResponseMb: a failed check saying so, nothing stored, exit 1", async () => {
    ws = workspace("djen-endless-", [despejo]);
    djen.failAlways({ endless: true });
    const before = djen.endless.bytes;
    const asked = djen.requests.length;

    const run = await runOnce(ws, env());
    const status = await cliInProcess(["status", "--json"], env(), ws.dir);
    await waitFor(() => djen.endless.hungUp >= 1, "run-once to hang up on the endless answer");

    expect(run.code).toBe(1);
    expect(run.report.publications).toMatchObject({ checked: 1, failed: 1, newPublications: 0 });
    expect(run.report.publications?.failures[0]?.error).toMatch(
      /^DJEN's answer for case 07133834320258070006, [-0-9]+ to [-0-9]+ \(page 1\) is larger than 8 MiB \(djen\.maxResponseMb\); it was not read/,
    );
    expect(publications()).toEqual([]);
    expect(JSON.parse(status.stdout).cases[0].djen).toMatchObject({
      lastOutcome: "failed",
      consecutiveFailures: 1,
    });
    // One request, read up to the cap (plus what the sockets held): not 2.88 GB until a timeout.
    expect(djen.requests.slice(asked)).toHaveLength(1);
    expect(djen.endless.bytes - before).toBeLessThan(16 * 2 ** 20);
  });

  it("reports DJEN down as failed checks, tells mail.admin after the streak, and finds what was published meanwhile", async () => {
    ws = workspace("djen-down-", [despejo]);
    await runOnce(ws, env());
    djen.failAlways({ status: 500 });
    djen.add(djenItem({ id: 3001, caseNumber: digits, date: today() }));

    const first = await runOnce(ws, env());
    const second = await runOnce(ws, env());
    const status = await cliInProcess(["status"], env(), ws.dir);
    djen.failAlways(null);
    const back = await runOnce(ws, env());

    expect(first.code).toBe(1);
    expect(first.report.publications).toMatchObject({ checked: 1, failed: 1, newPublications: 0 });
    expect(first.report.publications?.failures[0]?.error).toMatch(/DJEN answered HTTP 500/);
    expect(second.report.publications?.failed).toBe(1);
    expect(status.stdout).toMatch(/failed x2/);
    expect(status.stdout).toMatch(/DJEN answers no publication check since/);
    expect(back.code).toBe(0);
    expect(back.report.publications).toMatchObject({ failed: 0, newPublications: 1 });
    expect(publications()).toEqual([{ djenId: "3001", disposition: "alert" }]);
    expect((await mails()).filter((m) => m.to === ADMIN).map((m) => m.subject)).toEqual([
      "[datajud] ⚠ DJEN did not answer in 2 sweeps in a row",
      "[datajud] DJEN answers again",
    ]);
  });

  it("reads a 403 abroad as one clear operator error, asked once per sweep and mailed once", async () => {
    ws = workspace("djen-foreign-", [despejo, n.trt2Reclamacao]);
    writeFileSync(
      ws.watchlistPath,
      `defaults:\n  notify: [ana@example.com]\n  oab: ["123456/SP"]\ncases:\n  - number: "${despejo}"\n  - number: "${n.trt2Reclamacao}"\n`,
    );
    djen.foreign = true;
    const before = djen.requests.length;

    const first = await runOnce(ws, env());
    const requests = djen.requests.length - before;
    const second = await runOnce(ws, env());
    const status = await cliInProcess(["status"], env(), ws.dir);

    expect(first.code).toBe(1);
    expect(requests).toBe(1);
    expect(first.report.publications).toMatchObject({ checked: 3, failed: 3 });
    expect(first.report.publications?.failures.map((f) => f.kind)).toEqual([
      "geo_blocked",
      "geo_blocked",
      "geo_blocked",
    ]);
    expect(first.report.publications?.failures[0]?.error).toMatch(
      /DJEN's API answers only addresses in Brazil/,
    );
    expect(second.code).toBe(1);
    const admin = (await mails()).filter((m) => m.to === ADMIN);
    expect(admin.map((m) => m.subject)).toEqual([
      "[datajud] ⚠ DJEN refused this server's address (outside Brazil)",
    ]);
    expect(admin[0]?.text).toMatch(/DJEN's API answers only addresses in Brazil/);
    expect(admin[0]?.text).toMatch(/djen\.enabled: false/);
    expect(status.stdout).toMatch(
      /OAB 123456\/SP: DJEN last checked .*failed x2: DJEN refused the request \(HTTP 403\)/,
    );
  });
});

describe("DJEN that cannot be reached", () => {
  it("stops after one source's retries (port closed, name not resolving): every other source failed once, nothing stored, one line", async () => {
    ws = workspace("djen-unreachable-", [despejo, n.trt2Reclamacao, n.trf1Previdenciario]);
    writeFileSync(
      ws.watchlistPath,
      `defaults:\n  notify: [ana@example.com]\n  oab: ["123456/SP"]\ncases:\n${[despejo, n.trt2Reclamacao, n.trf1Previdenciario].map((x) => `  - number: "${x}"\n`).join("")}`,
    );
    const closed = `http://127.0.0.1:${await closedPort()}`;
    const at = (base: string): Record<string, string> => ({
      ...env(),
      DJEN_BASE_URL: base,
      DJEN_MAX_ATTEMPTS: "2",
      DJEN_TIMEOUT_MS: "2000",
    });

    const refused = await runOnce(ws, at(closed));
    const unresolved = await runOnce(ws, at("http://djen.invalid"));
    const text = await cliInProcess(["run-once"], at(closed), ws.dir);

    for (const run of [refused, unresolved]) {
      expect(run.code).toBe(1);
      // One source's two attempts; the three others not sent.
      expect(run.report.publications).toMatchObject({ checked: 4, failed: 4, djenRequests: 2 });
      expect(run.report.checked).toBe(3);
    }
    expect(refused.report.publications?.unreachable).toMatch(
      /^could not reach DJEN \(http:\/\/127\.0\.0\.1:\d+\): .*ECONNREFUSED/,
    );
    expect(unresolved.report.publications?.unreachable).toMatch(
      /could not reach DJEN \(http:\/\/djen\.invalid\)|DJEN did not answer within/,
    );
    expect(refused.report.publications?.failures.map((f) => f.error)).toEqual([
      expect.stringMatching(/^could not reach DJEN/),
      ...Array.from({ length: 3 }, () =>
        expect.stringMatching(/^not asked: DJEN could not be reached \(could not reach DJEN/),
      ),
    ]);
    const djenLines = text.stdout.split("\n").filter((l) => /DJEN/.test(l));
    expect(djenLines).toEqual([
      expect.stringMatching(
        /^DJEN: 4 sources not checked: could not reach DJEN .*Run `.*doctor` .*DJEN_ENABLED=false/,
      ),
    ]);
    // A failure, never an absence: no check recorded as answered, no publication.
    expect(
      query(ws, "SELECT count(*) AS n FROM djen_sources WHERE last_ok_at IS NOT NULL"),
    ).toEqual([{ n: 0 }]);
    expect(
      query(ws, "SELECT count(*) AS n FROM djen_sources WHERE last_outcome = 'failed'"),
    ).toEqual([{ n: 4 }]);
    expect(publications()).toEqual([]);
  });

  it("does not stop for one failed attempt that the retry gets past", async () => {
    ws = workspace("djen-blip-", [despejo, n.trt2Reclamacao]);
    djen.failNext({ hang: true });

    const run = await runOnce(ws, { ...env(), DJEN_MAX_ATTEMPTS: "2", DJEN_TIMEOUT_MS: "300" });

    expect(run.code).toBe(0);
    expect(run.report.publications).toMatchObject({ checked: 2, failed: 0, unreachable: null });
  });
});

describe("monitor status and DJEN", () => {
  it("shows a source not due yet as its next check, and DJEN switched off as off, counting no DJEN failure", async () => {
    ws = workspace("djen-status-", [despejo]);
    const planned = { ...env(), DJEN_CASE_EVERY_HOURS: "8" };
    await runOnce(ws, planned);
    const answered = await cliInProcess(["status"], planned, ws.dir);
    djen.failAlways({ status: 500 });
    await runOnce(ws, env());
    const failing = await cliInProcess(["status"], env(), ws.dir);
    const off = { ...env(), DJEN_ENABLED: "false" };

    const text = await cliInProcess(["status"], off, ws.dir);
    const json = JSON.parse((await cliInProcess(["status", "--json"], off, ws.dir)).stdout);

    expect(answered.stdout).toMatch(/ due \d\d\/\d\d[ /]\d/);
    expect(failing.stdout).toMatch(/1 failing DJEN checks/);
    expect(text.stdout).toMatch(/ off /);
    expect(text.stdout).toMatch(/DJEN off \(djen\.enabled: false\): no publication is read/);
    expect(text.stdout).not.toMatch(/failing DJEN|DJEN answered HTTP 500/);
    expect(json.djenEnabled).toBe(false);
    expect(json.cases[0].djen).toBeNull();
    expect(json.oab).toEqual([]);
  });
});
