import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MonitorHandles, openMonitor } from "../../../src/cli/runtime.js";
import { loadConfig } from "../../../src/config/load-config.js";
import { silentLogger } from "../../../src/log.js";
import { mailTick } from "../../../src/monitor/mail-tick.js";
import { runSweep } from "../../../src/monitor/sweep.js";
import { parseWatchlist, type Watchlist } from "../../../src/watchlist/parse-watchlist.js";
import {
  type FakeSlack,
  type FakeTeams,
  startFakeSlack,
  startFakeTeams,
} from "../../fakes/fake-chat.js";
import { FakeClock, fakeSystem } from "../../fakes/fake-clock.js";
import type { FakeDataJud } from "../../fakes/fake-datajud.js";
import {
  type FakeWebhookReceiver,
  startFakeWebhookReceiver,
} from "../../fakes/fake-webhook-receiver.js";
import { fixtureDoc, n, startDataJud } from "../../support/cli-harness.js";

/*
 * The daemon's minute tick delivers every channel, not only e-mail: with no e-mail watcher at all
 * (the case routes to a webhook, a Slack digest and a Teams channel under quiet hours), a change
 * found at 23:00 in São Paulo reaches the webhook on the tick after its 503 (no sweep between),
 * Teams at 07:00 when quiet hours end and Slack in its 08:00 digest. Before, the tick returned
 * unless an e-mail was due, and all three waited for the next sweep.
 */

const SECRET = `whsec_${Buffer.alloc(32, 5).toString("base64")}`;
const CASE = n.tjdftDespejo;

/** São Paulo local time (UTC-3) on 3 and 4 March 2026 as epoch ms. */
function local(day: number, hour: number, minute = 0): number {
  return Date.UTC(2026, 2, day, hour + 3, minute);
}

const WATCHLIST = `
defaults:
  channels: [equipe, gestao]
cases:
  - number: "${CASE}"
    label: "Despejo"
`;

const CONFIG = `
schedule:
  startJitterSeconds: 0
mail:
  from: "Monitor <monitor@monitor.example.com>"
  quietHours: { start: "22:00", end: "07:00" }
notify:
  endpoints:
    equipe: { channel: slack, urlVariable: SLACK_URL, delivery: digest, digestSchedule: "0 8 * * *" }
    gestao: { channel: teams, urlVariable: TEAMS_URL }
`;

const clock = new FakeClock({ now: local(3, 22) });
let dir: string;
let datajud: FakeDataJud;
let receiver: FakeWebhookReceiver;
let slack: FakeSlack;
let teams: FakeTeams;
let monitor: MonitorHandles;
let watchlist: Watchlist;

async function sweepAt(ms: number): Promise<void> {
  clock.set(ms);
  await runSweep(monitor.sweep, {
    watchlist: watchlist.cases,
    force: false,
    dryRun: false,
    trigger: "schedule",
  });
}

async function tickAt(ms: number): Promise<void> {
  clock.set(ms);
  await mailTick(monitor.mail);
}

function pending(): Array<{ channel: string; status: string }> {
  return monitor.db.prepare("SELECT channel, status FROM outbox ORDER BY id").all() as Array<{
    channel: string;
    status: string;
  }>;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "delivery-tick-"));
  datajud = await startDataJud("tick-key");
  receiver = await startFakeWebhookReceiver({
    secret: SECRET,
    nowSeconds: () => Math.floor(clock.now() / 1000),
  });
  slack = await startFakeSlack();
  teams = await startFakeTeams();
  writeFileSync(join(dir, "watchlist.yaml"), WATCHLIST);
  writeFileSync(join(dir, "monitor.yaml"), CONFIG);
  const parsed = parseWatchlist(WATCHLIST, join(dir, "watchlist.yaml"));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  watchlist = parsed.watchlist;
  const loaded = loadConfig({
    cwd: dir,
    env: {
      MONITOR_CONFIG: join(dir, "monitor.yaml"),
      MONITOR_WATCHLIST: join(dir, "watchlist.yaml"),
      MONITOR_DB: join(dir, "monitor.db"),
      MONITOR_OUTBOX_DIR: join(dir, "outbox"),
      DATAJUD_BASE_URL: datajud.url,
      DJEN_ENABLED: "false",
      DATAJUD_API_KEY: datajud.apiKey,
      DATAJUD_MAX_ATTEMPTS: "1",
      WEBHOOK_URL: receiver.url,
      WEBHOOK_SECRET: SECRET,
      SLACK_URL: slack.url,
      TEAMS_URL: teams.url,
      MONITOR_LOG_LEVEL: "silent",
    },
  });
  if (!loaded.ok) throw new Error(loaded.errors.join("\n"));
  monitor = await openMonitor(
    { config: loaded.config, secrets: loaded.secrets, logger: silentLogger() },
    { watchlist: () => watchlist, system: fakeSystem(clock) },
  );
}, 60_000);

afterAll(async () => {
  await monitor?.close();
  await Promise.all([datajud?.close(), receiver?.close(), slack?.close(), teams?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

describe("the minute tick, with no e-mail in the outbox", () => {
  it("delivers a webhook retry, a quiet-hours release and a chat digest, each on time, with no sweep", async () => {
    await sweepAt(local(3, 22)); // the baseline: nothing to tell
    const doc = fixtureDoc("tjdft", CASE);
    (doc._source.movimentos as unknown[]).push({
      codigo: 51,
      nome: "Conclusão",
      dataHora: "2026-03-03T22:30:00.000Z",
    });
    doc._source.dataHoraUltimaAtualizacao = "2026-03-03T22:30:00.000Z";
    datajud.upsert("tjdft", doc);
    receiver.script.push({ status: 503, body: "maintenance" });

    await sweepAt(local(3, 23));
    expect(pending()).toEqual([
      { channel: "webhook", status: "pending" },
      { channel: "slack", status: "pending" },
      { channel: "teams", status: "pending" },
    ]);
    expect(receiver.requests).toHaveLength(1); // the 503
    expect(receiver.events).toEqual([]);

    // The retry is due a minute after the 503: the next tick sends it.
    await tickAt(local(3, 23, 2));
    expect((receiver.events as Array<{ type: string }>).map((e) => e.type)).toEqual([
      "case.movement",
    ]);
    expect(teams.requests).toHaveLength(0);
    expect(slack.requests).toHaveLength(0);

    // Quiet hours hold Teams until 07:00; the Slack digest goes at 08:00.
    await tickAt(local(4, 6, 59));
    expect(teams.requests).toHaveLength(0);
    await tickAt(local(4, 7));
    expect(teams.requests).toHaveLength(1);
    expect(slack.requests).toHaveLength(0);
    await tickAt(local(4, 7, 59));
    expect(slack.requests).toHaveLength(0);
    await tickAt(local(4, 8));
    expect(slack.messages).toHaveLength(1);

    expect(pending()).toEqual([
      { channel: "webhook", status: "sent" },
      { channel: "slack", status: "sent" },
      { channel: "teams", status: "sent" },
    ]);
    expect(receiver.events).toHaveLength(1);
    expect(teams.requests).toHaveLength(1);
  }, 60_000);
});
