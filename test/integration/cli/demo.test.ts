import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { afterEach, describe, expect, it } from "vitest";
import { demoCommand } from "../../../src/cli/demo.js";
import { syncWatchedCases } from "../../../src/store/cases.js";
import { closeDatabase, openDatabase } from "../../../src/store/database.js";
import { captureIo } from "../../support/cli-io.js";
import { screenAfter } from "../../support/terminal-screen.js";

const cleanup: string[] = [];

afterEach(() => {
  for (const dir of cleanup.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function demo(
  env: NodeJS.ProcessEnv,
  stderr: { isTTY?: boolean; columns?: number } = {},
): Promise<{ code: number; out: string; err: string }> {
  const captured = captureIo(env, tmpdir());
  const io = { ...captured, stderr: { ...captured.stderr, ...stderr } };
  const code = await demoCommand.run({ values: {}, positionals: [] }, io);
  const dir = /The files stay in (\S+?);/.exec(io.out())?.[1];
  if (dir) cleanup.push(dir);
  return { code, out: io.out(), err: io.err() };
}

describe("monitor demo", () => {
  it("sweeps the recorded baseline, then the later state, and leaves alert .eml files", async () => {
    const started = performance.now();

    const run = await demo({});

    expect(run.code).toBe(0);
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(run.out).toContain("6 checked, 0 changed, 0 failed");
    expect(run.out).toMatch(/changed +0708123-34\.2024\.8\.07\.0001 +tjdft +3/);
    expect(run.out).toMatch(/changed +1004567-48\.2023\.8\.26\.0100 +tjsp +2/);
    expect(run.out).toMatch(/changed +1001111-48\.2019\.8\.26\.0224 +stj +1/);
    expect(run.out).toMatch(/unchanged +0712345-63\.2025\.8\.07\.0016 +tjdft/);
    expect(run.out).toContain("6 checked, 3 changed, 0 failed");
    expect(run.out).toContain("mail: 7 queued, 7 sent");
    expect(run.out).toContain(
      "DJEN: 6 sources checked, 0 failed; 1 new publication; 6 DJEN requests",
    );
    const paths = [...run.out.matchAll(/^ {2}(\/\S+\.eml)$/gm)].map((m) => m[1] ?? "");
    expect(paths).toHaveLength(7);
    for (const path of paths) expect(existsSync(path)).toBe(true);
    const parsed = await Promise.all(paths.map(async (p) => simpleParser(readFileSync(p))));
    const recipients = parsed.map((m) => (Array.isArray(m.to) ? "" : (m.to?.text ?? ""))).sort();
    expect(recipients).toEqual([
      "ana@example.com",
      "ana@example.com",
      "escritorio@example.com",
      "escritorio@example.com",
      "escritorio@example.com",
      "escritorio@example.com",
      "rui@example.com",
    ]);
    expect(run.out).toContain("4. The text part of");
    // Of the copies of one alert, the first recipient's address is shown (ana@ before
    // escritorio@), whatever the random file names: the same output on every run.
    expect(run.out).toMatch(/4\. The text part of \S+:\n\n {2}To: ana@example\.com\n/);
    expect(run.out).toMatch(/5\. The DJEN publication alert, \S+:\n\n {2}To: ana@example\.com\n/);
    expect(run.out).toContain("| Processo 0708123-34.2024.8.07.0001 · TJDFT");
    expect(run.out).toContain("| Não é aconselhamento jurídico.");
    expect(run.out).toContain("5. The DJEN publication alert");
    expect(run.out).toMatch(/Subject: \[datajud\] ⚠ URGENTE Intimação no DJEN: Condomínio Solar/);
    expect(run.out).toContain("| Prazo começa a contar em:");
    expect(run.out).toContain("| DECISÃO DE SANEAMENTO.");
    expect(run.err).toBe("");
  });

  it("uses MONITOR_DB and MONITOR_OUTBOX_DIR when they are set, and ignores the user's keys", async () => {
    const dir = mkdtempSync(join(tmpdir(), "demo-configured-"));
    cleanup.push(dir);

    const run = await demo({
      MONITOR_DB: join(dir, "mine.db"),
      MONITOR_OUTBOX_DIR: join(dir, "mail"),
      DATAJUD_API_KEY: "the-users-real-key",
      ANTHROPIC_API_KEY: "sk-ant-not-to-be-used",
      SMTP_URL: "smtp://127.0.0.1:1",
    });

    expect(run.code).toBe(0);
    expect(existsSync(join(dir, "mine.db"))).toBe(true);
    expect(readdirSync(join(dir, "mail")).filter((f) => f.endsWith(".eml"))).toHaveLength(7);
    expect(run.out).toContain("0 model calls (no ANTHROPIC_API_KEY");
    expect(run.out).toContain("mail: 7 queued, 7 sent");
  });
});

describe("monitor demo on a terminal and off it", () => {
  it("on a terminal: human log lines, and each sweep's progress drawn in place and cleared", async () => {
    const run = await demo({ MONITOR_LOG_LEVEL: "info" }, { isTTY: true, columns: 120 });

    expect(run.code).toBe(0);
    expect(run.err).toContain("DataJud: 6 of 6 cases checked");
    expect(run.err).toMatch(/\n {2}tjdft +2\/2 +\d+ requests? +done in \d+ s\n/);
    const screen = screenAfter(run.err);
    expect(screen).toContainEqual(
      expect.stringMatching(/^\d\d:\d\d:\d\d INFO: sweep finished {2}checked=6 changed=3 /),
    );
    expect(screen.every((line) => !line.startsWith("{"))).toBe(true);
    // Each sweep's progress is erased when it ends: only the log lines stay on the screen.
    expect(screen.filter((line) => line.includes("cases checked"))).toEqual([]);
  });

  it("off a terminal (a pipe, journald): JSON lines only, no progress and no cursor movement", async () => {
    const run = await demo({ MONITOR_LOG_LEVEL: "info" }, { isTTY: false });

    expect(run.code).toBe(0);
    const lines = run.err.trimEnd().split("\n");
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) expect(JSON.parse(line)).toHaveProperty("msg");
    expect(run.err).not.toContain("\x1b[");
    expect(run.err).not.toContain("cases checked");
  });
});

describe("monitor demo with a database of real cases", () => {
  it("refuses to mix its sample cases into it, and exits 2", async () => {
    const dir = mkdtempSync(join(tmpdir(), "demo-real-db-"));
    cleanup.push(dir);
    const db = openDatabase(join(dir, "real.db"));
    syncWatchedCases(
      db,
      [
        {
          number: "0713383-43.2025.8.07.0006",
          digits: "07133834320258070006",
          court: "tjdft",
          label: null,
          watchers: ["ana@example.com"],
        },
      ],
      "2025-11-01T00:00:00.000Z",
    );
    closeDatabase(db);

    const run = await demo({ MONITOR_DB: join(dir, "real.db") });

    expect(run.code).toBe(2);
    expect(run.err).toContain("already follows other cases");
    expect(run.out).toBe("");
  });
});
