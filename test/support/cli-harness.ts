import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { runCli } from "../../src/cli/run-cli.js";
import { RunReport } from "../../src/monitor/run-report.js";
import { type FakeDataJud, startFakeDataJud } from "../fakes/fake-datajud.js";
import { captureIo } from "./cli-io.js";
import { type CliRun, cleanEnv, runCliProcess } from "./cli-process.js";
import { type FixtureDoc, loadRecordedCases } from "./fixtures.js";
import { makeTempDir } from "./temp-dir.js";

/**
 * What the fault, crash and security tests share: a temp state directory, the recorded cases
 * loaded into a fake DataJud, and the CLI run either in-process (fast: most tests) or as a real
 * subprocess (when the test kills it or reads what it logs on stderr).
 */

export const recorded = loadRecordedCases();
export const n = recorded.numbers;

/** Three cases in three courts: each court costs one fingerprint request per sweep. */
export const THREE_CASES = [n.trf1Previdenciario, n.trt2Reclamacao, n.tjdftDespejo] as const;

export interface Workspace {
  dir: string;
  dbPath: string;
  outboxDir: string;
  watchlistPath: string;
}

export function workspace(prefix: string, numbers: readonly string[] = THREE_CASES): Workspace {
  const dir = makeTempDir(prefix);
  const watchlistPath = join(dir, "watchlist.yaml");
  writeFileSync(
    watchlistPath,
    `defaults:\n  notify: [ana@example.com]\ncases:\n${numbers.map((x) => `  - number: "${x}"\n`).join("")}`,
  );
  return {
    dir,
    dbPath: join(dir, "state", "monitor.db"),
    outboxDir: join(dir, "state", "outbox"),
    watchlistPath,
  };
}

export function loadFixtures(datajud: FakeDataJud): void {
  for (const [alias, docs] of Object.entries(recorded.indices))
    datajud.setDocuments(alias, structuredClone(docs));
  datajud.failAlways(null);
}

export async function startDataJud(apiKey: string): Promise<FakeDataJud> {
  const datajud = await startFakeDataJud({ apiKey });
  loadFixtures(datajud);
  return datajud;
}

export function fixtureDoc(alias: string, formatted: string, grau = "G1"): FixtureDoc {
  const digits = formatted.replace(/\D/g, "");
  const doc = recorded.indices[alias]?.find(
    (d) => d._source.numeroProcesso === digits && d._source.grau === grau,
  );
  if (!doc) throw new Error(`fixture ${alias}/${formatted}/${grau} missing`);
  return structuredClone(doc);
}

export const SENTENCE = {
  codigo: 219,
  nome: "Procedência",
  dataHora: "2025-11-20T12:00:00.000Z",
} as const;

/** Adds a movement to a fixture case, as DataJud would after the court acted. */
export function moveCase(
  datajud: FakeDataJud,
  alias: string,
  formatted: string,
  movement: Record<string, unknown> = SENTENCE,
): FixtureDoc {
  const doc = fixtureDoc(alias, formatted);
  (doc._source.movimentos as unknown[]).push(movement);
  doc._source.dataHoraUltimaAtualizacao = "2025-11-21T09:00:00.000Z";
  datajud.upsert(alias, doc);
  return doc;
}

export function baseEnv(
  ws: Workspace,
  datajud: FakeDataJud,
  extra: Record<string, string> = {},
): Record<string, string> {
  return cleanEnv({
    DATAJUD_BASE_URL: datajud.url,
    DJEN_ENABLED: "false",
    DATAJUD_API_KEY: datajud.apiKey,
    DATAJUD_MAX_ATTEMPTS: "3",
    // Short, for the fault that never answers; long enough for the fake (in this process) to
    // serve several large answers at once on a loaded machine.
    DATAJUD_TIMEOUT_MS: "2000",
    DATAJUD_TOTAL_TIMEOUT_MS: "6000",
    MONITOR_WATCHLIST: ws.watchlistPath,
    MONITOR_DB: ws.dbPath,
    MONITOR_OUTBOX_DIR: ws.outboxDir,
    MONITOR_LOG_LEVEL: "silent",
    ...extra,
  });
}

export interface CliResult {
  code: number | null;
  stdout: string;
  /** stdout as bytes, when run in this process (an .xlsx workbook is binary). */
  stdoutBytes?: Buffer;
  stderr: string;
}

/** The CLI in this process: same code as the binary, without tsx's start-up cost. */
export async function cliInProcess(
  argv: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<CliResult> {
  const io = captureIo(env, cwd, argv);
  const code = await runCli(io);
  return { code, stdout: io.out(), stdoutBytes: io.outBytes(), stderr: io.err() };
}

export function cliSubprocess(
  argv: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<CliRun> {
  // A real process cannot skip a timeout's backoff on a fake clock, and a cold process's first
  // request can take longer than baseEnv's 2 s on a busy machine.
  const patient = { ...env, DATAJUD_TIMEOUT_MS: "10000", DATAJUD_TOTAL_TIMEOUT_MS: "20000" };
  return runCliProcess(argv, { env: patient, cwd, timeoutMs: 20_000 });
}

export interface RunOnceResult extends CliResult {
  report: RunReport;
}

export function parseReport(run: CliResult): RunOnceResult {
  if (run.stdout.trim() === "")
    throw new Error(`run-once printed no report (exit ${run.code}): ${run.stderr}`);
  return { ...run, report: RunReport.parse(JSON.parse(run.stdout)) };
}

export async function runOnce(
  ws: Workspace,
  env: Record<string, string>,
  ...flags: string[]
): Promise<RunOnceResult> {
  return parseReport(await cliInProcess(["run-once", "--json", ...flags], env, ws.dir));
}

export function outcomes(report: RunReport): Record<string, string> {
  return Object.fromEntries(report.cases.map((c) => [`${c.number}@${c.court}`, c.outcome]));
}

/** Read-only, so a test's look never changes what the monitor sees. */
export function query<T>(ws: Workspace, sql: string, ...params: unknown[]): T[] {
  const db = new Database(ws.dbPath, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/** Moves stored deadlines into the past: what ten minutes of waiting would do. */
export function letTimePass(ws: Workspace): void {
  const db = new Database(ws.dbPath, { fileMustExist: true });
  try {
    db.prepare(
      "UPDATE outbox SET next_attempt_at = NULL WHERE status = 'pending' AND next_attempt_at IS NOT NULL",
    ).run();
    db.prepare("UPDATE lease SET expires_at = '2000-01-01T00:00:00.000Z'").run();
  } finally {
    db.close();
  }
}

export function outboxRows(
  ws: Workspace,
): Array<{ recipient: string; status: string; messageId: string | null; attempts: number }> {
  return query(
    ws,
    "SELECT recipient, status, message_id AS messageId, attempts FROM outbox ORDER BY id",
  );
}

export function emlFiles(ws: Workspace): string[] {
  try {
    return readdirSync(ws.outboxDir)
      .filter((f) => f.endsWith(".eml"))
      .map((f) => readFileSync(join(ws.outboxDir, f), "utf8"));
  } catch {
    return [];
  }
}

export { closedPort } from "./closed-port.js";
export { waitFor } from "./wait-for.js";
