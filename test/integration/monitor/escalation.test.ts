import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../../../src/cli/run-cli.js";
import { type MonitorHandles, openMonitor } from "../../../src/cli/runtime.js";
import { loadConfig } from "../../../src/config/load-config.js";
import { silentLogger } from "../../../src/log.js";
import { GetCaseHistoryOutput } from "../../../src/mcp/history-schemas.js";
import type { MonitorDeps } from "../../../src/mcp/monitor-deps.js";
import { getCaseHistory } from "../../../src/mcp/tools/get-case-history.js";
import { mailTick } from "../../../src/monitor/mail-tick.js";
import { queueDueEscalations } from "../../../src/monitor/report/escalate.js";
import { publicationAlert } from "../../../src/notify/outbox/messages.js";
import { emailEndpoints, queueMessage } from "../../../src/notify/outbox/queue.js";
import { recordAcknowledgement } from "../../../src/store/acknowledgements.js";
import { closeDatabase, immediate, openDatabase } from "../../../src/store/database.js";
import { escalationCounts, waitingEscalations } from "../../../src/store/escalations.js";
import { parseWatchlist, type Watchlist } from "../../../src/watchlist/parse-watchlist.js";
import { type FakeSlack, startFakeSlack } from "../../fakes/fake-chat.js";
import { FakeClock, fakeSystem } from "../../fakes/fake-clock.js";
import {
  type FakeWebhookReceiver,
  startFakeWebhookReceiver,
} from "../../fakes/fake-webhook-receiver.js";
import { ACK_BASE, ACK_SECRET, callServer, startAckServer } from "../../support/ack-http.js";
import { captureIo } from "../../support/cli-io.js";
import { queueChange } from "../../support/outbox-store.js";
import { sampleAlert } from "../../unit/notify/render/sample-alert.js";
import { samplePublication } from "../../unit/notify/render/sample-publication.js";

/*
 * Escalation through the one outbox, driven by the daemon's minute tick on a fake clock: an urgent
 * alert of a TJDFT case (Distrito Federal, São Paulo's clock: UTC-3) queued to ana@ with the chain
 * within 4 business hours, 09:00-18:00: socia@ (e-mail), then the firm's Slack channel "equipe".
 * Every expected instant is worked by hand on TJDFT's calendar.
 */

const SECRET = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;

/** São Paulo wall clock (UTC-3) as epoch ms. */
function local(month: number, day: number, hour: number, minute = 0): number {
  return Date.UTC(2026, month - 1, day, hour + 3, minute);
}

const WATCHLIST = `
defaults:
  notify: [ana@firma.com.br]
  escalation:
    within: 4
    chain: [ { watcher: socia@firma.com.br }, { endpoint: equipe } ]
cases:
  - number: "0713383-43.2025.8.07.0006"
    label: "Silva x Souza (despejo)"
`;

const CONFIG = `
schedule:
  startJitterSeconds: 0
mail:
  from: "Monitor <monitor@monitor.example.com>"
acknowledgement:
  publicBaseUrl: https://monitor.example.com
notify:
  endpoints:
    equipe: { channel: slack, urlVariable: SLACK_URL }
`;

let dir: string;
let clock: FakeClock;
let receiver: FakeWebhookReceiver;
let slack: FakeSlack;
let monitor: MonitorHandles;
let watchlist: Watchlist;

/** The daemon's environment: acknowledgement links on (publicBaseUrl and ACK_SECRET). */
function monitorEnv(): Record<string, string> {
  return {
    MONITOR_CONFIG: join(dir, "monitor.yaml"),
    MONITOR_WATCHLIST: join(dir, "watchlist.yaml"),
    MONITOR_DB: join(dir, "monitor.db"),
    MONITOR_OUTBOX_DIR: join(dir, "outbox"),
    DJEN_ENABLED: "false",
    DATAJUD_API_KEY: "unused-key",
    WEBHOOK_URL: receiver.url,
    WEBHOOK_SECRET: SECRET,
    SLACK_URL: slack.url,
    ACK_SECRET,
    MONITOR_LOG_LEVEL: "silent",
  };
}

async function open(): Promise<MonitorHandles> {
  const loaded = loadConfig({ cwd: dir, env: monitorEnv() });
  if (!loaded.ok) throw new Error(loaded.errors.join("\n"));
  return openMonitor(
    { config: loaded.config, secrets: loaded.secrets, logger: silentLogger() },
    { watchlist: () => watchlist, system: fakeSystem(clock) },
  );
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "escalation-"));
  clock = new FakeClock({ now: local(11, 27, 16) });
  receiver = await startFakeWebhookReceiver({
    secret: SECRET,
    nowSeconds: () => Math.floor(clock.now() / 1000),
  });
  slack = await startFakeSlack();
  writeFileSync(join(dir, "watchlist.yaml"), WATCHLIST);
  writeFileSync(join(dir, "monitor.yaml"), CONFIG);
  const parsed = parseWatchlist(WATCHLIST, join(dir, "watchlist.yaml"), {
    acknowledgement: true,
    endpoints: ["equipe"],
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  watchlist = parsed.watchlist;
  monitor = await open();
}, 60_000);

afterEach(async () => {
  await monitor?.close();
  await Promise.all([receiver?.close(), slack?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

/** The urgent alert, queued to ana@ as a sweep queues it, at the clock's instant. */
function queueUrgent(): void {
  queueChange(
    monitor.db,
    sampleAlert({ urgent: true, urgentReasons: ["regra urgente: sentença"] }),
    ["ana@firma.com.br"],
    new Date(clock.now()).toISOString(),
    monitor.mail.policy(),
  );
}

async function tickAt(ms: number): Promise<void> {
  clock.set(ms);
  await mailTick(monitor.mail);
}

function rows(): Array<{ channel: string; recipient: string; subject: string; status: string }> {
  return monitor.db
    .prepare("SELECT channel, recipient, subject, status FROM outbox ORDER BY id")
    .all() as Array<{ channel: string; recipient: string; subject: string; status: string }>;
}

function escalationRows(): Array<{ recipient: string; status: string; ackId: number | null }> {
  return monitor.db
    .prepare(
      "SELECT recipient, status, ack_id AS ackId FROM outbox WHERE message_type = 'escalation' ORDER BY id",
    )
    .all() as Array<{ recipient: string; status: string; ackId: number | null }>;
}

function steps(): Array<{ step: number; dueAt: string; dueBy: string; queuedAt: string | null }> {
  return monitor.db
    .prepare(
      "SELECT step, due_at AS dueAt, due_by AS dueBy, queued_at AS queuedAt FROM escalations ORDER BY step",
    )
    .all() as Array<{ step: number; dueAt: string; dueBy: string; queuedAt: string | null }>;
}

/** Each e-mail written, parsed: to, subject and text. */
async function emails(): Promise<Array<{ to: string; subject: string; text: string }>> {
  const out = join(dir, "outbox");
  const files = readdirSync(out).filter((f) => f.endsWith(".eml"));
  return Promise.all(
    files.map(async (f) => {
      const parsed = await simpleParser(readFileSync(join(out, f)));
      const to = Array.isArray(parsed.to) ? parsed.to[0]?.text : parsed.to?.text;
      return { to: to ?? "", subject: parsed.subject ?? "", text: parsed.text ?? "" };
    }),
  );
}

describe("escalation over a weekend", () => {
  it("tells the next watcher at Monday 11:00, once, and an acknowledgement stops the rest", async () => {
    queueUrgent();
    await tickAt(local(11, 27, 16, 1));
    // Fri 27/11/2026 16:00-18:00 = 2 h, the weekend without expediente, Mon 30/11 09:00 + 2 h
    // = 11:00 (14:00Z); step 2 at 8 h: Mon 11:00 + 4 h = 15:00 (18:00Z).
    expect(steps()).toEqual([
      { step: 1, dueAt: "2026-11-30T14:00:00.000Z", dueBy: "within", queuedAt: null },
      { step: 2, dueAt: "2026-11-30T18:00:00.000Z", dueBy: "within", queuedAt: null },
    ]);
    expect(escalationCounts(monitor.db, new Date(clock.now()).toISOString())).toEqual({
      waiting: 2,
      queued: 0,
      stopped: 0,
      expired: 0,
      unsent: 0,
      nextDueAt: "2026-11-30T14:00:00.000Z",
    });

    await tickAt(local(11, 28, 10)); // Saturday: nothing counts
    await tickAt(local(11, 30, 10, 59));
    expect(escalationRows()).toEqual([]);

    await tickAt(local(11, 30, 11));
    const [first] = escalationRows();
    expect(escalationRows()).toEqual([
      { recipient: "socia@firma.com.br", status: "sent", ackId: first?.ackId },
      { recipient: "webhook", status: "sent", ackId: null },
    ]);
    // The alert's own acknowledgement: anyone's stops the whole chain.
    const original = monitor.db
      .prepare("SELECT ack_id AS ackId FROM outbox WHERE recipient = 'ana@firma.com.br'")
      .get() as { ackId: number };
    expect(first?.ackId).toBe(original.ackId);
    // "enviado em" is when ana@'s copy went: the tick a minute after it was queued.
    const mail = (await emails()).find((m) => m.to === "socia@firma.com.br");
    expect(mail?.subject).toMatch(
      /^Escalonamento: sem ciência — \[datajud\] ⚠ URGENTE Silva x Souza/u,
    );
    expect(mail?.text).toMatch(
      /^Escalonamento \(passo 1 de 2\): este alerta urgente foi enviado em 27\/11\/2026 16:01 a ana@firma\.com\.br e ninguém confirmou ciência desde então\./u,
    );
    expect(mail?.text).toMatch(/https:\/\/monitor\.example\.com\/ack\/\d+\./u);
    expect(receiver.events).toContainEqual(
      expect.objectContaining({
        type: "alert.escalated",
        data: expect.objectContaining({
          step: 1,
          steps: 2,
          to: "socia@firma.com.br",
          firstTo: ["ana@firma.com.br"],
          dueBy: "within",
        }),
      }),
    );

    // Ticks after: the step is queued and sent once.
    await tickAt(local(11, 30, 11, 1));
    await tickAt(local(11, 30, 11, 2));
    expect(escalationRows()).toHaveLength(2);

    // socia@ presses the button of her e-mail's link at 12:00: step 2 (15:00) never goes.
    clock.set(local(11, 30, 12));
    const link = /https:\/\/monitor\.example\.com(\/ack\/\S+)/u.exec(mail?.text ?? "")?.[1] ?? "";
    const { server, port } = await startAckServer({
      db: monitor.db,
      clock,
      policy: () => monitor.mail.policy(),
    });
    try {
      expect((await callServer(port, "POST", link, { origin: ACK_BASE })).status).toBe(200);
    } finally {
      await server.close();
    }
    expect(
      monitor.db
        .prepare("SELECT acknowledged_by AS who FROM acknowledgements WHERE id = ?")
        .get(original.ackId),
    ).toEqual({ who: "socia@firma.com.br" });
    await tickAt(local(11, 30, 15));
    await tickAt(local(12, 1, 9));
    expect(escalationRows()).toHaveLength(2);
    expect(slack.messages).toEqual([]);
    expect(escalationCounts(monitor.db, new Date(clock.now()).toISOString())).toEqual({
      waiting: 0,
      queued: 1,
      stopped: 1,
      expired: 0,
      unsent: 0,
      nextDueAt: null,
    });
  });
});

describe("an alert held for its watcher's digest", () => {
  it("counts from the digest's hour, when it first goes out, not from when it was queued", async () => {
    const parsed = parseWatchlist(
      `${WATCHLIST}watchers:\n  - address: ana@firma.com.br\n    delivery: digest\n    digest_schedule: "0 18 * * 1-5"\n`,
      join(dir, "watchlist.yaml"),
      { acknowledgement: true, endpoints: ["equipe"] },
    );
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    watchlist = parsed.watchlist;
    clock.set(local(11, 27, 10));
    queueUrgent();
    await tickAt(local(11, 27, 10, 1));
    // Queued Fri 27/11/2026 10:00, in ana@'s 18:00 digest: nothing counts until it goes out, at
    // the window's end; Mon 30/11 09:00 + 4 h = 13:00 (16:00Z), not Fri 14:00. Step 2: 17:00.
    expect(steps().map((s) => s.dueAt)).toEqual([
      "2026-11-30T16:00:00.000Z",
      "2026-11-30T20:00:00.000Z",
    ]);
    await tickAt(local(11, 27, 14));
    expect(escalationRows()).toEqual([]);
    await tickAt(local(11, 27, 18)); // the digest goes
    await tickAt(local(11, 30, 13));
    const mail = (await emails()).find((m) => m.to === "socia@firma.com.br");
    expect(mail?.text).toMatch(
      /^Escalonamento \(passo 1 de 2\): este alerta urgente foi enviado em 27\/11\/2026 18:00 a ana@firma\.com\.br/u,
    );
  });
});

describe("a publication outside the watchlist", () => {
  it("takes the defaults' chain on its court's calendar, and its last day bounds every step", async () => {
    const content = samplePublication({
      outsideWatchlist: true,
      watchedCase: null,
      caseNumber: "0700001-00.2026.8.07.0001",
      urgent: true,
      lastDay: "2026-11-30",
    });
    immediate(monitor.db, () =>
      queueMessage(
        {
          db: monitor.db,
          domain: monitor.mail.domain,
          at: new Date(clock.now()),
          policy: monitor.mail.policy(),
        },
        publicationAlert(content, null),
        emailEndpoints(["ana@firma.com.br"]),
      ),
    );
    await tickAt(local(11, 27, 16, 1));
    // Within 4 h would be Mon 30/11 11:00 and 15:00; the last day is Mon 30/11 itself, so both
    // steps are due at its opening, 09:00 (12:00Z): never later than the last day.
    expect(steps().map((s) => [s.dueAt, s.dueBy])).toEqual([
      ["2026-11-30T12:00:00.000Z", "last-day"],
      ["2026-11-30T12:00:00.000Z", "last-day"],
    ]);
    await tickAt(local(11, 30, 9));
    expect(escalationRows().map((r) => r.recipient)).toEqual([
      "socia@firma.com.br",
      "webhook",
      "equipe",
      "webhook",
    ]);
    const mail = (await emails()).find((m) => m.to === "socia@firma.com.br");
    expect(mail?.text).toContain("Último dia do prazo: 30/11/2026, estimativa");
  });
});

describe("a step whose endpoint left the configuration", () => {
  it("is marked with why it sent nothing, counted apart in status and told in history", async () => {
    const parsed = parseWatchlist(
      WATCHLIST.replace("{ endpoint: equipe }", "{ endpoint: plantao }"),
      join(dir, "watchlist.yaml"),
      { acknowledgement: true },
    );
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    watchlist = parsed.watchlist;
    queueUrgent();
    await tickAt(local(11, 27, 16, 1));
    await tickAt(local(11, 30, 15));
    expect(escalationRows().map((r) => r.recipient)).toEqual(["socia@firma.com.br", "webhook"]);
    expect(escalationCounts(monitor.db, new Date(clock.now()).toISOString())).toMatchObject({
      queued: 1,
      unsent: 1,
      waiting: 0,
    });
    const run = async (argv: string[]) => {
      const io = captureIo(monitorEnv(), dir, argv, clock);
      await runCli(io);
      return io.out();
    };
    expect(await run(["status"])).toContain(
      "escalation steps: 0 waiting, 1 sent, 0 stopped by an acknowledgement, 0 expired unacknowledged, 1 NOT sent (endpoint gone: monitor history says which)",
    );
    expect(await run(["history", "0713383-43.2025.8.07.0006"])).toContain(
      'escalation step 2 to plantao not sent: endpoint "plantao" is no longer in the configuration (notify.endpoints)',
    );
  });
});

describe("escalation over a holiday", () => {
  it("skips 20/11 and goes on to the firm's channel when nobody acknowledges", async () => {
    clock.set(local(11, 19, 15));
    queueUrgent();
    await tickAt(local(11, 19, 15, 1));
    // Thu 19/11/2026 15:00-18:00 = 3 h; Fri 20/11 Dia Nacional de Zumbi e da Consciência Negra
    // (Lei 14.759/2023), the weekend; Mon 23/11 09:00 + 1 h = 10:00 (13:00Z). Step 2: + 4 h = 14:00.
    expect(steps().map((s) => s.dueAt)).toEqual([
      "2026-11-23T13:00:00.000Z",
      "2026-11-23T17:00:00.000Z",
    ]);
    await tickAt(local(11, 20, 12));
    expect(escalationRows()).toEqual([]);
    await tickAt(local(11, 23, 10));
    expect(escalationRows().map((r) => r.recipient)).toEqual(["socia@firma.com.br", "webhook"]);
    await tickAt(local(11, 23, 14));
    expect(escalationRows().map((r) => r.recipient)).toEqual([
      "socia@firma.com.br",
      "webhook",
      "equipe",
      "webhook",
    ]);
    expect(slack.messages).toHaveLength(1);
    const text = slack.messages[0]?.text ?? "";
    expect(text).toContain("Sem ciência");
    expect(text).toContain("passo 2 de 2");
    // The channel's row asks for the alert's own acknowledgement (its button); webhooks none.
    const [socia, , equipe, hook] = escalationRows();
    expect(socia?.ackId).not.toBeNull();
    expect(equipe?.ackId).toBe(socia?.ackId);
    expect(hook?.ackId).toBeNull();
    expect(rows().filter((r) => r.status !== "sent")).toEqual([]);
  });
});

describe("what status, history and get_case_history tell", () => {
  it("the steps waiting, sent and stopped, each in the case's timeline", async () => {
    queueUrgent();
    await tickAt(local(11, 27, 16, 1));
    await tickAt(local(11, 30, 11));
    clock.set(local(11, 30, 11, 30));
    const env = monitorEnv();
    const run = async (argv: string[]) => {
      const io = captureIo(env, dir, argv, clock);
      const code = await runCli(io);
      return { code, out: io.out(), err: io.err() };
    };

    const status = await run(["status"]);
    expect(status.out).toContain(
      "escalation steps: 1 waiting, 1 sent, 0 stopped by an acknowledgement, 0 expired unacknowledged; next due",
    );
    expect(status.out).toMatch(/\n {2}30\/11\/2026 15:00\S* step 2 to equipe: \[datajud\]/u);
    const json = JSON.parse((await run(["status", "--json"])).out) as {
      escalations: { waiting: number; sent: number; nextDueAt: string };
    };
    expect(json.escalations).toMatchObject({
      waiting: 1,
      sent: 1,
      stopped: 0,
      nextDueAt: "2026-11-30T18:00:00.000Z",
    });

    recordAcknowledgement(monitor.db, 1, {
      who: "socia@firma.com.br",
      at: new Date(local(11, 30, 12)).toISOString(),
    });
    clock.set(local(11, 30, 16));
    const history = await run(["history", "0713383-43.2025.8.07.0006"]);
    expect(history.out).toContain("escalated: step 1 to socia@firma.com.br");
    expect(history.out).toMatch(
      /escalation step 2 to equipe stopped: acknowledged before it was due \(30\/11\/2026 15:00/u,
    );
    const facts = [
      {
        step: 1,
        to: "socia@firma.com.br",
        toKind: "watcher",
        dueAt: "2026-11-30T14:00:00.000Z",
        dueBy: "within",
        queuedAt: "2026-11-30T14:00:00.000Z",
        problem: null,
        acknowledgedAt: "2026-11-30T15:00:00.000Z",
      },
      {
        step: 2,
        to: "equipe",
        toKind: "endpoint",
        dueAt: "2026-11-30T18:00:00.000Z",
        queuedAt: null,
        acknowledgedAt: "2026-11-30T15:00:00.000Z",
      },
    ];
    const historyJson = JSON.parse(
      (await run(["history", "0713383-43.2025.8.07.0006", "--json"])).out,
    ) as { cases: Array<{ escalations: unknown[] }> };
    expect(historyJson.cases[0]?.escalations).toEqual(facts.map((f) => expect.objectContaining(f)));
    const deps = { database: () => monitor.db } as unknown as MonitorDeps;
    const mcp = getCaseHistory(deps, {
      cnjNumber: "0713383-43.2025.8.07.0006",
      offset: 0,
      limit: 5,
    });
    expect(GetCaseHistoryOutput.parse(mcp).escalations).toEqual(
      facts.map((f) => expect.objectContaining(f)),
    );
  });
});

describe("without acknowledgement links", () => {
  it("validate and run-once refuse the chain at its line and column", async () => {
    // publicBaseUrl without ACK_SECRET: acknowledgement links are off.
    const env = Object.fromEntries(
      Object.entries({ ...monitorEnv(), MONITOR_DB: join(dir, "other.db") }).filter(
        ([name]) => name !== "ACK_SECRET",
      ),
    );
    const where = `${join(dir, "watchlist.yaml")}:4:3`;
    for (const command of ["validate", "run-once"]) {
      const io = captureIo(env, dir, [command], clock);
      expect(await runCli(io)).toBe(2);
      expect(io.err()).toContain(
        `${where} escalation needs acknowledgement links, which are off (nothing could stop the chain): set acknowledgement.publicBaseUrl in the configuration and ACK_SECRET in the environment`,
      );
    }
  });
});

describe("a chain naming an endpoint the configuration lacks", () => {
  it("validate and run-once refuse it at its line and column, before any step could be due", async () => {
    // A typo ("plantao" for a channel never configured) used to pass run-once and the daemon's
    // start: the step was found to reach nobody only when it fell due, as "NOT sent" in status.
    writeFileSync(
      join(dir, "watchlist.yaml"),
      WATCHLIST.replace("{ endpoint: equipe }", "{ endpoint: plantao }"),
    );
    const env = { ...monitorEnv(), MONITOR_DB: join(dir, "other.db") };
    for (const command of ["validate", "run-once"]) {
      const io = captureIo(env, dir, [command], clock);
      expect(await runCli(io)).toBe(2);
      expect(io.err()).toMatch(
        /watchlist\.yaml:6:\d+ .*no endpoint "plantao" in the configuration/u,
      );
    }
  });
});

describe("exactly once across a crash", () => {
  it("a step whose transaction dies is queued by the next process, once", async () => {
    queueUrgent();
    await tickAt(local(11, 27, 16, 1));
    clock.set(local(11, 30, 11));
    // The process dies inside the step's transaction (the first outbox row's insert): neither the
    // step's mark nor any row of it is kept.
    monitor.db.exec(
      "CREATE TEMP TRIGGER die BEFORE INSERT ON outbox WHEN NEW.message_type = 'escalation' BEGIN SELECT RAISE(ABORT, 'killed'); END;",
    );
    expect(() => queueDueEscalations(monitor.mail, new Date(clock.now()))).toThrow(/killed/u);
    expect(steps()[0]?.queuedAt).toBeNull();
    expect(escalationRows()).toEqual([]);
    await monitor.close();

    // A new process: the step is queued and sent once.
    monitor = await open();
    await tickAt(local(11, 30, 11, 1));
    expect(escalationRows().map((r) => [r.recipient, r.status])).toEqual([
      ["socia@firma.com.br", "sent"],
      ["webhook", "sent"],
    ]);
  });

  it("a step committed but not sent when the process dies is sent by the next, once", async () => {
    queueUrgent();
    await tickAt(local(11, 27, 16, 1));
    clock.set(local(11, 30, 11));
    queueDueEscalations(monitor.mail, new Date(clock.now()));
    expect(escalationRows().map((r) => r.status)).toEqual(["pending", "pending"]);
    // Killed before any send: the database as it was committed is all a new process sees.
    await monitor.close();
    const db = openDatabase(join(dir, "monitor.db"));
    expect(
      db.prepare("SELECT COUNT(*) AS n FROM escalations WHERE queued_at IS NOT NULL").get(),
    ).toEqual({ n: 1 });
    closeDatabase(db);

    monitor = await open();
    await tickAt(local(11, 30, 11, 1));
    await tickAt(local(11, 30, 11, 2));
    expect(escalationRows().map((r) => [r.recipient, r.status])).toEqual([
      ["socia@firma.com.br", "sent"],
      ["webhook", "sent"],
    ]);
    expect((await emails()).filter((m) => m.to === "socia@firma.com.br")).toHaveLength(1);
    expect(waitingEscalations(monitor.db, new Date(clock.now()).toISOString(), 5)).toEqual([
      expect.objectContaining({ step: 2, target: "equipe", queuedAt: null }),
    ]);
  });
});
