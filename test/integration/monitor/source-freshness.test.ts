import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MonitorHandles } from "../../../src/cli/runtime.js";
import { freshnessLines, readFreshness } from "../../../src/cli/status.js";
import { SourceFreshnessOutput } from "../../../src/mcp/history-schemas.js";
import { connectInProcess } from "../../../src/mcp/in-process-client.js";
import { createMonitorDeps } from "../../../src/mcp/monitor-deps.js";
import { createDataJudServer } from "../../../src/mcp/server.js";
import { callTool } from "../../../src/mcp/tool-caller.js";
import { queueDueReceipts } from "../../../src/monitor/report/receipts.js";
import { Receipt, receiptProblems } from "../../../src/notify/render/receipt.js";
import type { Watchlist } from "../../../src/watchlist/parse-watchlist.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import type { FakeDataJud } from "../../fakes/fake-datajud.js";
import { djenItem, type FakeDjen } from "../../fakes/fake-djen.js";
import { cliInProcess, fixtureDoc, n } from "../../support/cli-harness.js";
import { type DjenSweep, type Mail, startDjenSweep } from "../../support/djen-sweep.js";
import type { FixtureDoc } from "../../support/fixtures.js";

/*
 * Freshness and the cross-source checks (docs/freshness.md) through the real sweep against the
 * fake DataJud and the fake DJEN, on a fake clock, day by day from 1 October 2025:
 * - TJDFT records five DJEN acts 2, 3, 3, 5 and 8 days late: its usual lag is 3 (p90 8);
 * - a DJEN intimação whose DataJud movement comes 12 days late: noted after the court's p90,
 *   cleared when the movement arrives;
 * - a DataJud disponibilização DJEN never returned: one warning; and one DJEN did not answer whole
 *   for (an answer that ignored its filters, then a 500): no warning until DJEN answers whole, then one;
 * - TJSP, whose watched record DataJud never moves while DJEN publishes: one operator alert.
 */

const ANA = "ana@example.com";
const ADMIN = "ti@example.com";
const despejo = n.tjdftDespejo;
const cobranca = n.tjspCobranca;
const digits = (formatted: string): string => formatted.replace(/\D/g, "");
const OTHER_LAWYER = [{ name: "BETO ADVOGADO", oab: "999", uf: "DF" }];

const WATCHLIST = `
defaults:
  notify: [${ANA}]
cases:
  - number: "${despejo}"
    label: "Despejo"
  - number: "${cobranca}"
    label: "Cobrança"
`;

const CONFIG = `
schedule:
  startJitterSeconds: 0
mail:
  from: "Monitor <monitor@monitor.example.com>"
  admin: ${ADMIN}
  healthAfterFailedSweeps: 50
`;

let harness: DjenSweep;
let dir: string;
let datajud: FakeDataJud;
let djen: FakeDjen;
let monitor: MonitorHandles;
let watchlist: Watchlist;
let tjdftDoc: FixtureDoc;
let tjspDoc: FixtureDoc;
const clock = new FakeClock({ now: Date.UTC(2025, 9, 1, 13, 0), autoAdvance: true });
const mails: Mail[] = [];
let nextDjenId = 5000;
let env: Record<string, string>;

/** A sweep at 10:00 in São Paulo on `day`; the e-mails it sent are added to `mails`. */
async function sweepOn(day: string): Promise<Mail[]> {
  clock.set(Date.parse(`${day}T13:00:00.000Z`));
  const before = harness.sink.messages.length;
  await harness.sweep();
  const sent = await harness.mailsSince(before);
  mails.push(...sent);
  return sent;
}

/** DJEN makes an intimação of `formatted` available on `day`, sent by the court the day before. */
function publish(formatted: string, court: string, day: string, sentOn: string): void {
  nextDjenId += 1;
  djen.add(
    djenItem({
      id: nextDjenId,
      caseNumber: digits(formatted),
      court,
      date: day,
      sentOn,
      lawyers: OTHER_LAWYER,
    }),
  );
}

/** DataJud's TJDFT record gains a Disponibilização no DJe of `day`, stamped updated `updatedOn`. */
function recordAvailability(day: string, updatedOn: string): void {
  (tjdftDoc._source.movimentos as unknown[]).push({
    codigo: 1061,
    nome: "Disponibilização no Diário da Justiça Eletrônico",
    dataHora: `${day}T09:00:00.000Z`,
  });
  tjdftDoc._source.dataHoraUltimaAtualizacao = `${updatedOn}T08:00:00.000Z`;
  datajud.upsert("tjdft", structuredClone(tjdftDoc));
}

function gapWarnings(list: readonly Mail[]): Mail[] {
  return list.filter((m) => m.subject.includes("Intimação no DataJud sem publicação no DJEN"));
}

/** The MCP tool source_freshness, served over the monitor's database on the fake clock. */
async function mcpFreshness(args: Record<string, unknown>): Promise<SourceFreshnessOutput> {
  const deps = createMonitorDeps({
    clock,
    dbPath: join(dir, "monitor.db"),
    watchlist: async () => watchlist,
    datajud: null,
    summarizer: { model: null, runTokenBudget: 1, dailyTokenBudget: 1 },
    timezone: "America/Sao_Paulo",
  });
  const conn = await connectInProcess(createDataJudServer({ reader: null, monitor: deps.deps }));
  try {
    return await callTool(conn.client, "source_freshness", args, SourceFreshnessOutput, {
      timeoutMs: 30_000,
    });
  } finally {
    await conn.close();
    deps.close();
  }
}

function freshness() {
  return readFreshness(monitor.db, new Date(clock.now()));
}

beforeAll(async () => {
  harness = await startDjenSweep({
    prefix: "monitor-freshness-",
    apiKey: "freshness-key",
    watchlist: WATCHLIST,
    config: CONFIG,
    clock,
  });
  ({ dir, datajud, djen, env, monitor, watchlist } = harness);
  tjdftDoc = fixtureDoc("tjdft", despejo);
  tjspDoc = fixtureDoc("tjsp", cobranca);
  await sweepOn("2025-10-01");
}, 60_000);

afterAll(async () => {
  await harness?.close();
});

describe("freshness and cross-source checks", () => {
  it("measures TJDFT's lag act by act: usual 3 days, p90 8, and DJEN's own lag of 1 day", async () => {
    // Five acts: DJEN makes each available on its day; DataJud records it 2, 3, 3, 5, 8 days on.
    const acts = [
      { day: "2025-10-02", lag: 2 },
      { day: "2025-10-06", lag: 3 },
      { day: "2025-10-09", lag: 3 },
      { day: "2025-10-14", lag: 5 },
      { day: "2025-10-20", lag: 8 },
    ];
    const events: Array<{ on: string; act: () => void }> = [];
    for (const { day, lag } of acts) {
      const sent = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
      events.push({ on: day, act: () => publish(despejo, "TJDFT", day, sent) });
      const seen = new Date(Date.parse(`${day}T00:00:00Z`) + lag * 86_400_000)
        .toISOString()
        .slice(0, 10);
      events.push({ on: seen, act: () => recordAvailability(day, seen) });
    }
    // TJSP: DJEN publishes on 15 October; DataJud never moves its record.
    events.push({
      on: "2025-10-15",
      act: () => publish(cobranca, "TJSP", "2025-10-15", "2025-10-14"),
    });
    const days = [...new Set(events.map((e) => e.on))].sort();
    for (const day of days) {
      for (const e of events.filter((x) => x.on === day)) e.act();
      await sweepOn(day);
    }
    const tjdft = freshness().courts.find((c) => c.court === "tjdft");
    expect(tjdft?.lag).toEqual({ samples: 5, p50: 3, p90: 8, max: 8 });
    expect(tjdft?.djenLag).toMatchObject({ samples: 5, p50: 1 });
    // The newest update DataJud gave (28 Oct, the court's wall clock), as it wrote it.
    expect(tjdft?.newestUpdate).toBe("2025-10-28T08:00:00");
    const line = freshnessLines(freshness(), "America/Sao_Paulo").find((l) =>
      l.startsWith("DataJud TJDFT"),
    );
    expect(line).toBe(
      "DataJud TJDFT: newest update today; usual lag 3 days (p90 8, 5 acts); DJEN lag 1 day",
    );
    expect(gapWarnings(mails)).toEqual([]);
  }, 120_000);

  it("notes a DJEN intimação DataJud lacks past TJDFT's p90, then clears it when it arrives", async () => {
    publish(despejo, "TJDFT", "2025-10-29", "2025-10-28");
    await sweepOn("2025-10-29");
    await sweepOn("2025-11-06"); // 8 days: not past the p90 (8)
    expect(freshness().dataJudLate.filter((l) => l.court === "tjdft")).toEqual([]);
    // An edital of the case the same day: its alert carries the sources line and the note.
    djen.add(
      djenItem({
        id: 4999,
        caseNumber: digits(despejo),
        court: "TJDFT",
        date: "2025-11-07",
        kind: "Edital",
        documentType: "Edital",
        lawyers: OTHER_LAWYER,
      }),
    );
    const sent = await sweepOn("2025-11-07"); // 9 days
    expect(freshness().dataJudLate.filter((l) => l.court === "tjdft")).toEqual([
      expect.objectContaining({
        number: despejo,
        availableOn: "2025-10-29",
        days: 9,
        lateAfterDays: 8,
      }),
    ]);
    // A quiet note: no mail of its own, a line in the next alert of the case.
    expect(sent.filter((m) => m.to === ANA).map((m) => m.subject)).toEqual([
      expect.stringContaining("Edital"),
    ]);
    const footer = sent.find((m) => m.to === ANA)?.text ?? "";
    expect(footer).toContain(
      "Fontes: DataJud atualizado em 28/10/2025; DJEN consultado em 07/11/2025 10:00",
    );
    expect(footer).toContain("DataJud atrasado neste processo");
    const mcp = await mcpFreshness({ cnjNumber: despejo });
    expect(mcp.dataJudLate).toEqual([
      expect.objectContaining({
        cnjNumber: despejo,
        days: 9,
        note: "DataJud atrasado neste processo",
      }),
    ]);
    expect(mcp.courts.map((c) => c.summary)).toEqual([
      "DataJud TJDFT: newest update 10 days ago; usual lag 3 days (p90 8, 5 acts); DJEN lag 1 day",
    ]);
    expect(mcp.case?.instances).toEqual([
      expect.objectContaining({ court: "tjdft", lastUpdatedAt: "2025-10-28T08:00:00" }),
    ]);

    recordAvailability("2025-10-29", "2025-11-10");
    const arrival = (await sweepOn("2025-11-10")).filter((m) => m.to === ANA);
    // The DataJud alert bringing the movement: its sources line, and no note any more.
    expect(arrival).toHaveLength(1);
    expect(arrival[0]?.text).toContain("Fontes: DataJud atualizado em 10/11/2025;");
    expect(arrival[0]?.text).not.toContain("DataJud atrasado");
    expect(freshness().dataJudLate.filter((l) => l.court === "tjdft")).toEqual([]);
    expect(freshness().courts.find((c) => c.court === "tjdft")?.lag).toMatchObject({
      samples: 6,
      max: 12,
    });
  }, 60_000);

  it("tells mail.admin once of TJSP, silent in DataJud while DJEN publishes", async () => {
    // Since 1 October no move, past 30 days (3 x the default 10) by 3 November: the sweeps of 7
    // and 10 November saw it.
    const admin = mails.filter((m) => m.to === ADMIN && m.subject.includes("silent"));
    expect(admin).toHaveLength(1);
    expect(admin[0]?.subject).toBe("[datajud] ⚠ DataJud silent for TJSP while DJEN publishes");
    expect(admin[0]?.text).toContain(
      "DJEN made 1 publication of these cases available, the newest on 15/10/2025",
    );
    const tjsp = freshness().courts.find((c) => c.court === "tjsp");
    expect(tjsp?.silentSince).not.toBeNull();
    expect(freshnessLines(freshness(), "America/Sao_Paulo")).toContainEqual(
      expect.stringContaining("DataJud TJSP: newest update"),
    );
    expect(
      freshnessLines(freshness(), "America/Sao_Paulo").find((l) => l.startsWith("DataJud TJSP")),
    ).toContain("SILENT while DJEN publishes");
    // status names it among what needs attention (exit 3), in text and in --json.
    const status = await cliInProcess(["status", "--json"], env, dir);
    expect(status.code).toBe(3);
    expect(JSON.parse(status.stdout).attention).toContainEqual(
      "DataJud silent for TJSP while DJEN publishes",
    );
  });

  it("warns once of a DataJud disponibilização DJEN, asked completely, did not return", async () => {
    recordAvailability("2025-11-11", "2025-11-12");
    const first = gapWarnings(await sweepOn("2025-11-12"));
    expect(first).toHaveLength(1);
    expect(first[0]?.to).toBe(ANA);
    expect(first[0]?.subject).toContain("⚠ URGENTE");
    expect(first[0]?.text).toContain(
      "O DataJud registra uma intimação disponibilizada em 11/11/2025 que o DJEN não devolveu: confira no tribunal.",
    );
    expect(gapWarnings(await sweepOn("2025-11-13"))).toEqual([]);
    expect(freshness().djenGaps).toEqual([
      expect.objectContaining({ number: despejo, availableOn: "2025-11-11", urgent: true }),
    ]);
    expect((await mcpFreshness({})).djenGaps).toEqual([
      expect.objectContaining({
        cnjNumber: despejo,
        warning:
          "O DataJud registra uma intimação disponibilizada em 11/11/2025 que o DJEN não devolveu: confira no tribunal.",
      }),
    ]);
  }, 60_000);

  it("waits while DJEN's answer for those days is incomplete or failed, then warns once", async () => {
    // DJEN's last whole answer was on 13 November; the act is of 14 November.
    recordAvailability("2025-11-14", "2025-11-17");
    // An answer that ignored the filters: refused, a failed check (not "nothing found").
    djen.failAlways({ ignoreFilters: true });
    expect(gapWarnings(await sweepOn("2025-11-17"))).toEqual([]);
    djen.failAlways({ status: 500, body: { message: "erro" } });
    expect(gapWarnings(await sweepOn("2025-11-18"))).toEqual([]);
    djen.failAlways(null);
    const after = gapWarnings(await sweepOn("2025-11-19"));
    expect(after).toHaveLength(1);
    expect(after[0]?.text).toContain("disponibilizada em 14/11/2025");
    expect(gapWarnings(await sweepOn("2025-11-20"))).toEqual([]);
  }, 60_000);

  it("names TJSP's silence in a receipt of the day, for the case it holds", () => {
    // As the mail tick would at 18:00 on 20 November, had Ana asked for receipts.
    const policy = monitor.mail.policy();
    const queued = queueDueReceipts({
      db: monitor.db,
      now: new Date(Date.parse("2025-11-20T21:00:00.000Z")),
      domain: "monitor.example.com",
      policy: {
        ...policy,
        watchers: [
          {
            address: ANA,
            delivery: null,
            digestSchedule: null,
            statusReport: null,
            receipt: "18:00",
            line: 1,
          },
        ],
      },
      cases: watchlist.cases,
      oab: [],
      djenEnabled: true,
    });
    expect(queued).toBe(1);
    const row = monitor.db
      .prepare<[], { payload: string }>(
        "SELECT payload FROM outbox WHERE message_type = 'receipt' ORDER BY id DESC LIMIT 1",
      )
      .get();
    const receipt = Receipt.parse(JSON.parse(row?.payload ?? "null"));
    const [tjdft, tjsp] = receipt.cases;
    expect(receiptProblems(tjdft as NonNullable<typeof tjdft>, "America/Sao_Paulo")).toEqual([]);
    // No move since the first sweep, 1 October (the silence was found on 3 November).
    expect(receiptProblems(tjsp as NonNullable<typeof tjsp>, "America/Sao_Paulo")).toEqual([
      "DataJud sem atualizações do TJSP desde 01/10/2025, enquanto o DJEN publica",
    ]);
    expect(tjsp?.datajud.silentSince).toBe(
      freshness().courts.find((c) => c.court === "tjsp")?.silentSince,
    );
  });

  it("closes TJSP's silence when DataJud moves its record again", async () => {
    tjspDoc._source.dataHoraUltimaAtualizacao = "2025-11-20T18:00:00.000Z";
    datajud.upsert("tjsp", structuredClone(tjspDoc));
    await sweepOn("2025-11-21");
    expect(freshness().courts.find((c) => c.court === "tjsp")?.silentSince).toBeNull();
    expect(mails.filter((m) => m.to === ADMIN && m.subject.includes("silent"))).toHaveLength(1);
  }, 60_000);
});
