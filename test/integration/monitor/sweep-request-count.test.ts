import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MonitorHandles, openMonitor, type Runtime } from "../../../src/cli/runtime.js";
import { loadConfig } from "../../../src/config/load-config.js";
import { silentLogger } from "../../../src/log.js";
import { runSweep } from "../../../src/monitor/sweep.js";
import { parseWatchlist, type Watchlist } from "../../../src/watchlist/parse-watchlist.js";
import { fakeSystem } from "../../fakes/fake-clock.js";
import type { FakeDataJud } from "../../fakes/fake-datajud.js";
import { n, startDataJud } from "../../support/cli-harness.js";
import { makeTempDir } from "../../support/temp-dir.js";

let datajud: FakeDataJud;
let monitor: MonitorHandles;
let watchlist: Watchlist;

beforeAll(async () => {
  datajud = await startDataJud("request-count-key");
  const dir = makeTempDir("sweep-requests-");
  const text = `cases:\n  - number: "${n.tjdftDespejo}"\n  - number: "${n.trt2Reclamacao}"\n`;
  writeFileSync(join(dir, "watchlist.yaml"), text);
  const parsed = parseWatchlist(text, join(dir, "watchlist.yaml"));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  watchlist = parsed.watchlist;
  const loaded = loadConfig({
    cwd: dir,
    env: {
      MONITOR_WATCHLIST: join(dir, "watchlist.yaml"),
      MONITOR_DB: join(dir, "monitor.db"),
      DATAJUD_BASE_URL: datajud.url,
      DATAJUD_API_KEY: datajud.apiKey,
      DJEN_ENABLED: "false",
    },
  });
  if (!loaded.ok) throw new Error(loaded.errors.join("\n"));
  const runtime: Runtime = { config: loaded.config, secrets: [], logger: silentLogger() };
  monitor = await openMonitor(runtime, { watchlist: () => watchlist, system: fakeSystem() });
});

afterAll(async () => {
  await monitor.close();
  await datajud.close();
});

describe("the run report's DataJud requests", () => {
  it("counts the sweep's own, not the MCP tools' the daemon serves on the same client meanwhile", async () => {
    const options = { watchlist: watchlist.cases, force: false, dryRun: false } as const;
    await runSweep(monitor.sweep, { ...options, trigger: "manual" });
    const quiet = await runSweep(monitor.sweep, { ...options, trigger: "manual" });
    const sentBefore = datajud.requests.length;

    // The daemon's /mcp tools read through the same client (monitor.datajud), during the sweep.
    const flood = Array.from({ length: 12 }, () =>
      monitor.datajud.reader.getCase(n.tjdftDespejo.replace(/\D/g, ""), "tjdft"),
    );
    const busy = await runSweep(monitor.sweep, { ...options, trigger: "schedule" });
    await Promise.all(flood);

    expect(quiet.datajudRequests).toBe(2);
    expect(datajud.requests.length - sentBefore).toBe(2 + 12);
    expect(busy.datajudRequests).toBe(2);
  });
});
