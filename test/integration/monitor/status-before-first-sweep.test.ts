import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { cliInProcess, type Workspace, workspace } from "../../support/cli-harness.js";
import { cleanEnv } from "../../support/cli-process.js";

// No DataJud is needed: status before the first sweep reads only the config and the watchlist.
function env(ws: Workspace): Record<string, string> {
  return cleanEnv({
    MONITOR_WATCHLIST: ws.watchlistPath,
    MONITOR_DB: ws.dbPath,
    MONITOR_OUTBOX_DIR: ws.outboxDir,
    MONITOR_LOG_LEVEL: "silent",
  });
}

describe("monitor status before the first sweep (no database yet)", () => {
  it("exits 0 and says how to start when the watchlist is valid", async () => {
    const ws = workspace("status-nodb-ok-");
    const result = await cliInProcess(["status"], env(ws), ws.dir);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `no database yet at ${ws.dbPath}: run \`monitor run-once\` for a first sweep\n`,
    );
  });

  it("exits 3 with the file:line errors when the watchlist is broken: no good copy can exist yet, so a daemon would not start", async () => {
    const ws = workspace("status-nodb-bad-");
    writeFileSync(ws.watchlistPath, 'cases:\n  - number: "123"\n');
    const text = await cliInProcess(["status"], env(ws), ws.dir);
    expect(text.code).toBe(3);
    expect(text.stdout).toContain(`WATCHLIST INVALID: 1 error in ${ws.watchlistPath}`);
    expect(text.stdout).toContain("the daemon will not start (exit 2) until it is fixed");
    expect(text.stdout).toMatch(new RegExp(`${ws.watchlistPath}:2:13 `, "u"));
    expect(text.stdout).toMatch(/^needs attention: the watchlist file has 1 error; /mu);

    const json = await cliInProcess(["status", "--json"], env(ws), ws.dir);
    expect(json.code).toBe(3);
    const parsed = JSON.parse(json.stdout) as {
      lastRun: unknown;
      watchlistFile: { valid: boolean; errors: string[] };
      attention: string[];
    };
    expect(parsed.lastRun).toBeNull();
    expect(parsed.watchlistFile.valid).toBe(false);
    expect(parsed.watchlistFile.errors).toHaveLength(1);
    expect(parsed.attention).toHaveLength(1);
  });
});
