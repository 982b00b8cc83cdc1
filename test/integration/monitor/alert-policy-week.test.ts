import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ParsedMail, simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MonitorHandles, openMonitor, type Runtime } from "../../../src/cli/runtime.js";
import { readStatus, type StatusView } from "../../../src/cli/status.js";
import { loadConfig } from "../../../src/config/load-config.js";
import { silentLogger } from "../../../src/log.js";
import { mailTick } from "../../../src/monitor/mail-tick.js";
import { runSweep } from "../../../src/monitor/sweep.js";
import { parseWatchlist, type Watchlist } from "../../../src/watchlist/parse-watchlist.js";
import { FakeClock, fakeSystem } from "../../fakes/fake-clock.js";
import type { FakeDataJud } from "../../fakes/fake-datajud.js";
import { type SmtpSink, startSmtpSink } from "../../fakes/smtp-sink.js";
import { cliInProcess, fixtureDoc, n, startDataJud } from "../../support/cli-harness.js";

/*
 * The alert policy's acceptance test: one scripted week (Monday 2 to Sunday 8 March 2026,
 * America/Sao_Paulo) of sweeps at 07:00, 12:00 and 17:00 on weekdays against the fake DataJud,
 * with the daemon's mail tick every five minutes in between, and a watchlist with ignore and
 * urgent rules, a muted case, a digest watcher with a status report, and quiet hours. It asserts
 * every e-mail that went out, to whom and at what time, and that nothing else did.
 */

const MINUTE = 60_000;
const TICK = 5 * MINUTE;
const ANA = "ana@example.com";
const RUI = "rui@example.com";
const ADMIN = "ti@example.com";

const despejo = n.tjdftDespejo; // tjdft, Ana only
const reclamacao = n.trt2Reclamacao; // trt2, Ana only, muted through Wednesday
const previdenciario = n.trf1Previdenciario; // trf1, Ana (instant) and Rui (digest)

const WATCHLIST = `
defaults:
  notify: [${ANA}]
  ignore: [juntada, "mero expediente"]
  urgent: [219, "trânsito em julgado"]
cases:
  - number: "${despejo}"
    label: "Despejo"
  - number: "${reclamacao}"
    label: "Reclamação"
    muted_until: 2026-03-04
  - number: "${previdenciario}"
    label: "Previdenciário"
    notify: [${RUI}]
watchers:
  - address: ${RUI}
    delivery: digest
    digest_schedule: "0 18 * * 1-5"
    status_report: "0 16 * * 5"
`;

const CONFIG = `
schedule:
  startJitterSeconds: 0
mail:
  from: "Monitor <monitor@monitor.example.com>"
  admin: ${ADMIN}
  quietHours: { start: "19:00", end: "07:30" }
  urgentBypassesQuietHours: true
  healthAfterFailedSweeps: 3
`;

/** São Paulo local time (UTC-3) of the scripted week as epoch ms. */
function local(day: number, hour: number, minute = 0): number {
  return Date.UTC(2026, 2, day, hour + 3, minute);
}

function at(ms: number): string {
  const d = new Date(ms - 3 * 60 * MINUTE);
  const pad = (v: number): string => String(v).padStart(2, "0");
  const days = ["dom", "seg", "ter", "qua", "qui", "sex", "sáb"];
  return `${days[d.getUTCDay()]} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

const ALIASES = { [despejo]: "tjdft", [reclamacao]: "trt2", [previdenciario]: "trf1" } as const;

let dir: string;
let datajud: FakeDataJud;
let sink: SmtpSink;
let monitor: MonitorHandles;
let runtime: Runtime;
let watchlist: Watchlist;
let env: Record<string, string>;
const clock = new FakeClock({ now: local(2, 0) });
/** Movements added so far per case, so each new one keeps the earlier ones. */
const added = new Map<string, Array<Record<string, unknown>>>();
/** Simulated time at which each accepted message arrived at the sink. */
const arrivals: number[] = [];
/** `monitor status` as read at some moments of the week. */
const statusAt = new Map<number, StatusView>();
const STATUS_MOMENTS = [local(3, 7, 5), local(6, 7, 5)];

function move(formatted: string, name: string, code: number, dayHour: [number, number]): void {
  const alias = ALIASES[formatted];
  if (alias === undefined) throw new Error(`no court for ${formatted}`);
  const list = added.get(formatted) ?? [];
  // As DataJud stamps them: the court's wall clock, labelled Z.
  const stamp = `${new Date(local(...dayHour) - 3 * 60 * MINUTE).toISOString().slice(0, 19)}.000Z`;
  list.push({ codigo: code, nome: name, dataHora: stamp });
  added.set(formatted, list);
  const doc = fixtureDoc(alias, formatted);
  (doc._source.movimentos as unknown[]).push(...list);
  doc._source.dataHoraUltimaAtualizacao = stamp;
  datajud.upsert(alias, doc);
}

/** What happens in DataJud just before the sweep at (day, hour). */
const SCRIPT: Record<string, () => void> = {
  "2 12": () => {
    move(despejo, "Juntada de Petição", 85, [2, 10]); // ignored: nothing sent
    move(reclamacao, "Decisão", 3, [2, 11]); // muted: nothing sent
  },
  "3 7": () => move(despejo, "Conclusão", 51, [3, 6]), // quiet hours: Ana at 07:30
  "3 12": () => move(previdenciario, "Expedição de documento", 60, [3, 11]),
  "3 17": () => move(previdenciario, "Conclusão", 51, [3, 16]),
  "4 7": () => move(reclamacao, "Audiência designada", 970, [4, 6]), // still muted (Wednesday)
  "5 7": () => move(reclamacao, "Procedência", 219, [5, 6]), // urgent: bypasses quiet hours
  "5 12": () => {
    datajud.failAlways({ status: 503 });
    move(previdenciario, "Juntada de Petição", 85, [5, 10]);
    move(previdenciario, "Despacho", 11009, [5, 11]);
  },
  "6 12": () => datajud.failAlways(null),
  "6 17": () => {
    move(despejo, "Juntada de Petição", 85, [6, 15]);
    move(despejo, "Mero expediente", 11010, [6, 16]);
  },
};

const SWEEP_HOURS = [7, 12, 17];

async function sweep(): Promise<void> {
  // The monitor runs on `clock` (fakeSystem): the sweep, its mail and the ticks in between.
  await runSweep(monitor.sweep, {
    watchlist: watchlist.cases,
    force: false,
    dryRun: false,
    trigger: "schedule",
  });
}

function noteArrivals(): void {
  while (arrivals.length < sink.messages.length) arrivals.push(clock.now());
}

async function runWeek(): Promise<void> {
  for (let t = local(2, 0); t < local(9, 0); t += TICK) {
    clock.set(t);
    const d = new Date(t - 3 * 60 * MINUTE);
    const weekday = d.getUTCDay() >= 1 && d.getUTCDay() <= 5;
    if (weekday && d.getUTCMinutes() === 0 && SWEEP_HOURS.includes(d.getUTCHours())) {
      SCRIPT[`${d.getUTCDate()} ${d.getUTCHours()}`]?.();
      await sweep();
      noteArrivals();
    }
    await mailTick(monitor.mail);
    noteArrivals();
    if (STATUS_MOMENTS.includes(t)) {
      statusAt.set(
        t,
        readStatus(monitor.db, { watchlist, now: new Date(t), timezone: "America/Sao_Paulo" }),
      );
    }
  }
}

interface Mail {
  at: string;
  to: string;
  subject: string;
  text: string;
}

let mails: Mail[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "monitor-week-"));
  datajud = await startDataJud("week-key");
  sink = await startSmtpSink();
  writeFileSync(join(dir, "watchlist.yaml"), WATCHLIST);
  writeFileSync(join(dir, "monitor.yaml"), CONFIG);
  const parsed = parseWatchlist(WATCHLIST, join(dir, "watchlist.yaml"));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  watchlist = parsed.watchlist;
  env = {
    MONITOR_CONFIG: join(dir, "monitor.yaml"),
    MONITOR_WATCHLIST: join(dir, "watchlist.yaml"),
    MONITOR_DB: join(dir, "monitor.db"),
    DATAJUD_BASE_URL: datajud.url,
    DJEN_ENABLED: "false",
    DATAJUD_API_KEY: datajud.apiKey,
    DATAJUD_MAX_ATTEMPTS: "1",
    DATAJUD_TIMEOUT_MS: "5000",
    DATAJUD_TOTAL_TIMEOUT_MS: "5000",
    SMTP_URL: sink.url(),
    MONITOR_LOG_LEVEL: "silent",
  };
  const loaded = loadConfig({ cwd: dir, env });
  if (!loaded.ok) throw new Error(loaded.errors.join("\n"));
  runtime = { config: loaded.config, secrets: loaded.secrets, logger: silentLogger() };
  monitor = await openMonitor(runtime, { watchlist: () => watchlist, system: fakeSystem(clock) });

  await runWeek();

  const parsedMails: ParsedMail[] = await Promise.all(
    sink.messages.map((m) => simpleParser(m.raw)),
  );
  mails = parsedMails.map((m, i) => ({
    at: at(arrivals[i] ?? 0),
    to: sink.messages[i]?.to.join(",") ?? "",
    subject: m.subject ?? "",
    text: typeof m.text === "string" ? m.text : "",
  }));
}, 120_000);

afterAll(async () => {
  await monitor?.close();
  await sink?.close();
  await datajud?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a scripted week of sweeps under the alert policy", () => {
  it("sends exactly the e-mails the rules say, at the times they say, and no others", () => {
    expect(mails.map((m) => `${m.at} ${m.to} ${m.subject}`)).toEqual([
      `ter 07:30 ${ANA} [datajud] Despejo: concluso para decisão (1 movimentação nova)`,
      `ter 12:00 ${ANA} [datajud] Previdenciário: concluso para decisão (1 movimentação nova)`,
      `ter 17:00 ${ANA} [datajud] Previdenciário: concluso para decisão (1 movimentação nova)`,
      `ter 18:00 ${RUI} [datajud] 1 processo com novidades`,
      `qui 07:00 ${ANA} [datajud] ⚠ URGENTE Reclamação: decidido (1 movimentação nova)`,
      `sex 07:00 ${ADMIN} [datajud] ⚠ DataJud did not answer in 3 sweeps in a row`,
      // Friday's despacho answers Tuesday's conclusão: no longer "concluso".
      `sex 12:00 ${ANA} [datajud] Previdenciário: em andamento (1 movimentação nova)`,
      `sex 12:00 ${ADMIN} [datajud] DataJud answers again`,
      `sex 16:00 ${RUI} [datajud] Relatório: 1 processo acompanhado`,
      `sex 18:00 ${RUI} [datajud] 1 processo com novidades`,
    ]);
  });

  it("lists both of Tuesday's movements of the digest watcher's case in one digest entry", () => {
    const digest = mails.find((m) => m.at === "ter 18:00");

    expect(digest?.text).toContain("Movimentações novas (2)");
    expect(digest?.text).toContain("Expedição de documento");
    expect(digest?.text).toContain("Conclusão");
  });

  it("shows the urgent movement, and leaves routine ones out of the list with a count", () => {
    const urgent = mails.find((m) => m.at === "qui 07:00");
    const friday = mails.find((m) => m.at === "sex 12:00" && m.to === ANA);

    expect(urgent?.text).toContain("Procedência");
    expect(urgent?.text).toContain("⚠ URGENTE: há movimentação nova que o watchlist marca");
    expect(friday?.text).toContain("Despacho");
    expect(friday?.text.toLowerCase()).not.toContain("juntada de petição");
    expect(friday?.text).toContain("1 movimentação rotineira não listada");
  });

  it("records the quiet changes with why they were not mailed, and asked no model about them", () => {
    const rows = monitor.db
      .prepare<[], { number: string; disposition: string; generatedBy: string }>(
        `SELECT c.number, s.disposition, s.generated_by AS generatedBy
         FROM summaries s JOIN cases c ON c.id = s.case_id ORDER BY s.id`,
      )
      .all();

    expect(rows.filter((r) => r.disposition === "ignored").map((r) => r.number)).toEqual([
      despejo,
      despejo,
    ]);
    expect(rows.filter((r) => r.disposition === "muted").map((r) => r.number)).toEqual([
      reclamacao,
      reclamacao,
    ]);
    expect(rows.every((r) => r.generatedBy === "rules")).toBe(true);
  });

  it("shows the quiet changes in monitor history, saying why they were not mailed", async () => {
    const despejoHistory = await cliInProcess(["history", despejo], env, dir);
    const reclamacaoHistory = await cliInProcess(["history", reclamacao], env, dir);

    expect(despejoHistory.code).toBe(0);
    expect(
      despejoHistory.stdout.match(/not mailed: only movements the watchlist ignores/g),
    ).toHaveLength(2);
    expect(despejoHistory.stdout).toContain("Juntada de petição");
    expect(despejoHistory.stdout).toContain("Mero expediente");
    expect(reclamacaoHistory.stdout.match(/not mailed: the case was muted/g)).toHaveLength(2);
  });

  it("shows a case as muted in monitor status while its mute lasts, and not after", async () => {
    const view = (day: number) => ({
      watchlist,
      now: new Date(local(day, 12)),
      timezone: "America/Sao_Paulo",
    });

    const wednesday = readStatus(monitor.db, view(4));
    const thursday = readStatus(monitor.db, view(5));
    const cli = await cliInProcess(["status", "--json"], env, dir);

    expect(wednesday.cases.find((c) => c.number === reclamacao)?.muted).toBe("2026-03-04");
    expect(wednesday.cases.find((c) => c.number === despejo)?.muted).toBe(false);
    expect(thursday.cases.find((c) => c.number === reclamacao)?.muted).toBe(false);
    // 11 rows in 10 e-mails: Tuesday's digest carried two changes.
    expect(JSON.parse(cli.stdout)).toMatchObject({
      incidents: [],
      mail: { pending: 0, waiting: 0, sent: 11, dead: 0 },
    });
  });

  it("shows in monitor status the alert held by quiet hours and the outage mail.admin was told of", () => {
    const quietMorning = statusAt.get(local(3, 7, 5));
    const outage = statusAt.get(local(6, 7, 5));

    expect(quietMorning?.mail).toMatchObject({ pending: 1, waiting: 1 });
    expect(quietMorning?.cases.find((c) => c.number === despejo)?.pendingMail).toBe(1);
    expect(outage?.incidents).toEqual([
      { kind: "sweeps_failing", since: new Date(local(5, 12)).toISOString(), toldTo: ADMIN },
    ]);
  });

  it("leaves nothing waiting in the outbox and never sent a message twice", () => {
    const pending = monitor.db
      .prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM outbox WHERE status != 'sent'")
      .get();
    const ids = sink.messages.map((m) => String(m.raw).match(/^Message-ID: (.*)$/im)?.[1]);

    expect(pending?.n).toBe(0);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
