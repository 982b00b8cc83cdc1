import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeDataJud, startFakeDataJud } from "../../fakes/fake-datajud.js";
import { cleanEnv, cliCommand } from "../../support/cli-process.js";
import { loadRecordedCases } from "../../support/fixtures.js";
import { makeTempDir } from "../../support/temp-dir.js";
import { waitFor } from "../../support/wait-for.js";

const recorded = loadRecordedCases();
const n = recorded.numbers;

let fake: FakeDataJud;

beforeAll(async () => {
  fake = await startFakeDataJud({ apiKey: "daemon-key" });
  for (const [alias, docs] of Object.entries(recorded.indices)) fake.setDocuments(alias, docs);
});

afterAll(async () => {
  await fake.close();
});

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

describe("monitor daemon", () => {
  it("sweeps on schedule, reloads an edited watchlist, keeps the last good one, and stops on SIGTERM", async () => {
    const dir = makeTempDir("monitor-daemon-");
    const watchlist = join(dir, "watchlist.yaml");
    writeFileSync(watchlist, `cases:\n  - number: "${n.tjdftDespejo}"\n`);
    writeFileSync(
      join(dir, "monitor.yaml"),
      'schedule:\n  cron: "* * * * * *"\n  startJitterSeconds: 0\n',
    );
    // As under systemd's Type=notify: a NOTIFY_SOCKET, and a systemd-notify that records its call.
    const notified = join(dir, "notified");
    writeFileSync(
      join(dir, "systemd-notify"),
      `#!/bin/sh\necho "$* $NOTIFY_SOCKET" >> "${notified}"\n`,
    );
    chmodSync(join(dir, "systemd-notify"), 0o755);
    const { command, args } = cliCommand();
    const child = spawn(command, [...args, "daemon"], {
      cwd: dir,
      env: cleanEnv({
        DATAJUD_BASE_URL: fake.url,
        DJEN_ENABLED: "false",
        DATAJUD_API_KEY: "daemon-key",
        MONITOR_CONFIG: join(dir, "monitor.yaml"),
        MONITOR_WATCHLIST: watchlist,
        MONITOR_DB: join(dir, "monitor.db"),
        PATH: `${dir}:${process.env.PATH ?? ""}`,
        NOTIFY_SOCKET: join(dir, "notify.sock"),
      }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let logs = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      logs += chunk.toString("utf8");
    });
    const exit = exited(child);

    try {
      await waitFor(() => logs.includes("sweep finished"), "a first sweep", 15_000);
      writeFileSync(
        watchlist,
        `cases:\n  - number: "${n.tjdftDespejo}"\n  - number: "${n.trt2Reclamacao}"\n`,
      );
      await waitFor(() => logs.includes("watchlist reloaded"), "the reload", 10_000);
      writeFileSync(watchlist, "cases:\n  - number: 123\n");
      await waitFor(() => logs.includes("keeping the last good one"), "the invalid edit", 10_000);
      const sweepsBefore = logs.split("sweep finished").length;
      await waitFor(
        () => logs.split("sweep finished").length > sweepsBefore + 1,
        "a sweep after the bad edit",
        10_000,
      );
    } finally {
      child.kill("SIGTERM");
    }
    const code = await exit;

    expect(code).toBe(0);
    expect(logs).toContain("daemon stopped");
    // Ready once it sweeps on its schedule, stopping when SIGTERM came.
    const socket = join(dir, "notify.sock");
    expect(readFileSync(notified, "utf8").trim().split("\n")).toEqual([
      `READY=1 ${socket}`,
      `STOPPING=1 ${socket}`,
    ]);
    // Its next sweeps in the schedule's zone (São Paulo by default), and none at shutdown.
    expect(logs).toMatch(/"nextRun":"\d{4}-\d\d-\d\dT[\d:.]+-03:00"[^\n]*"daemon started"/);
    expect(logs).toMatch(/"nextRun":"\d{4}-\d\d-\d\dT[\d:.]+-03:00"[^\n]*"next sweep scheduled"/);
    expect(logs).not.toContain('"nextRun":null');
    const db = new Database(join(dir, "monitor.db"), { readonly: true });
    const watched = db.prepare("SELECT number FROM cases WHERE watched = 1 ORDER BY number").all();
    db.close();
    expect(watched).toEqual([{ number: n.tjdftDespejo }, { number: n.trt2Reclamacao }]);
  }, 60_000);
});
