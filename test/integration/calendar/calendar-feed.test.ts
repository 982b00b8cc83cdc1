import { join } from "node:path";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { calendarFeed, type FeedSettings } from "../../../src/calendar/feed.js";
import { newFeedToken } from "../../../src/calendar/feed-token.js";
import { calendarHttpRoute } from "../../../src/calendar/http-route.js";
import { calendarsWith } from "../../../src/deadlines/publication-estimate.js";
import { toPublication } from "../../../src/djen/publication.js";
import { RawItem } from "../../../src/djen/raw-schemas.js";
import { createHttpServer, type HttpServer } from "../../../src/http/server.js";
import { reportPublications } from "../../../src/monitor/report/report-publications.js";
import { NO_ALERT_POLICY } from "../../../src/policy/alert-rules.js";
import { insertCalendarToken } from "../../../src/store/calendar-tokens.js";
import { syncWatchedCases } from "../../../src/store/cases.js";
import { closeDatabase, type Db, immediate, openDatabase } from "../../../src/store/database.js";
import { insertPublication, markPublicationCancelled } from "../../../src/store/publications.js";
import { startRun } from "../../../src/store/runs.js";
import type { CourtClosure } from "../../../src/time/court-calendar.js";
import { parseWatchlist } from "../../../src/watchlist/parse-watchlist.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import { djenItem } from "../../fakes/fake-djen.js";
import { cliInProcess } from "../../support/cli-harness.js";
import { cleanEnv } from "../../support/cli-process.js";
import { type ReadEvent, readIcs } from "../../support/ics-reader.js";
import { makeTempDir } from "../../support/temp-dir.js";

/*
 * What sweeps store becomes each watcher's calendar: a publication with a stated period and a
 * pauta in Ana's case, another case of Rui's; the report phase estimates them as a sweep does;
 * the feed is read back with ical.js after each sweep, a re-estimate and a cancellation.
 */

const ANA = "ana@example.com";
const RUI = "rui@example.com";
const ANA_CASE = "07133834320258070006";
const RUI_CASE = "07001231120258070001";

const SETTINGS: FeedSettings = {
  reminderBusinessDays: [],
  reminderTime: "09:00",
  pastDays: 30,
  maxEvents: 2000,
  refreshMinutes: 60,
  sessionMinutes: 90,
};

/** The TJDFT suspends deadlines on 21-22/10 (system down): the count starts Thu 23/10 and its
 * fifth business day is Wed 29/10 (23, 24, 27, 28, 29). */
const SUSPENSION: CourtClosure = {
  court: "tjdft",
  municipalities: [],
  from: "2025-10-21",
  to: "2025-10-22",
  effect: "suspended",
  reason: "suspensão de prazos: PJe indisponível",
  source: "Portaria GPR 1.234/2025 (configuração)",
  url: null,
};

let dir: string;
let db: Db;

function store(item: Parameters<typeof djenItem>[0]): void {
  const raw = djenItem(item);
  const result = toPublication(RawItem.parse(raw), raw, { baseUrl: "https://djen.example" });
  if (!result.ok) throw new Error(result.problem);
  const { text, raw: _raw, ...publication } = result.value;
  immediate(db, () => {
    const runId = startRun(db, {
      startedAt: `${publication.availableOn}T12:00:00.000Z`,
      trigger: "manual",
    });
    insertPublication(db, {
      djenId: publication.id,
      caseNumber: publication.caseNumber,
      court: publication.court,
      availableOn: publication.availableOn,
      kind: publication.kind,
      documentType: publication.documentType,
      courtUnit: publication.courtUnit,
      publication,
      text,
      raw,
      foundBy: `case:${publication.caseNumber}`,
      firstSeenAt: `${publication.availableOn}T12:00:00.000Z`,
      runId,
      baseline: false,
    });
  });
}

function report(at: string, closures: readonly CourtClosure[] = []): void {
  const parsed = parseWatchlist(
    [
      "cases:",
      '  - number: "0713383-43.2025.8.07.0006"',
      "    label: Despejo",
      `    notify: [${ANA}]`,
      '  - number: "0700123-11.2025.8.07.0001"',
      `    notify: [${RUI}]`,
      "",
    ].join("\n"),
    "watchlist.yaml",
  );
  if (!parsed.ok) throw new Error("bad watchlist");
  reportPublications({
    db,
    clock: new FakeClock({ now: Date.parse(at) }),
    logger: pino({ level: "silent" }),
    mailDomain: "monitor.example",
    cases: parsed.watchlist.cases,
    oab: [],
    defaultRules: NO_ALERT_POLICY,
    notifyOnBaseline: false,
    calendars: calendarsWith(closures),
  });
}

function events(watcher: string | null, at = "2025-10-20T12:00:00.000Z"): ReadEvent[] {
  const feed = calendarFeed(db, { watcher, since: null, until: null }, SETTINGS, {
    now: new Date(at),
    calendars: calendarsWith(),
  });
  return readIcs(feed.ics).events;
}

function identity(e: ReadEvent): [string, number, string, string | null] {
  return [e.uid, e.sequence, e.start, e.status];
}

beforeEach(() => {
  dir = makeTempDir("calendar-feed-");
  db = openDatabase(join(dir, "monitor.db"));
  // What a sweep's first phase does: the watched cases and their labels.
  immediate(db, () =>
    syncWatchedCases(
      db,
      [
        {
          number: "0713383-43.2025.8.07.0006",
          digits: ANA_CASE,
          court: "tjdft",
          label: "Despejo",
          watchers: [ANA],
        },
        {
          number: "0700123-11.2025.8.07.0001",
          digits: RUI_CASE,
          court: "tjdft",
          label: null,
          watchers: [RUI],
        },
      ],
      "2025-10-17T12:00:00.000Z",
    ),
  );
  // Made available Fri 17/10/2025: published Mon 20/10, counts from Tue 21/10; 5 business days
  // end Mon 27/10 (CPC arts. 219 and 224; Lei 11.419/2006 art. 4 §§3-4).
  store({
    id: 501,
    date: "2025-10-17",
    caseNumber: ANA_CASE,
    texto: "Manifeste-se a parte autora no prazo de 5 (cinco) dias.",
  });
  store({
    id: 601,
    date: "2025-10-17",
    caseNumber: ANA_CASE,
    kind: "Pauta de julgamento",
    texto: "Serão julgados na Sessão Ordinária do dia 30/10/2025, às 13h30, os processos abaixo.",
  });
  // Rui's: Mon 20/10, published Tue 21/10, counts from Wed 22/10; 15 business days: 22, 23, 24,
  // 27, 28, 29, 30/10, 3, 4, 5, 6, 7, 10, 11, 12/11 (Fri 31/10 closed: Dia do Servidor Público
  // moved there by Portaria Conjunta TJDFT 1/2025; Sun 02/11 Finados).
  store({
    id: 701,
    date: "2025-10-20",
    caseNumber: RUI_CASE,
    texto: "Intime-se a parte ré para contestar no prazo de 15 (quinze) dias.",
  });
  report("2025-10-20T12:05:00.000Z");
});

afterEach(() => closeDatabase(db));

describe("a watcher's calendar", () => {
  it("holds the last day of the stated period, all day, and the pauta's session at the court's clock", () => {
    const ana = events(ANA);

    expect(ana.map((e) => [e.uid, e.start, e.allDay, e.tzid])).toEqual([
      ["djen-501-ultimo-dia@datajud-monitor", "2025-10-27", true, null],
      // 13:30 in Brasília (UTC-3, no daylight saving since Decreto 9.772/2019) is 16:30 UTC.
      ["djen-601-sessao@datajud-monitor", "2025-10-30T16:30:00.000Z", false, "America/Sao_Paulo"],
    ]);
    expect(ana[0]?.description).toContain("prazo a partir de 21/10/2025");
    expect(ana[0]?.summary).toContain("Despejo · 0713383-43.2025.8.07.0006");
  });

  it("keeps its UIDs, sequences and dates when a later sweep finds nothing new", () => {
    const before = events(ANA).map(identity);

    report("2025-10-20T18:00:00.000Z");
    report("2025-10-21T12:00:00.000Z");

    expect(events(ANA, "2025-10-21T12:00:00.000Z").map(identity)).toEqual(before);
  });

  it("moves a re-estimated last day in place (SEQUENCE up) and cancels, not drops, a cancelled publication", () => {
    report("2025-10-20T13:00:00.000Z", [SUSPENSION]);
    const moved = events(ANA);
    immediate(db, () =>
      markPublicationCancelled(db, "601", { at: "2025-10-22T12:00:00.000Z", details: null }),
    );
    const cancelled = events(ANA, "2025-10-22T12:00:00.000Z");

    expect(moved.map(identity)).toEqual([
      ["djen-501-ultimo-dia@datajud-monitor", 1, "2025-10-29", "CONFIRMED"],
      ["djen-601-sessao@datajud-monitor", 0, "2025-10-30T16:30:00.000Z", "CONFIRMED"],
    ]);
    expect(cancelled.map(identity)).toEqual([
      ["djen-501-ultimo-dia@datajud-monitor", 1, "2025-10-29", "CONFIRMED"],
      ["djen-601-sessao@datajud-monitor", 1, "2025-10-30T16:30:00.000Z", "CANCELLED"],
    ]);
  });

  it("is each watcher's own: Rui sees his case only, the firm's feed both, a stranger nothing", () => {
    expect(events(RUI).map((e) => [e.uid, e.start])).toEqual([
      ["djen-701-ultimo-dia@datajud-monitor", "2025-11-12"],
    ]);
    expect(events(null).map((e) => e.uid)).toEqual([
      "djen-501-ultimo-dia@datajud-monitor",
      "djen-601-sessao@datajud-monitor",
      "djen-701-ultimo-dia@datajud-monitor",
    ]);
    expect(events("someone@example.com")).toEqual([]);
  });
});

describe("datajud-monitor calendar", () => {
  const env = (): Record<string, string> =>
    cleanEnv({ MONITOR_DB: join(dir, "monitor.db"), MONITOR_LOG_LEVEL: "silent" });

  it("prints a watcher's feed between --since and --until", async () => {
    const run = await cliInProcess(
      [
        "calendar",
        "--watcher",
        "Ana@Example.com",
        "--since",
        "2025-10-01",
        "--until",
        "2025-10-28",
      ],
      env(),
      dir,
    );

    expect(run.code).toBe(0);
    expect(readIcs(run.stdout).events.map((e) => e.uid)).toEqual([
      "djen-501-ultimo-dia@datajud-monitor",
    ]);
  });

  it("refuses a date it cannot read, saying how to write it", async () => {
    const run = await cliInProcess(["calendar", "--since", "20/10/2025"], env(), dir);

    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--since must be a date like 2026-01-31, not "20/10/2025"');
  });
});

describe("the served feed (/calendar/<token>.ics)", () => {
  let server: HttpServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  async function serve(clock: FakeClock): Promise<{ base: string; path: string; logs: string[] }> {
    const { token, hash } = newFeedToken((n) => Buffer.alloc(n, 7));
    immediate(db, () =>
      insertCalendarToken(db, { hash, recipient: ANA, label: null, at: "2025-10-20T12:00:00Z" }),
    );
    const logs: string[] = [];
    const logger = pino({ level: "debug" }, { write: (line: string) => logs.push(line) });
    server = createHttpServer({
      listen: { host: "127.0.0.1", port: 0 },
      token: null,
      allowedOrigins: [],
      maxBodyBytes: 4096,
      logger,
    });
    server.route(
      calendarHttpRoute({ db, settings: SETTINGS, calendars: calendarsWith(), clock, logger }),
    );
    return { base: await server.start(), path: `/calendar/${token}.ics`, logs };
  }

  it("gives sessions their length, and answers 304 to a client that has the feed", async () => {
    const clock = new FakeClock({ now: Date.parse("2025-10-20T12:00:00.400Z") });
    const { base, path } = await serve(clock);

    const first = await fetch(base + path);
    const body = await first.text();
    const etag = first.headers.get("etag") ?? "";
    const lastModified = first.headers.get("last-modified") ?? "";
    clock.set(Date.parse("2025-10-20T13:00:00Z"));
    const byTag = await fetch(base + path, { headers: { "if-none-match": etag } });
    const byDate = await fetch(base + path, { headers: { "if-modified-since": lastModified } });
    const again = await fetch(base + path);

    expect(first.status).toBe(200);
    expect(lastModified).toBe("Mon, 20 Oct 2025 12:00:00 GMT");
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+\.[a-z0-9]+"$/u);
    expect(body).toContain("DTSTAMP:20251020T120000Z");
    // The pauta's 13h30 session, SETTINGS.sessionMinutes (90) long: ends 15:00 in Brasília.
    expect(readIcs(body).events[1]).toMatchObject({
      start: "2025-10-30T16:30:00.000Z",
      end: "2025-10-30T18:00:00.000Z",
    });
    expect([byTag.status, await byTag.text(), byTag.headers.get("etag")]).toEqual([304, "", etag]);
    expect(byDate.status).toBe(304);
    expect([again.status, again.headers.get("etag"), await again.text()]).toEqual([
      200,
      etag,
      body,
    ]);
  });

  it("is read again once it changed: new ETag, Last-Modified and DTSTAMP", async () => {
    const clock = new FakeClock({ now: Date.parse("2025-10-20T12:00:00Z") });
    const { base, path } = await serve(clock);
    const first = await fetch(base + path);
    await first.text();

    clock.set(Date.parse("2025-10-22T12:00:00Z"));
    immediate(db, () =>
      markPublicationCancelled(db, "601", { at: "2025-10-22T12:00:00.000Z", details: null }),
    );
    const changed = await fetch(base + path, {
      headers: { "if-none-match": first.headers.get("etag") ?? "" },
    });
    const stale = await fetch(base + path, {
      headers: { "if-modified-since": first.headers.get("last-modified") ?? "" },
    });

    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(first.headers.get("etag"));
    expect(changed.headers.get("last-modified")).toBe("Wed, 22 Oct 2025 12:00:00 GMT");
    expect(await changed.text()).toContain("STATUS:CANCELLED");
    expect(stale.status).toBe(200);
    await stale.text();
  });

  it("answers 429 with Retry-After past 10 wrong tokens, still serves the right one, logs no token", async () => {
    const clock = new FakeClock({ now: Date.parse("2025-10-20T12:00:00Z") });
    const { base, path, logs } = await serve(clock);
    const wrongPath = `/calendar/cal_${"x".repeat(43)}.ics`;

    const wrong: Response[] = [];
    for (let i = 0; i < 25; i += 1) wrong.push(await fetch(base + wrongPath));
    const right = await fetch(base + path);
    clock.set(clock.now() + 10_000);
    const forgiven = await fetch(base + wrongPath);
    await Promise.all([...wrong, right, forgiven].map((r) => r.text()));

    expect(wrong.map((r) => r.status)).toEqual([...Array(10).fill(404), ...Array(15).fill(429)]);
    expect(wrong[10]?.headers.get("retry-after")).toBe("10");
    expect(right.status).toBe(200);
    expect(forgiven.status).toBe(404);
    const warnings = logs.filter((l) => l.includes("wrong feed addresses"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('"client":"127.0.0.1"');
    expect(logs.join("\n")).not.toContain("cal_");
  });
});
