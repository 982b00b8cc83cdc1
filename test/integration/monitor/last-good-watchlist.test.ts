import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeDataJud } from "../../fakes/fake-datajud.js";
import {
  baseEnv,
  cliInProcess,
  emlFiles,
  startDataJud,
  THREE_CASES,
  type Workspace,
  waitFor,
  workspace,
} from "../../support/cli-harness.js";
import { startDaemonInProcess as startDaemon } from "../../support/daemon-in-process.js";

/*
 * The daemon never stays down for a typo: restarted with a broken watchlist it runs on the last
 * good copy the database keeps, loudly (status exits 3 naming file:line:col, /readyz 503, one
 * operator e-mail however many restarts), and says when the file is fixed. Through the CLI and the
 * daemon, against the fake DataJud; mail goes to .eml files.
 */

const BROKEN = 'defaults:\n  notify: [ana@example.com]\ncases:\n  - number: "123"\n';

let datajud: FakeDataJud;

beforeAll(async () => {
  datajud = await startDataJud("last-good-key");
});

afterAll(async () => {
  await datajud?.close();
});

function sweeps(logs: string): number {
  return logs.split('"msg":"sweep finished"').length - 1;
}

async function operatorMail(ws: Workspace): Promise<Array<{ subject: string; text: string }>> {
  const parsed = await Promise.all(
    emlFiles(ws)
      .filter((m) => m.includes("To: ti@example.com"))
      .map((m) => simpleParser(m)),
  );
  return parsed.map((p) => ({ subject: p.subject ?? "", text: p.text ?? "" }));
}

function setup(prefix: string): { ws: Workspace; env: Record<string, string> } {
  const ws = workspace(prefix, THREE_CASES);
  const config = join(ws.dir, "monitor.yaml");
  writeFileSync(
    config,
    'schedule:\n  cron: "* * * * * *"\n  startJitterSeconds: 0\nhttp:\n  listen: "127.0.0.1:0"\nmail:\n  admin: ti@example.com\n',
  );
  const env = baseEnv(ws, datajud, { MONITOR_CONFIG: config, MONITOR_LOG_LEVEL: "info" });
  return { ws, env };
}

describe("a restart with a broken watchlist", () => {
  it("runs on the last good copy, loudly, tells the operator once, and says when it is fixed", async () => {
    const { ws, env } = setup("last-good-");
    const first = await cliInProcess(["run-once"], env, ws.dir);
    expect(first.code).toBe(0);
    writeFileSync(ws.watchlistPath, BROKEN);

    const daemon = startDaemon(env, ws.dir);
    let ready: Response;
    let status: Awaited<ReturnType<typeof cliInProcess>>;
    let json: { attention: string[]; watchlistFile: { valid: boolean; errors: string[] } };
    try {
      await waitFor(() => sweeps(daemon.logs()) >= 1, "a sweep on the last good copy", 20_000);
      ready = await fetch(`${daemon.base()}/readyz`);
      status = await cliInProcess(["status"], env, ws.dir);
      json = JSON.parse((await cliInProcess(["status", "--json"], env, ws.dir)).stdout);
    } finally {
      expect(await daemon.stop()).toBe(0);
    }
    // A second restart, the file still broken: still running, no second e-mail.
    const again = startDaemon(env, ws.dir);
    try {
      await waitFor(() => sweeps(again.logs()) >= 1, "a sweep after the second restart", 20_000);
    } finally {
      expect(await again.stop()).toBe(0);
    }
    const whileBroken = await operatorMail(ws);

    expect(daemon.logs()).toContain("running on its last good copy until it is fixed");
    expect(ready.status).toBe(503);
    const checks = ((await ready.json()) as { checks: Array<{ name: string; problem: string }> })
      .checks;
    expect(checks.find((c) => c.name === "watchlist")?.problem).toMatch(
      /^the watchlist file has an error since .*; the daemon runs on its last good copy, accepted at /u,
    );
    expect(status.code).toBe(3);
    expect(status.stdout).toContain(`WATCHLIST INVALID since `);
    expect(status.stdout).toContain(`${ws.watchlistPath}:4:13 `);
    expect(status.stdout).toMatch(/the daemon runs on its last good copy, accepted \d\d\/\d\d/u);
    expect(status.stdout).toMatch(/\nneeds attention: the watchlist file has 1 error; /u);
    expect(json.watchlistFile.valid).toBe(false);
    expect(json.attention[0]).toBe(
      "the watchlist file has 1 error; the daemon runs on its last good copy",
    );
    // The sweeps ran on the copy: its three cases, checked again after the restart.
    const cases = JSON.parse((await cliInProcess(["status", "--json"], env, ws.dir)).stdout)
      .cases as Array<{ lastOutcome: string }>;
    expect(cases.map((c) => c.lastOutcome)).toEqual(["unchanged", "unchanged", "unchanged"]);
    expect(whileBroken).toHaveLength(1);
    expect(whileBroken[0]?.subject).toBe(
      "[datajud] ⚠ The watchlist file is invalid: the daemon runs on its last good copy",
    );
    expect(whileBroken[0]?.text).toContain(`${ws.watchlistPath}:4:13 `);
    expect(whileBroken[0]?.text).toContain("runs on the last good copy of the watchlist");

    // Fixed: the next start accepts the file, and the operator hears that it is over.
    writeFileSync(
      ws.watchlistPath,
      `defaults:\n  notify: [ana@example.com]\ncases:\n  - number: "${THREE_CASES[0]}"\n`,
    );
    const fixed = startDaemon(env, ws.dir);
    try {
      await waitFor(() => sweeps(fixed.logs()) >= 1, "a sweep on the fixed file", 20_000);
      await waitFor(
        () => emlFiles(ws).filter((m) => m.includes("To: ti@example.com")).length === 2,
        "the recovery e-mail",
      );
    } finally {
      await fixed.stop();
    }
    const after = await cliInProcess(["status"], env, ws.dir);
    const mail = await operatorMail(ws);

    expect(mail.map((m) => m.subject).sort()).toEqual([
      "[datajud] The watchlist file is valid again",
      "[datajud] ⚠ The watchlist file is invalid: the daemon runs on its last good copy",
    ]);
    expect(after.stdout).not.toContain("WATCHLIST INVALID");
    expect(after.code).toBe(0);
  }, 90_000);

  it("exits 2 as before when the database keeps no good copy, and creates none", async () => {
    const { ws, env } = setup("no-good-copy-");
    writeFileSync(ws.watchlistPath, BROKEN);

    const run = await cliInProcess(["daemon"], env, ws.dir);

    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${ws.watchlistPath}:4:13 `);
    expect(run.stderr).toContain("the database keeps no good copy of it to run on");
    expect(existsSync(ws.dbPath)).toBe(false);
  });
});
