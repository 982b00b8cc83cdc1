import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import readXlsxFile from "read-excel-file/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../../../src/cli/run-cli.js";
import { closeDatabase, openDatabase } from "../../../src/store/database.js";
import { acquireLease, releaseLease } from "../../../src/store/lease.js";
import { type FakeDataJud, startFakeDataJud } from "../../fakes/fake-datajud.js";
import {
  cliInProcess,
  outcomes,
  parseReport,
  type RunOnceResult,
} from "../../support/cli-harness.js";
import { captureIo } from "../../support/cli-io.js";
import { cleanEnv } from "../../support/cli-process.js";
import { type FixtureDoc, loadRecordedCases } from "../../support/fixtures.js";
import { makeTempDir } from "../../support/temp-dir.js";
import { waitFor } from "../../support/wait-for.js";

const recorded = loadRecordedCases();
const n = recorded.numbers;

let fake: FakeDataJud;
let dir: string;

function env(): Record<string, string> {
  return cleanEnv({
    DATAJUD_BASE_URL: fake.url,
    DJEN_ENABLED: "false",
    DATAJUD_API_KEY: fake.apiKey,
    DATAJUD_MAX_ATTEMPTS: "2",
    DATAJUD_TIMEOUT_MS: "2000",
    DATAJUD_TOTAL_TIMEOUT_MS: "4000",
    MONITOR_WATCHLIST: join(dir, "watchlist.yaml"),
    MONITOR_DB: join(dir, "monitor.db"),
    MONITOR_LOG_LEVEL: "warn",
  });
}

/** The CLI in this process (tsx start-up is most of a subprocess's cost), on a fake clock. */
function cli(argv: string[], environment = env()): ReturnType<typeof cliInProcess> {
  return cliInProcess(argv, environment, dir);
}

async function runOnce(...flags: string[]): Promise<RunOnceResult> {
  return parseReport(await cli(["run-once", "--json", ...flags]));
}

function loadFixtures(): void {
  for (const [alias, docs] of Object.entries(recorded.indices))
    fake.setDocuments(alias, structuredClone(docs));
}

function docOf(alias: string, digits: string, grau: string): FixtureDoc {
  const doc = recorded.indices[alias]?.find(
    (d) => d._source.numeroProcesso === digits && d._source.grau === grau,
  );
  if (!doc) throw new Error("fixture missing");
  return structuredClone(doc);
}

beforeAll(async () => {
  fake = await startFakeDataJud({ apiKey: "run-once-key" });
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => {
  dir = makeTempDir("monitor-run-once-");
  writeFileSync(
    join(dir, "watchlist.yaml"),
    [
      "defaults:",
      "  notify: [escritorio@example.com]",
      "cases:",
      `  - number: "${n.tjdftDespejo}"`,
      '    label: "Silva x Souza (despejo)"',
      `  - number: "${n.tjdftJuizado}"`,
      `  - number: "${n.tjspCobranca}"`,
      `  - number: "${n.tjspCobranca}"`,
      "    court: stj",
      `  - number: "${n.trf1Previdenciario}"`,
      `  - number: "${n.trt2Reclamacao}"`,
      `  - number: "${n.tjdftNotFound}"`,
      "",
    ].join("\n"),
  );
  loadFixtures();
  fake.failAlways(null);
});

describe("monitor run-once against a DataJud-shaped server", () => {
  it("records a baseline, then an unchanged sweep costs one request per court", async () => {
    const first = await runOnce();
    const second = await runOnce();

    expect(first.code).toBe(0);
    expect(outcomes(first.report)).toEqual({
      [`${n.tjdftDespejo}@tjdft`]: "baseline",
      [`${n.tjdftJuizado}@tjdft`]: "baseline",
      [`${n.tjdftNotFound}@tjdft`]: "not_found",
      [`${n.tjspCobranca}@tjsp`]: "baseline",
      [`${n.tjspCobranca}@stj`]: "baseline",
      [`${n.trf1Previdenciario}@trf1`]: "baseline",
      [`${n.trt2Reclamacao}@trt2`]: "baseline",
    });
    expect(first.report.datajudRequests).toBe(10);
    expect(first.stderr).toContain("DataJud sent fields this version does not read");
    expect(first.stderr).toContain("novoCampoNaoDocumentado");
    expect(second.code).toBe(0);
    expect(second.report.cases.filter((c) => c.outcome === "unchanged")).toHaveLength(6);
    expect(second.report.datajudRequests).toBe(5);
    expect(second.report.changed).toBe(0);
  });

  it("monitor status says why a case may be missing from DataJud, and only when one is", async () => {
    await runOnce();

    const status = await cli(["status"]);

    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(new RegExp(`${n.tjdftNotFound} +tjdft .*not found x1`));
    expect(status.stdout).toContain(`Not found in DataJud: ${n.tjdftNotFound} (tjdft).`);
    expect(status.stdout).toContain("under seal (segredo de justiça)");
    expect(status.stdout).toContain("a new case may take days or weeks to appear");
    expect(status.stdout).toContain("needs `court:` in the watchlist");
    expect(status.stdout).toContain(
      "After 3 clean not-found answers in a row a case counts as gone",
    );
    writeFileSync(join(dir, "watchlist.yaml"), `cases:\n  - number: "${n.trt2Reclamacao}"\n`);
    await runOnce();
    const without = await cli(["status"]);
    expect(without.stdout).not.toContain("Not found in DataJud");
  });

  it("reports exactly the case that got a new movement as changed", async () => {
    await runOnce();
    const moved = docOf("tjdft", n.tjdftJuizado.replace(/\D/g, ""), "TR");
    const movements = moved._source.movimentos as unknown[];
    movements.push({
      codigo: 848,
      nome: "Trânsito em julgado",
      dataHora: "2025-11-20T12:00:00.000Z",
    });
    moved._source.dataHoraUltimaAtualizacao = "2025-11-21T09:00:00.000Z";
    fake.upsert("tjdft", moved);

    const run = await runOnce();

    expect(run.code).toBe(0);
    const changed = run.report.cases.filter((c) => c.outcome === "changed");
    expect(changed).toEqual([
      { number: n.tjdftJuizado, court: "tjdft", outcome: "changed", newMovements: 1, error: null },
    ]);
    expect(run.report.changed).toBe(1);
  });

  it("shows a hostile movement name and label escaped in history and status, exact in JSON", async () => {
    const hostileName = "Despacho\u001b]0;pwn\u0007\u001b[31m\u202egnp.exe\u200b\rOK";
    writeFileSync(
      join(dir, "watchlist.yaml"),
      `cases:\n  - number: "${n.trt2Reclamacao}"\n    label: "Silva\\r\\n\\e[2JSouza"\n`,
    );
    await runOnce();
    const moved = docOf("trt2", n.trt2Reclamacao.replace(/\D/g, ""), "G1");
    (moved._source.movimentos as unknown[]).push({
      codigo: 11010,
      nome: hostileName,
      dataHora: "2025-11-20T12:00:00.000Z",
    });
    moved._source.dataHoraUltimaAtualizacao = "2025-11-21T09:00:00.000Z";
    fake.upsert("trt2", moved);
    await runOnce();

    const history = await cli(["history", n.trt2Reclamacao]);
    const status = await cli(["status"]);
    const json = await cli(["history", n.trt2Reclamacao, "--json"]);

    for (const out of [history.stdout, status.stdout]) {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
      expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b\u202e]/u);
    }
    expect(history.stdout).toContain(
      "Despacho\\x1B]0;pwn\\x07\\x1B[31m\\u202Egnp.exe\\u200B\\x0DOK",
    );
    expect(history.stdout).toContain("Silva\\x0D\\x0A\\x1B[2JSouza");
    expect(status.stdout).toContain("Silva\\x0D\\x0A\\x1B[2JSouza");
    const names = JSON.parse(json.stdout).cases[0].changes[0].movements.map(
      (m: { data: { name: string } }) => m.data.name,
    );
    expect(names).toContain(hostileName);
  });

  it("summarizes the change, mails each watcher once, and shows it in status and history", async () => {
    await runOnce();
    const moved = docOf("trt2", n.trt2Reclamacao.replace(/\D/g, ""), "G1");
    (moved._source.movimentos as unknown[]).push({
      codigo: 193,
      nome: "Julgamento",
      dataHora: "2025-11-20T12:00:00.000Z",
    });
    moved._source.dataHoraUltimaAtualizacao = "2025-11-21T09:00:00.000Z";
    fake.upsert("trt2", moved);

    const changed = parseReport(
      await cli(["run-once", "--json"], { ...env(), MONITOR_LOG_LEVEL: "info" }),
    );
    const again = await runOnce();
    const status = await cli(["status", "--json"]);
    const history = await cli(["history", n.trt2Reclamacao, "--json"]);
    const unknown = await cli(["history", n.stfNumber]);

    // No model key is the documented default: one info line, no warning for the change.
    expect(changed.stderr).not.toContain("summary written by the rules engine");
    expect(
      changed.stderr.match(/no ANTHROPIC_API_KEY: alerts are summarized by the rules/g),
    ).toHaveLength(1);
    expect(changed.stderr).toMatch(/"level":30,[^\n]*no ANTHROPIC_API_KEY/);
    expect(changed.report).toMatchObject({
      changed: 1,
      llmCalls: 0,
      emailsQueued: 1,
      emailsSent: 1,
    });
    expect(again.report).toMatchObject({ changed: 0, emailsQueued: 0, emailsSent: 0 });
    const outbox = join(dir, "outbox");
    const emls = readdirSync(outbox).filter((f) => f.endsWith(".eml"));
    expect(emls).toHaveLength(1);
    const eml = readFileSync(join(outbox, emls[0] ?? ""), "utf8");
    expect(eml).toContain("To: escritorio@example.com");
    expect(status.code).toBe(0);
    const parsedStatus = JSON.parse(status.stdout);
    expect(parsedStatus.mail).toEqual({
      pending: 0,
      waiting: 0,
      sent: 1,
      dead: 0,
      retrying: { rows: 0, lastError: null, nextAttemptAt: null },
    });
    const cases = parsedStatus.cases as Array<{ number: string; lastOutcome: string }>;
    expect(cases).toHaveLength(7);
    expect(cases.find((c) => c.number === n.trt2Reclamacao)?.lastOutcome).toBe("unchanged");
    expect(history.code).toBe(0);
    const [record] = JSON.parse(history.stdout).cases;
    expect(record.changes).toHaveLength(1);
    expect(record.changes[0].summary.generatedBy).toBe("rules");
    expect(record.changes[0].movements.map((m: { code: number }) => m.code)).toEqual([193]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("no recorded history");

    const csv = await cli(["history", n.trt2Reclamacao, "--format", "csv"]);
    const exported = await cli(["export", "--since", "2025-11-01"]);
    const exportedJson = await cli(["export", "--format", "json"]);

    expect(csv.code).toBe(0);
    const csvLines = csv.stdout.trim().split("\r\n");
    expect(csvLines[0]).toMatch(
      /^"case","court","label","instance","date","code","name","complements","first_seen_at","date_as_sent","source",/,
    );
    expect(csvLines).toHaveLength(1 + 3);
    expect(csvLines.at(-1)).toContain("Julgamento");
    expect(exported.code).toBe(0);
    expect(exported.stdout.trim().split("\r\n").slice(1)).toEqual([
      expect.stringContaining(',193,"Julgamento",'),
    ]);
    const all = JSON.parse(exportedJson.stdout).movements as unknown[];
    expect(all.length).toBeGreaterThan(10);
  });

  it("writes history and export as .xlsx workbooks whose dates are date cells", async () => {
    await runOnce();

    const history = await cli(["history", n.trt2Reclamacao, "--format", "xlsx"]);
    const exported = await cli(["export", "--format", "xlsx"]);
    const csv = await cli(["history", n.trt2Reclamacao, "--format", "csv"]);

    expect(history.code).toBe(0);
    const [sheet] = await readXlsxFile(history.stdoutBytes ?? Buffer.alloc(0));
    expect(sheet?.sheet).toBe(n.trt2Reclamacao);
    const [header, ...rows] = sheet?.data ?? [];
    expect(header?.slice(0, 5)).toEqual(["case", "court", "label", "instance", "date"]);
    const csvRows = csv.stdout.trim().split("\r\n").slice(1);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows).toHaveLength(csvRows.length);
    for (const row of rows) {
      expect(row[0]).toBe(n.trt2Reclamacao);
      expect(row[4]).toBeInstanceOf(Date);
      expect(row[8]).toBeInstanceOf(Date);
    }
    // The court's digits, as the CSV writes them: never shifted by a time zone.
    const first = rows[0]?.[4];
    const firstDate =
      first instanceof Date ? first.toISOString().slice(0, 19).replace("T", " ") : "";
    expect(csvRows[0]).toContain(`,"${firstDate}",`);
    expect(exported.code).toBe(0);
    const [all] = await readXlsxFile(exported.stdoutBytes ?? Buffer.alloc(0));
    expect((all?.data.length ?? 0) - 1).toBeGreaterThan(10);
  });

  it("records a fingerprint that moved without new content as unchanged", async () => {
    await runOnce();
    const touched = docOf("trf1", n.trf1Previdenciario.replace(/\D/g, ""), "G1");
    touched._source["@timestamp"] = "2026-01-01T00:00:00.000Z";
    fake.upsert("trf1", touched);

    const run = await runOnce();
    const again = await runOnce();

    expect(outcomes(run.report)[`${n.trf1Previdenciario}@trf1`]).toBe("unchanged");
    expect(run.report.changed).toBe(0);
    expect(again.report.datajudRequests).toBe(5);
  });

  it("reports every case failed when DataJud stays down, and unchanged once it is back", async () => {
    await runOnce();
    fake.failAlways({ status: 503, body: { error: "Service Unavailable" } });

    const down = await runOnce();
    fake.failAlways(null);
    const back = await runOnce();

    expect(down.code).toBe(1);
    expect(down.report.failed).toBe(7);
    expect(down.report.cases.every((c) => c.outcome === "failed" && c.error !== null)).toBe(true);
    expect(back.code).toBe(0);
    expect(back.report.changed).toBe(0);
    expect(back.report.cases.filter((c) => c.outcome === "unchanged")).toHaveLength(6);
  });

  it("mails the first check's state only when notifyOnBaseline is set", async () => {
    writeFileSync(join(dir, "monitor.yaml"), "monitor:\n  notifyOnBaseline: true\n");
    const withBaseline = { ...env(), MONITOR_CONFIG: join(dir, "monitor.yaml") };

    const { report } = parseReport(await cli(["run-once", "--json"], withBaseline));

    expect(report.cases.filter((c) => c.outcome === "baseline")).toHaveLength(6);
    expect(report.emailsQueued).toBe(6);
    expect(report.emailsSent).toBe(6);
  });

  it("writes nothing on --dry-run", async () => {
    const dry = await runOnce("--dry-run");
    const real = await runOnce();

    expect(dry.report.dryRun).toBe(true);
    expect(dry.report.cases.filter((c) => c.outcome === "baseline")).toHaveLength(6);
    expect(real.report.cases.filter((c) => c.outcome === "baseline")).toHaveLength(6);
  });

  it("checks only the cases named with --case", async () => {
    const run = await runOnce("--case", n.trt2Reclamacao);

    expect(run.report.cases.map((c) => c.number)).toEqual([n.trt2Reclamacao]);
    expect(run.report.datajudRequests).toBe(2);
  });

  it("stops on SIGTERM with a request in flight: it is aborted, what was committed stays, the report says interrupted", async () => {
    const checks = (): number => {
      const path = join(dir, "monitor.db");
      if (!existsSync(path)) return 0;
      const db = new Database(path, { readonly: true });
      try {
        return (db.prepare("SELECT COUNT(*) AS n FROM checks").get() as { n: number }).n;
      } catch {
        return 0; // not migrated yet
      } finally {
        db.close();
      }
    };
    const sigterm = new AbortController();
    const io = { ...captureIo(env(), dir, ["run-once", "--json"]), signal: sigterm.signal };
    fake.hold("tjsp");
    let stopped: RunOnceResult;
    try {
      const running = runCli(io);
      // Every court but TJSP answered and committed while TJSP's request hangs.
      await waitFor(() => checks() === 6 && fake.inFlight === 1, "all but TJSP checked");
      const abandonedBefore = fake.abandoned;
      sigterm.abort(new Error("received SIGTERM"));
      const code = await running;
      await waitFor(() => fake.inFlight === 0, "TJSP's request closed");
      stopped = parseReport({ code, stdout: io.out(), stderr: io.err() });
      expect(fake.abandoned - abandonedBefore).toBe(1);
    } finally {
      fake.release();
    }
    const statusAfterStop = await cli(["status"]);
    const after = await runOnce();

    expect(statusAfterStop.stdout).toMatch(
      /\nlast sweep: [0-9/]+ [0-9:]+, interrupted \(Ctrl-C or SIGTERM\) after 6 cases checked; the next sweep checks the rest\n/,
    );
    expect(stopped.code).toBe(1);
    expect(stopped.report.interrupted).toBe(true);
    expect(outcomes(stopped.report)).toEqual({
      [`${n.tjdftDespejo}@tjdft`]: "baseline",
      [`${n.tjdftJuizado}@tjdft`]: "baseline",
      [`${n.tjdftNotFound}@tjdft`]: "not_found",
      [`${n.tjspCobranca}@stj`]: "baseline",
      [`${n.trf1Previdenciario}@trf1`]: "baseline",
      [`${n.trt2Reclamacao}@trt2`]: "baseline",
    });
    expect(after.code).toBe(0);
    expect(outcomes(after.report)[`${n.tjspCobranca}@tjsp`]).toBe("baseline");
    expect(after.report.cases.filter((c) => c.outcome === "unchanged")).toHaveLength(5);
  });

  it("refuses to sweep while another process holds the lease", async () => {
    await runOnce();
    const db = openDatabase(join(dir, "monitor.db"));
    acquireLease(db, { holder: "other@host", now: Date.now(), ttlMs: 60_000 });

    const run = await cli(["run-once"]);
    releaseLease(db, "other@host");
    closeDatabase(db);

    expect(run.code).toBe(1);
    expect(run.stderr).toContain("other@host");
    // Until when, in the schedule's zone as the CLI's other times: no UTC text.
    expect(run.stderr).toMatch(/\(other@host, until \d\d\/\d\d\/\d{4} \d\d:\d\d\)/);
  });

  it("exits 2 with positioned errors for an invalid watchlist", async () => {
    writeFileSync(
      join(dir, "watchlist.yaml"),
      `cases:\n  - number: "${n.tjdftDespejo.replace("-43.", "-44.")}"\n`,
    );

    const run = await cli(["run-once"]);

    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/watchlist\.yaml:2:\d+ .*43/);
  });

  it("keeps the stored history of every check", async () => {
    await runOnce();
    await runOnce();

    const db = new Database(join(dir, "monitor.db"), { readonly: true });
    const counts = db
      .prepare("SELECT outcome, COUNT(*) AS n FROM checks GROUP BY outcome ORDER BY outcome")
      .all();
    db.close();

    expect(counts).toEqual([
      { outcome: "baseline", n: 6 },
      { outcome: "not_found", n: 2 },
      { outcome: "unchanged", n: 6 },
    ]);
  });
});
