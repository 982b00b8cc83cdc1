import { afterEach, describe, expect, it } from "vitest";
import {
  type FeedEstimate,
  type FeedOptions,
  feedEvents,
} from "../../../src/calendar/feed-events.js";
import { icsDocument } from "../../../src/calendar/ics.js";
import { calendarsWith, estimatePublication } from "../../../src/deadlines/publication-estimate.js";
import { type StoredPublication, toPublication } from "../../../src/djen/publication.js";
import { RawItem } from "../../../src/djen/raw-schemas.js";
import { estimateDates } from "../../../src/monitor/report/publication-estimates.js";
import { djenItem } from "../../fakes/fake-djen.js";
import { type ReadEvent, readIcs } from "../../support/ics-reader.js";

/*
 * The feed's events from estimates the deadline engine made, written by ical-generator and read
 * back by ical.js (an independent parser), as a calendar client reads them.
 */

const CASE = "07133834320258070006";
const NOW = new Date("2025-10-20T12:00:00.000Z");

function publicationOf(options: Parameters<typeof djenItem>[0]): {
  publication: StoredPublication;
  text: string;
} {
  const raw = djenItem(options);
  const result = toPublication(RawItem.parse(raw), raw, { baseUrl: "https://djen.example" });
  if (!result.ok) throw new Error(result.problem);
  const { text, raw: _raw, ...publication } = result.value;
  return { publication, text };
}

/** The row the store would hand the feed for `options`, estimated as the sweep estimates it. */
function row(
  options: Parameters<typeof djenItem>[0],
  extra: Partial<FeedEstimate> = {},
): FeedEstimate {
  const { publication, text } = publicationOf(options);
  const estimate = estimatePublication(publication, text, calendarsWith());
  return {
    subject: `djen:${options.id}`,
    revision: 1,
    ...estimateDates(estimate),
    estimate,
    seat: null,
    djenId: String(options.id),
    publication,
    cancelled: false,
    caseLabel: "Despejo",
    ...extra,
  };
}

const OPTIONS: FeedOptions = {
  since: null,
  until: null,
  reminderBusinessDays: [],
  reminderTime: "09:00",
  calendars: calendarsWith(),
  sessionMinutes: 60,
};

function feed(rows: readonly FeedEstimate[], options: Partial<FeedOptions> = {}): string {
  return icsDocument(feedEvents(rows, { ...OPTIONS, ...options }), {
    name: "Prazos e sessões: ana@example.com",
    now: NOW,
    refreshSeconds: 3600,
  });
}

function only(events: readonly ReadEvent[]): ReadEvent {
  expect(events).toHaveLength(1);
  return events[0] as ReadEvent;
}

/** Made available Fri 17/10/2025: published Mon 20/10, counts from Tue 21/10; 5 business days
 * (21, 22, 23, 24, 27) end Mon 27/10 (CPC arts. 219 and 224; Lei 11.419/2006 art. 4 §§3-4). */
const PERIOD = {
  id: 501,
  date: "2025-10-17",
  texto: "Manifeste-se a parte autora no prazo de 5 (cinco) dias.",
  caseNumber: CASE,
};

/** A TRT11 pauta (Manaus) made available Wed 01/10/2025 for a session on 15/10 at 13h30. */
const TRT11_PAUTA = {
  id: 601,
  date: "2025-10-01",
  court: "TRT11",
  kind: "Pauta de julgamento",
  documentType: "Pauta",
  texto:
    "EDITAL-PAUTA\nFAÇO PÚBLICO que serão julgados na Sessão Ordinária do dia 15/10/2025, às 13h30, os processos abaixo.",
};

describe("a publication with a stated period", () => {
  it("is an all-day event on its last day, marked as an estimate, with its dates, rule and links", () => {
    const { events } = readIcs(feed([row(PERIOD)]));

    const event = only(events);
    expect(event).toMatchObject({
      uid: "djen-501-ultimo-dia@datajud-monitor",
      sequence: 0,
      status: "CONFIRMED",
      start: "2025-10-27",
      allDay: true,
      transparency: "TRANSPARENT",
      summary:
        "Último dia do prazo (5 dias úteis), estimativa: Despejo · 0713383-43.2025.8.07.0006",
      url: "https://djen.example/api/v1/comunicacao/h501AbCdEf/certidao",
    });
    expect(event.description).toContain("ESTIMATIVA");
    expect(event.description).toContain("Processo: Despejo · 0713383-43.2025.8.07.0006");
    expect(event.description).toContain("Tribunal: TJDFT · 1ª Vara Cível de Ceilândia");
    expect(event.description).toContain("Publicação: Intimação · Despacho (DJEN 501)");
    expect(event.description).toContain(
      "Disponibilizada em 17/10/2025 (sexta-feira); publicada em 20/10/2025; prazo a partir de 21/10/2025; último dia 27/10/2025 (estimativas)",
    );
    expect(event.description).toMatch(/Regra: .*CPC/u);
    expect(event.description).toContain(
      "Certidão de publicação (DJEN): https://djen.example/api/v1/comunicacao/h501AbCdEf/certidao",
    );
    expect(event.description).toContain(
      "Documento no tribunal: https://pje.example.jus.br/documento/123",
    );
    expect(event.description).toContain("Processo no tribunal (PJe, consulta pública): https://");
  });

  it("leaves out a DJEN link that is not a court's, even one stored before that rule", () => {
    const stored = row(PERIOD);
    const foreign = {
      ...stored,
      publication: {
        ...(stored.publication as Record<string, unknown>),
        link: "https://tjdft.jus.br.golpe.example/boleto",
      },
    };

    const event = only(readIcs(feed([foreign])).events);

    expect(event.description).not.toContain("golpe");
    expect(event.description).not.toContain("Documento no tribunal");
    expect(event.description).toContain("Certidão de publicação (DJEN): https://djen.example/");
  });

  it("bumps SEQUENCE with the estimate's revision, keeping its UID", () => {
    const first = only(readIcs(feed([row(PERIOD)])).events);
    const moved = only(readIcs(feed([row(PERIOD, { revision: 2, lastDay: "2025-10-29" })])).events);

    expect(moved.uid).toBe(first.uid);
    expect([first.sequence, moved.sequence]).toEqual([0, 1]);
    expect(moved.start).toBe("2025-10-29");
  });

  it("stays in the feed when cancelled: STATUS:CANCELLED, a higher SEQUENCE, no reminder", () => {
    const cancelled = only(
      readIcs(feed([row(PERIOD, { cancelled: true })], { reminderBusinessDays: [2] })).events,
    );

    expect(cancelled).toMatchObject({
      uid: "djen-501-ultimo-dia@datajud-monitor",
      status: "CANCELLED",
      sequence: 1,
      alarms: [],
    });
    expect(cancelled.summary).toMatch(/^CANCELADA: Último dia do prazo/u);
    expect(cancelled.description).toContain("o tribunal cancelou esta publicação no DJEN");
  });
});

describe("a pauta", () => {
  it("is timed at the court's clock: 13h30 at the TRT11 (Manaus, UTC-4) is 17:30 UTC", () => {
    const pauta = row(TRT11_PAUTA);

    const event = only(readIcs(feed([pauta])).events);

    // Manaus keeps UTC-4 all year (no daylight saving since Decreto 9.772/2019): 13:30 + 4 h.
    expect(event).toMatchObject({
      uid: "djen-601-sessao@datajud-monitor",
      allDay: false,
      tzid: "America/Manaus",
      start: "2025-10-15T17:30:00.000Z",
      // No end in the text: calendarFeed.sessionMinutes (60 here), on the same clock.
      end: "2025-10-15T18:30:00.000Z",
      endTzid: "America/Manaus",
      transparency: "OPAQUE",
      summary: "Sessão de julgamento: Despejo · 0713383-43.2025.8.07.0006",
      location: "TRT11 · 1ª Vara Cível de Ceilândia",
    });
    expect(event.description).toContain("Sessão em 15/10/2025 (quarta-feira) às 13:30");
    expect(event.description).toContain("horário do tribunal, America/Manaus");
  });

  it("at a court in Brasília's zone: 14h at the TJSP is 17:00 UTC", () => {
    const pauta = row({
      id: 602,
      date: "2025-10-01",
      court: "TJSP",
      kind: "Pauta de julgamento",
      texto: "Sessão de julgamento do dia 14 de outubro de 2025, às 14 horas.",
    });

    const event = only(readIcs(feed([pauta])).events);

    expect(event).toMatchObject({ tzid: "America/Sao_Paulo", start: "2025-10-14T17:00:00.000Z" });
  });

  it("lasts calendarFeed.sessionMinutes, ending on the court's clock (a hearing at 9h for 150 min ends 11:30)", () => {
    const hearing = row({
      id: 604,
      date: "2025-10-01",
      court: "TJSP",
      kind: "Pauta de julgamento",
      texto: "Sessão de julgamento do dia 14 de outubro de 2025, às 9 horas.",
    });

    const ics = feed([hearing], { sessionMinutes: 150 });
    const event = only(readIcs(ics).events);

    // 9:00 in São Paulo (UTC-3) is 12:00 UTC; 150 minutes later, 14:30 UTC, 11:30 there.
    expect(event).toMatchObject({
      start: "2025-10-14T12:00:00.000Z",
      end: "2025-10-14T14:30:00.000Z",
      endTzid: "America/Sao_Paulo",
      duration: null,
    });
    expect(ics).toContain("DTEND;TZID=America/Sao_Paulo:20251014T113000");
  });

  it("a virtual session over several days spans them, all day", () => {
    const pauta = row({
      id: 603,
      date: "2025-10-01",
      court: "TJSP",
      kind: "Pauta de julgamento",
      texto: "Sessão Virtual com início em 06/10/2025 e término em 10/10/2025.",
    });

    const event = only(readIcs(feed([pauta])).events);

    expect(event).toMatchObject({ allDay: true, start: "2025-10-06", end: "2025-10-11" });
    expect(event.summary).toMatch(/^Sessão virtual: /u);
  });
});

describe("a hearing an intimação announces", () => {
  /** Made available Fri 17/10/2025 at the TJDFT: published Mon 20/10, counts from Tue 21/10, and
   * 5 business days (21, 22, 23, 24, 27) end Mon 27/10 (CPC arts. 219 and 224; Lei 11.419/2006
   * art. 4 §§3-4); the hearing is on Wed 12/11/2025 at 14h, Brasília's clock (UTC-3): 17:00 UTC. */
  const HEARING = {
    id: 701,
    date: "2025-10-17",
    caseNumber: CASE,
    texto:
      "Fica a parte autora intimada para a audiência de conciliação designada para o dia 12/11/2025, às 14h00, e para apresentar o rol de testemunhas no prazo de 5 (cinco) dias.",
  };

  it("is timed at the court's clock beside the period's last day", () => {
    const { events } = readIcs(feed([row(HEARING)]));

    expect(events.map((e) => [e.uid, e.start, e.allDay])).toEqual([
      ["djen-701-ultimo-dia@datajud-monitor", "2025-10-27", true],
      ["djen-701-sessao@datajud-monitor", "2025-11-12T17:00:00.000Z", false],
    ]);
    const hearing = events[1] as ReadEvent;
    expect(hearing).toMatchObject({
      tzid: "America/Sao_Paulo",
      transparency: "OPAQUE",
      summary: "Audiência: Despejo · 0713383-43.2025.8.07.0006",
    });
    expect(hearing.description).toContain(
      "Audiência em 12/11/2025 (quarta-feira) às 14:00 (horário do tribunal, America/Sao_Paulo), conforme o texto da intimação.",
    );
  });

  it("is dropped with the rest when the publication is cancelled: STATUS:CANCELLED", () => {
    const { events } = readIcs(feed([row(HEARING, { cancelled: true })]));

    expect(events.map((e) => [e.summary.slice(0, 20), e.status])).toEqual([
      ["CANCELADA: Último di", "CANCELLED"],
      ["CANCELADA: Audiência", "CANCELLED"],
    ]);
  });
});

describe("reminders", () => {
  it("go off the court's business days before the last day, skipping its holidays", () => {
    // Last day Fri 21/11/2025; Thu 20/11 is a national holiday (Lei 14.759/2023): one business
    // day before is Wed 19/11 (2 calendar days), two are Tue 18/11 (3 days). At 09:00: 2 days
    // less 9 h is 1 day 15 h before the day starts; 3 days less 9 h is 2 days 15 h.
    const hand = row(PERIOD, {
      subject: "djen:777",
      djenId: "777",
      lastDay: "2025-11-21",
      estimate: null,
    });

    const event = only(readIcs(feed([hand], { reminderBusinessDays: [1, 2] })).events);

    expect(event.start).toBe("2025-11-21");
    expect(event.alarms.map((a) => [a.trigger, a.related])).toEqual([
      ["-P2DT15H", "START"],
      ["-P1DT15H", "START"],
    ]);
    expect(event.alarms[0]?.description).toContain("21/11/2025");
  });

  it("on the day itself, at its hour", () => {
    const event = only(readIcs(feed([row(PERIOD)], { reminderBusinessDays: [0] })).events);

    expect(event.alarms.map((a) => [a.trigger, a.related])).toEqual([["PT9H", "START"]]);
  });
});

describe("the document", () => {
  const originalTz = process.env.TZ;
  afterEach(() => {
    if (originalTz === undefined) delete process.env.TZ;
    else process.env.TZ = originalTz;
  });

  it("is CRLF throughout, folded at 75 octets, with the court's zone described", () => {
    const text = feed([row(PERIOD), row(TRT11_PAUTA)]);

    expect(text.endsWith("END:VCALENDAR\r\n")).toBe(true);
    const lines = text.split("\r\n").slice(0, -1);
    expect(lines.filter((l) => l.includes("\n") || l.includes("\r"))).toEqual([]);
    expect(lines.filter((l) => Buffer.byteLength(l, "utf8") > 75)).toEqual([]);
    expect(text).toContain("BEGIN:VTIMEZONE\r\nTZID:America/Manaus\r\n");
    expect(text).toContain("TZOFFSETTO:-0400");
  });

  it("does not depend on the zone of the process that writes it", () => {
    const rows = [row(PERIOD), row(TRT11_PAUTA)];

    process.env.TZ = "Asia/Tokyo";
    const tokyo = feed(rows, { reminderBusinessDays: [1] });
    process.env.TZ = "America/Los_Angeles";
    const losAngeles = feed(rows, { reminderBusinessDays: [1] });

    expect(losAngeles).toBe(tokyo);
    expect(tokyo).toContain("DTSTART;TZID=America/Manaus:20251015T133000");
    expect(tokyo).toContain("DTSTART;VALUE=DATE:20251027");
  });

  it("keeps a court's text a value: no line break, property or component gets in", () => {
    const hostile = "Vara\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:evil;X=1,\u0007\u202e";
    const { publication } = publicationOf(PERIOD);
    const pauta = row(
      {
        ...PERIOD,
        id: 604,
        kind: "Pauta de julgamento",
        texto: "Sessão do dia 30/10/2025, às 9h.",
      },
      { publication: { ...publication, courtUnit: hostile, kind: "Pauta de julgamento" } },
    );

    const text = feed([pauta]);
    const { events } = readIcs(text);

    expect(events.map((e) => e.uid)).toEqual(["djen-604-sessao@datajud-monitor"]);
    expect(events[0]?.location).toBe("TJDFT · Vara END:VEVENT BEGIN:VEVENT UID:evil;X=1,");
    expect(text.match(/^BEGIN:VEVENT/gmu)).toHaveLength(1);
  });

  it("holds only the events in [since, until]", () => {
    const rows = [row(PERIOD), row({ ...PERIOD, id: 502, date: "2025-11-03" })];

    const all = readIcs(feed(rows)).events.map((e) => e.start);
    const windowed = readIcs(feed(rows, { since: "2025-10-28", until: "2025-12-31" })).events.map(
      (e) => e.start,
    );

    // 03/11 Mon: published Tue 04/11, counts from Wed 05/11; 5 business days end Tue 11/11.
    expect(all).toEqual(["2025-10-27", "2025-11-11"]);
    expect(windowed).toEqual(["2025-11-11"]);
  });
});
