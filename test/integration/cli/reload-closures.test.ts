import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reloadClosures } from "../../../src/cli/reload-closures.js";
import { type MonitorHandles, openMonitor, type Runtime } from "../../../src/cli/runtime.js";
import { loadConfig } from "../../../src/config/load-config.js";
import { silentLogger } from "../../../src/log.js";
import { parseWatchlist } from "../../../src/watchlist/parse-watchlist.js";
import { fakeSystem } from "../../fakes/fake-clock.js";
import { closedPort } from "../../support/closed-port.js";
import { makeTempDir } from "../../support/temp-dir.js";

/*
 * The daemon's SIGHUP reads calendar.closures again: the calendars the sweep's report phase, the
 * calendar feed and the MCP tools date estimates with take the new closures at their next use,
 * without a restart; an invalid edit leaves the closures in force.
 */

const SUSPENSION = `calendar:
  closures:
    - court: tjdft
      from: "2026-03-10"
      to: "2026-03-11"
      effect: suspended
      reason: "suspensão de prazos: PJe indisponível"
      source: "Portaria GPR 12/2026"
`;

let dir: string;
let env: Record<string, string>;
let monitor: MonitorHandles;
const messages: string[] = [];
const logger = {
  info: (_: unknown, message?: string) => messages.push(`info ${message ?? ""}`),
  error: (_: unknown, message?: string) => messages.push(`error ${message ?? ""}`),
};

beforeAll(async () => {
  dir = makeTempDir("reload-closures-");
  const text = 'cases:\n  - number: "0713383-43.2025.8.07.0006"\n';
  writeFileSync(join(dir, "watchlist.yaml"), text);
  writeFileSync(join(dir, "monitor.yaml"), "calendar:\n  closures: []\n");
  const parsed = parseWatchlist(text, join(dir, "watchlist.yaml"));
  if (!parsed.ok) throw new Error("bad watchlist");
  env = {
    MONITOR_CONFIG: join(dir, "monitor.yaml"),
    MONITOR_WATCHLIST: join(dir, "watchlist.yaml"),
    MONITOR_DB: join(dir, "monitor.db"),
    DATAJUD_BASE_URL: `http://127.0.0.1:${await closedPort()}`,
    DATAJUD_API_KEY: "unused",
    DJEN_ENABLED: "false",
  };
  const loaded = loadConfig({ cwd: dir, env });
  if (!loaded.ok) throw new Error(loaded.errors.join("\n"));
  const runtime: Runtime = { config: loaded.config, secrets: [], logger: silentLogger() };
  monitor = await openMonitor(runtime, { watchlist: () => parsed.watchlist, system: fakeSystem() });
});

afterAll(async () => {
  await monitor?.close();
});

/** Whether deadlines run on `date` at the TJDFT, as the sweep's report phase dates them. */
function suspended(date: string): boolean[] {
  const place = { court: "tjdft" };
  const sweep = monitor.mail.calendars?.(place).dayStatus(date).countingSuspended ?? false;
  return [monitor.calendars(place).dayStatus(date).countingSuspended, sweep];
}

describe("SIGHUP and calendar.closures", () => {
  it("puts an added closure in force for every estimate from then on", () => {
    expect(suspended("2026-03-10")).toEqual([false, false]);

    writeFileSync(join(dir, "monitor.yaml"), SUSPENSION);
    const reloaded = reloadClosures({ env, cwd: dir }, monitor, logger);

    expect(reloaded).toBe(true);
    expect(suspended("2026-03-10")).toEqual([true, true]);
    expect(suspended("2026-03-12")).toEqual([false, false]);
    expect(monitor.calendars({ court: "tjdft" }).considered(2026).note).toContain(
      "suspensão de prazos: PJe indisponível (Portaria GPR 12/2026)",
    );
    expect(messages.at(-1)).toMatch(/^info calendar\.closures reloaded/u);
  });

  it("keeps the closures in force when the edit is invalid, and says so", () => {
    writeFileSync(
      join(dir, "monitor.yaml"),
      SUSPENSION.replace('to: "2026-03-11"', 'to: "2026-02-30"'),
    );

    expect(reloadClosures({ env, cwd: dir }, monitor, logger)).toBe(false);
    expect(suspended("2026-03-10")).toEqual([true, true]);
    expect(messages.at(-1)).toMatch(/^error configuration edit is invalid/u);
  });
});
