import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorReply, type FakeAnthropic, startFakeAnthropic } from "../../fakes/fake-anthropic.js";
import type { FakeDataJud } from "../../fakes/fake-datajud.js";
import { type SmtpSink, startSmtpSink } from "../../fakes/smtp-sink.js";
import {
  baseEnv,
  cliInProcess,
  cliSubprocess,
  moveCase,
  n,
  parseReport,
  query,
  runOnce,
  startDataJud,
  type Workspace,
  workspace,
} from "../../support/cli-harness.js";

const DATAJUD_KEY = "dj-SECRET-4f1c9a7e2b";
const ANTHROPIC_KEY = "sk-ant-SECRET-93b2d1e07c";
const SMTP_USER = "monitor";
const SMTP_PASS = "smtp-SECRET-p@ss/77";
const SECRETS = [DATAJUD_KEY, ANTHROPIC_KEY, SMTP_PASS, encodeURIComponent(SMTP_PASS)];

let datajud: FakeDataJud;
let anthropic: FakeAnthropic;
let sink: SmtpSink;

beforeAll(async () => {
  datajud = await startDataJud(DATAJUD_KEY);
  anthropic = await startFakeAnthropic({ apiKey: ANTHROPIC_KEY });
  sink = await startSmtpSink({ auth: { user: SMTP_USER, pass: SMTP_PASS } });
});

afterAll(async () => {
  await Promise.all([sink.close(), anthropic.close(), datajud.close()]);
});

function env(ws: Workspace, smtpPass: string): Record<string, string> {
  return baseEnv(ws, datajud, {
    ANTHROPIC_API_KEY: ANTHROPIC_KEY,
    ANTHROPIC_BASE_URL: anthropic.url,
    ANTHROPIC_MODEL: "claude-fake-1",
    SMTP_URL: sink.url({ user: SMTP_USER, pass: smtpPass }),
    MONITOR_LOG_LEVEL: "trace",
  });
}

/** Every file the monitor wrote under the workspace's state directory, WAL and .eml included. */
function stateFiles(ws: Workspace): string[] {
  const root = dirname(ws.dbPath);
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.push(path);
    }
  };
  walk(root);
  return out;
}

function leaked(text: string): string[] {
  return SECRETS.filter((s) => text.includes(s));
}

describe("secrets and file modes through a sweep that exercises every error path", () => {
  it("never writes a key or the SMTP password to stderr, stdout, the database or mail, and keeps files private", async () => {
    // One workspace mails with the right password, one with a wrong one (an SMTP auth error).
    const good = workspace("security-good-");
    const bad = workspace("security-bad-");
    const eml = workspace("security-eml-");
    // The baselines run in process; the sweeps whose logs are checked run as real processes, so
    // whatever reaches their stderr (library warnings included) is checked too.
    const quiet = { MONITOR_LOG_LEVEL: "silent" };
    await Promise.all([
      runOnce(good, { ...env(good, SMTP_PASS), ...quiet }),
      runOnce(bad, { ...env(bad, SMTP_PASS), ...quiet }),
      runOnce(eml, baseEnv(eml, datajud, { ANTHROPIC_API_KEY: ANTHROPIC_KEY })),
    ]);
    moveCase(datajud, "trt2", n.trt2Reclamacao);
    // A retried DataJud request and a failing Messages API put errors in the logs. Retry-After: 0
    // takes the retry at once: a real process cannot skip a backoff on a fake clock.
    const unavailable = { status: 503, alias: "trt2", headers: { "retry-after": "0" } };
    datajud.failNext(unavailable, unavailable);
    for (let i = 0; i < 6; i++) anthropic.enqueue(errorReply(500, "upstream failed"));
    const wrongPass = `${SMTP_PASS}-wrong`;

    const [goodRun, badRun] = await Promise.all([
      cliSubprocess(["run-once", "--json"], env(good, SMTP_PASS), good.dir),
      cliSubprocess(["run-once", "--json"], env(bad, wrongPass), bad.dir),
    ]);
    const emlRun = await runOnce(eml, {
      ...baseEnv(eml, datajud),
      ANTHROPIC_API_KEY: ANTHROPIC_KEY,
      ANTHROPIC_BASE_URL: anthropic.url,
    });
    // A rejected key's error path, in process (its logs are captured all the same).
    const rotated = await cliInProcess(
      ["run-once", "--json"],
      { ...env(good, SMTP_PASS), DATAJUD_API_KEY: `${DATAJUD_KEY}-old` },
      good.dir,
    );

    expect(parseReport(goodRun).report.emailsSent).toBe(1);
    expect(parseReport(badRun).report.emailsSent).toBe(0);
    expect(emlRun.report.emailsSent).toBe(1);
    expect(badRun.stderr).toContain('"msg":"mail delivery failed"');
    expect(query<{ e: string }>(bad, "SELECT last_error AS e FROM outbox")[0]?.e).toMatch(/535/);
    expect(goodRun.stderr.length).toBeGreaterThan(0);
    for (const run of [goodRun, badRun, rotated]) {
      expect(leaked(run.stderr)).toEqual([]);
      expect(leaked(run.stdout)).toEqual([]);
      expect(run.stderr).not.toContain(`${DATAJUD_KEY}-old`);
    }
    expect(leaked(emlRun.stdout + emlRun.stderr)).toEqual([]);
    for (const ws of [good, bad, eml]) {
      for (const file of stateFiles(ws)) {
        expect(leaked(readFileSync(file, "latin1")), file).toEqual([]);
        expect(statSync(file).mode & 0o777, file).toBe(0o600);
      }
      expect(statSync(dirname(ws.dbPath)).mode & 0o777).toBe(0o700);
    }
    expect(statSync(eml.outboxDir).mode & 0o777).toBe(0o700);
    expect(readdirSync(eml.outboxDir).filter((f) => f.endsWith(".eml"))).toHaveLength(1);
    for (const message of sink.messages) expect(leaked(message.raw.toString("latin1"))).toEqual([]);
  }, 60_000); // two real processes on a shared 2-core machine: room to start, not a timing
});

// "monitor mcp offers only read-only tools" runs in ../mcp/stdio-e2e.test.ts, on the process
// those tests start.
