import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DaemonSweeps, startDaemonSweeps } from "../../../src/cli/daemon-sweeps.js";
import { type MonitorHandles, openMonitor } from "../../../src/cli/runtime.js";
import { loadConfig } from "../../../src/config/load-config.js";
import { silentLogger } from "../../../src/log.js";
import { loadWatchlist, type Watchlist } from "../../../src/watchlist/parse-watchlist.js";
import { FakeClock, fakeSystem } from "../../fakes/fake-clock.js";
import type { FakeDataJud } from "../../fakes/fake-datajud.js";
import { djenItem, type FakeDjen, startFakeDjen } from "../../fakes/fake-djen.js";
import {
  baseEnv,
  moveCase,
  n,
  query,
  startDataJud,
  type Workspace,
  workspace,
} from "../../support/cli-harness.js";
import { waitFor } from "../../support/wait-for.js";

/*
 * The daemon with DJEN on, in this process on a fake clock: its sweeps (daemon-sweeps.ts, what the
 * scheduler runs at the default cron's 07:00, 12:00 and 17:00) and its DJEN asking between
 * sweeps, against the fake DataJud and the loopback fake DJEN. A DataJud change and a DJEN publication each queue their
 * alert once, and DJEN is asked between sweeps only about sources that are due.
 */

const HOUR = 3_600_000;
/** Monday 6 October 2025, 06:00 in São Paulo (UTC-3). */
const MONDAY_6 = Date.UTC(2025, 9, 6, 9);
const despejo = n.tjdftDespejo;
const previdenciario = n.trf1Previdenciario;
const digits = (formatted: string): string => formatted.replace(/\D/g, "");

let datajud: FakeDataJud;
let djen: FakeDjen;
let ws: Workspace;
let monitor: MonitorHandles;
let daemon: DaemonSweeps;
let sweeps = 0;
const clock = new FakeClock({ now: MONDAY_6 });

/** DJEN requests so far, by the case number they asked for. */
function djenAsked(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of djen.requests) {
    const key = r.params.numeroProcesso ?? r.params.numeroOab ?? "?";
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** Moves the clock to `ms` and waits for what it woke to settle (real I/O included). */
async function advanceTo(ms: number, settled: () => boolean, what: string): Promise<void> {
  await clock.advance(ms - clock.now());
  await waitFor(settled, what);
}

/** The scheduler's tick at `ms`, as croner would start it. */
async function sweepAt(ms: number): Promise<void> {
  await clock.advance(ms - clock.now());
  await daemon.tick(new AbortController().signal);
  sweeps++;
}

/** Each queued alert by what it is about: a DataJud change, or a DJEN publication. */
function outbox(): string[] {
  return query<{ dedupeKey: string }>(
    ws,
    "SELECT dedupe_key AS dedupeKey FROM outbox ORDER BY id",
  ).map((r) => r.dedupeKey.split(":").slice(0, 2).join(":"));
}

beforeAll(async () => {
  datajud = await startDataJud("daemon-djen-key");
  djen = await startFakeDjen();
  ws = workspace("daemon-djen-", [despejo, previdenciario]);
  const config = join(ws.dir, "monitor.yaml");
  writeFileSync(config, "schedule:\n  startJitterSeconds: 0\n");
  const env = baseEnv(ws, datajud, {
    MONITOR_CONFIG: config,
    DJEN_ENABLED: "true",
    DJEN_BASE_URL: djen.url,
  });
  const loaded = loadConfig({ cwd: ws.dir, env });
  if (!loaded.ok) throw new Error(loaded.errors.join("\n"));
  const read = await loadWatchlist(ws.watchlistPath);
  if (!read.ok) throw new Error("watchlist");
  const watchlist: Watchlist = read.watchlist;
  const runtime = { config: loaded.config, secrets: loaded.secrets, logger: silentLogger() };
  monitor = await openMonitor(runtime, { watchlist: () => watchlist, system: fakeSystem(clock) });
  daemon = startDaemonSweeps(monitor, () => watchlist, silentLogger());
}, 30_000);

afterAll(async () => {
  await daemon?.stop();
  await monitor?.close();
  await djen?.close();
  await datajud?.close();
});

describe("the daemon with DJEN on", () => {
  it("queues a DataJud change and a DJEN publication once each, asking DJEN only what is due", async () => {
    // 06:00: neither number has answered DJEN yet: both are asked at once, between sweeps.
    await waitFor(() => Object.keys(djenAsked()).length === 2, "DJEN's first look");
    const first = djenAsked();
    // 07:00: the first sweep (DataJud's baseline); DJEN's sources are not due until 14:00.
    await sweepAt(MONDAY_6 + HOUR);
    moveCase(datajud, "tjdft", despejo);
    djen.add(djenItem({ id: 7001, caseNumber: digits(previdenciario), date: "2025-10-06" }));
    // 12:00: DataJud's change is found and queued; DJEN is still not due.
    await sweepAt(MONDAY_6 + 6 * HOUR);
    const atNoon = djenAsked();
    const afterNoon = outbox();
    // 14:00 (8 h after the first look): both are due; the publication is found and queued.
    await advanceTo(
      MONDAY_6 + 8 * HOUR + 60_000,
      () => outbox().length > afterNoon.length,
      "the publication's alert",
    );
    // 17:00: a sweep with nothing new and nothing due at DJEN.
    await sweepAt(MONDAY_6 + 11 * HOUR);

    expect(sweeps).toBe(3);
    expect(first).toEqual({ [digits(despejo)]: 1, [digits(previdenciario)]: 1 });
    expect(atNoon).toEqual(first);
    expect(djenAsked()).toEqual({ [digits(despejo)]: 2, [digits(previdenciario)]: 2 });
    // Each alert once, for Ana: the change at 12:00, the publication at 14:00; the 17:00 sweep
    // queued neither again.
    expect(afterNoon).toEqual(["alert:1"]);
    expect(outbox()).toEqual(["alert:1", "publication:7001"]);
    expect(query(ws, "SELECT DISTINCT recipient FROM outbox")).toEqual([
      { recipient: "ana@example.com" },
    ]);
  }, 20_000);
});
