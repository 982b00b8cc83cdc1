import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { partyLine } from "../../../src/cli/radar-status.js";
import type { MonitorHandles } from "../../../src/cli/runtime.js";
import { readStatus } from "../../../src/cli/status.js";
import { computeCheckDigits, formatCnjNumber } from "../../../src/datajud/cnj-number.js";
import { silentLogger } from "../../../src/log.js";
import { callTool } from "../../../src/mcp/tool-caller.js";
import { ListPartyHitsOutput } from "../../../src/mcp/tools/list-party-hits.js";
import { MonitorMetrics } from "../../../src/metrics/metrics.js";
import { askDueBetweenSweeps } from "../../../src/monitor/publications/between-sweeps.js";
import type { RunReport } from "../../../src/monitor/run-report.js";
import { partyHitTotals } from "../../../src/store/party-hits.js";
import type { Watchlist } from "../../../src/watchlist/parse-watchlist.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import type { FakeDataJud } from "../../fakes/fake-datajud.js";
import { djenItem, type FakeDjen } from "../../fakes/fake-djen.js";
import type { SmtpSink } from "../../fakes/smtp-sink.js";
import { cliInProcess, n } from "../../support/cli-harness.js";
import { type DjenSweep, type Mail, startDjenSweep } from "../../support/djen-sweep.js";
import { connectMonitorMcp } from "../../support/monitor-mcp.js";

/*
 * The party radar end to end: the real sweep (MCP, DJEN client, SQLite, outbox, SMTP) against a
 * fake DJEN that answers `nomeParte` loosely (every word as a substring, accents ignored), on a
 * fake clock. A first look is a baseline; then each new case naming a watched party is told once,
 * with how sure the match is and why; what names nobody is dropped; a watched case's item is its
 * own; a later item of a case already told is no new lawsuit.
 */

const ANA = "ana@example.com";
const JOAO = "joao@example.com";

const despejo = n.tjdftDespejo; // watched

/** A TJSP number filed in 2026 with valid check digits. */
function tjsp(sequence: number): string {
  const seq = String(sequence).padStart(7, "0");
  return `${seq}${computeCheckDigits(seq, "2026", "8", "26", "0100")}2026826${"0100"}`;
}

const BASELINE_CASE = tjsp(1000001);
const CONFIRMED = tjsp(1000002);
const PROBABLE = tjsp(1000003);
const LONGER_NAME = tjsp(1000004);
const HOMONYM = tjsp(1000005);
const TWO_ALIASES = tjsp(1000006);
const DROPPED = tjsp(1000007);

const WATCHLIST = `
defaults:
  notify: [${ANA}]
cases:
  - number: "${despejo}"
    label: "Despejo"
parties:
  - name: "ACME Comércio Ltda."
    cpf_cnpj: "11.222.333/0001-81"
    aliases: ["ACME ALIMENTOS"]
    notify: [${JOAO}]
  - name: "José Carlos Pereira Neto"
    cpf_cnpj: "529.982.247-25"
    later: publications
`;

/** Tuesday 30 September 2025, 10:00 in São Paulo. */
const START = Date.UTC(2025, 8, 30, 13, 0);
const HOUR = 3_600_000;

let harness: DjenSweep;
let dir: string;
let datajud: FakeDataJud;
let djen: FakeDjen;
let sink: SmtpSink;
let monitor: MonitorHandles;
let watchlist: Watchlist;
let env: Record<string, string>;
const clock = new FakeClock({ now: START, autoAdvance: true });
const reports: RunReport[] = [];
const mails: Mail[][] = [];

async function step(): Promise<void> {
  const before = sink.messages.length;
  clock.set(clock.now() + HOUR);
  reports.push(await harness.sweep());
  mails.push(await harness.mailsSince(before));
}

function hits(): Array<{ caseNumber: string; confidence: string; disposition: string | null }> {
  return monitor.db
    .prepare<[], { caseNumber: string; confidence: string; disposition: string | null }>(
      `SELECT case_number AS caseNumber, confidence, disposition FROM party_hits
       ORDER BY case_number, id`,
    )
    .all();
}

const ACME_PASSIVE = [
  { name: "FULANO DE TAL", polo: "A" },
  { name: "ACME COMERCIO LTDA", polo: "P" },
];

beforeAll(async () => {
  harness = await startDjenSweep({
    prefix: "monitor-radar-",
    apiKey: "radar-key",
    watchlist: WATCHLIST,
    // Sweeps an hour apart: every party name asked at each (the plan is tested on its own).
    env: { DJEN_PARTY_EVERY_HOURS: "1" },
    clock,
  });
  ({ dir, datajud, djen, sink, env, monitor, watchlist } = harness);

  // 1. What DJEN already holds at the first look: a baseline, recorded and not told.
  djen.setItems([
    djenItem({ id: 2000, caseNumber: BASELINE_CASE, court: "TJSP", recipients: ACME_PASSIVE }),
  ]);
  await step();

  // 2. New items, each naming ACME or José differently.
  djen.add(
    // Confirmado: the CNPJ in the text; a citação.
    djenItem({
      id: 2001,
      caseNumber: CONFIRMED,
      court: "TJSP",
      date: "2025-09-30",
      kind: "Citação",
      texto: "<p>Cite-se ACME COMÉRCIO LTDA., CNPJ 11.222.333/0001-81, para contestar.</p>",
      recipients: ACME_PASSIVE,
    }),
    // Provável: the exact name (accents, case and punctuation aside) and its polo.
    djenItem({
      id: 2002,
      caseNumber: PROBABLE,
      court: "TJSP",
      recipients: [{ name: "Acme Comércio Ltda", polo: "P" }],
    }),
    // Possível homônimo: a longer, different company name.
    djenItem({
      id: 2003,
      caseNumber: LONGER_NAME,
      court: "TJSP",
      recipients: [{ name: "ACME COMÉRCIO DE ALIMENTOS CONGELADOS LTDA", polo: "P" }],
    }),
    // Possível homônimo: a person of José's name, with another CPF beside it.
    djenItem({
      id: 2004,
      caseNumber: HOMONYM,
      court: "TJSP",
      texto: "<p>Intime-se JOSÉ CARLOS PEREIRA NETO, CPF 111.444.777-35.</p>",
      recipients: [{ name: "JOSE CARLOS PEREIRA NETO", polo: "A" }],
    }),
    // Found under both of ACME's names: one hit, one alert.
    djenItem({
      id: 2005,
      caseNumber: TWO_ALIASES,
      court: "TJSP",
      texto: "<p>Intime-se ACME COMÉRCIO LTDA (ACME ALIMENTOS).</p>",
      recipients: [{ name: "ACME ALIMENTOS", polo: "P" }],
    }),
    // DJEN's loose search brings it; it names neither party: dropped.
    djenItem({
      id: 2006,
      caseNumber: DROPPED,
      court: "TJSP",
      recipients: [{ name: "ACME COMERCIOS REUNIDOS LTDA", polo: "P" }],
    }),
    // A watched case's own item: its publication, not a radar hit.
    djenItem({ id: 2007, caseNumber: n.tjdftDespejo.replace(/\D/g, ""), recipients: ACME_PASSIVE }),
  );
  await step();

  // 3. A second item of the confirmed case, and the baseline case's: no new lawsuit. A second
  // item of José's case: no new lawsuit either, but José's later: publications mails it.
  djen.add(
    djenItem({ id: 2008, caseNumber: CONFIRMED, court: "TJSP", recipients: ACME_PASSIVE }),
    djenItem({ id: 2009, caseNumber: BASELINE_CASE, court: "TJSP", recipients: ACME_PASSIVE }),
    djenItem({
      id: 2010,
      caseNumber: HOMONYM,
      court: "TJSP",
      documentType: "Sentença",
      recipients: [{ name: "JOSE CARLOS PEREIRA NETO", polo: "A" }],
    }),
  );
  await step();
}, 60_000);

afterAll(async () => {
  await harness?.close();
});

describe("the party radar", () => {
  it("asks DJEN each name and alias by nomeParte", () => {
    const asked = new Set(djen.requests.flatMap((r) => r.params.nomeParte ?? []));

    expect(asked).toEqual(
      new Set(["ACME COMERCIO LTDA", "ACME ALIMENTOS", "JOSE CARLOS PEREIRA NETO"]),
    );
  });

  it("records the first look's hits as a baseline and tells nobody", () => {
    expect(mails[0]?.filter((m) => m.subject.includes("nova ação"))).toEqual([]);
    expect(hits().filter((h) => h.caseNumber === BASELINE_CASE)[0]?.disposition).toBe("baseline");
  });

  it("tells each new case once, with how sure and why", () => {
    const radar = (mails[1] ?? []).filter((m) => m.subject.includes("Possível nova ação"));

    // ACME's watchers are defaults.notify and its own; José's, defaults.notify. DJEN's items are
    // intimações and a citação: urgent, as any DJEN item that may start a deadline.
    const acme = (cnj: string, how: string, to: string): string =>
      `${to} [datajud] ⚠ URGENTE Possível nova ação contra ACME Comércio Ltda.: TJSP ${formatCnjNumber(cnj)}, polo passivo — ${how}`;
    expect(radar.map((m) => `${m.to} ${m.subject}`).sort()).toEqual(
      [
        ...[ANA, JOAO].flatMap((to) => [
          acme(CONFIRMED, "confirmado", to),
          acme(PROBABLE, "provável", to),
          acme(LONGER_NAME, "possível homônimo", to),
          acme(TWO_ALIASES, "provável", to),
        ]),
        `${ANA} [datajud] ⚠ URGENTE Possível nova ação contra José Carlos Pereira Neto: TJSP ${formatCnjNumber(HOMONYM)}, polo ativo — possível homônimo`,
      ].sort(),
    );
    const confirmed = radar.find((m) => m.subject.includes(formatCnjNumber(CONFIRMED)));
    expect(confirmed?.text).toContain(
      "citação disponibilizada em 30/09/2025 — confirmado: o CNPJ 11.222.333/0001-81 consta do texto.",
    );
    expect(confirmed?.text).toContain(
      `datajud-monitor watch ${formatCnjNumber(CONFIRMED)} --label`,
    );
    expect(confirmed?.text).toContain("Disponibilizada no DJEN em: 30/09/2025");
    expect(confirmed?.text).toContain("(estimativa)");
    const homonym = radar.find((m) => m.subject.includes(formatCnjNumber(HOMONYM)));
    expect(homonym?.text).toContain("outro CPF (111.444.777-35)");
  });

  it("drops what names no party and leaves a watched case's items to it", () => {
    expect(hits().map((h) => h.caseNumber)).not.toContain(DROPPED);
    expect(hits().map((h) => h.caseNumber)).not.toContain(n.tjdftDespejo.replace(/\D/g, ""));
    const despejoMail = (mails[1] ?? []).filter((m) => m.subject.includes("Despejo"));
    expect(despejoMail.map((m) => m.to)).toEqual([ANA]);
  });

  it("keeps one hit for an item found under two aliases", () => {
    expect(hits().filter((h) => h.caseNumber === TWO_ALIASES)).toEqual([
      { caseNumber: TWO_ALIASES, confidence: "provavel", disposition: "alert" },
    ]);
  });

  it("takes a later item of a case already told for no new lawsuit", () => {
    // ACME's later items are recorded only (later: none); José's is mailed as a publication.
    expect((mails[2] ?? []).map((m) => `${m.to} ${m.subject}`)).toEqual([
      // 29/09 made available, 30/09 published, 15 working days from 01/10 (CPC arts. 219, 224):
      // 01-03, 06-10, 13-17, 20, 21 October.
      `${ANA} [datajud] ⚠ URGENTE Publicação em processo fora da lista: Intimação · ${formatCnjNumber(HOMONYM)} (prazo até 21/10/2025, estimativa)`,
    ]);
    expect(mails[2]?.[0]?.text).toContain(
      "Publicação posterior do processo em que o radar de partes achou José Carlos Pereira Neto",
    );
    expect(
      hits()
        .filter((h) => h.caseNumber === HOMONYM)
        .map((h) => h.disposition),
    ).toEqual(["alert", "publication"]);
    expect(hits().filter((h) => h.caseNumber === CONFIRMED)).toEqual([
      { caseNumber: CONFIRMED, confidence: "confirmado", disposition: "alert" },
      { caseNumber: CONFIRMED, confidence: "provavel", disposition: "later" },
    ]);
    expect(
      hits()
        .filter((h) => h.caseNumber === BASELINE_CASE)
        .map((h) => h.disposition),
    ).toEqual(["baseline", "later"]);
  });

  it("lists the hits per party through the MCP tool, news of each new case first", async () => {
    const mcp = await connectMonitorMcp(
      {
        dir,
        dbPath: join(dir, "monitor.db"),
        outboxDir: dir,
        watchlistPath: join(dir, "watchlist.yaml"),
      },
      datajud,
    );
    try {
      const acme = await callTool(
        mcp.connection.client,
        "list_party_hits",
        { party: "11.222.333/0001-81", since: "2025-01-01" },
        ListPartyHitsOutput,
        { timeoutMs: 10_000 },
      );

      expect(acme.parties).toEqual([
        {
          partyKey: "cnpj:11222333000181",
          newCases: 5,
          hits: 7,
          confirmado: 1,
          provavel: 5,
          homonimo: 1,
        },
      ]);
      expect(
        acme.hits.map((h) => `${h.cnjNumber} ${h.confidence} ${h.disposition}`).sort(),
      ).toEqual(
        [
          `${formatCnjNumber(BASELINE_CASE)} provavel baseline`,
          `${formatCnjNumber(CONFIRMED)} confirmado alert`,
          `${formatCnjNumber(PROBABLE)} provavel alert`,
          `${formatCnjNumber(LONGER_NAME)} homonimo alert`,
          `${formatCnjNumber(TWO_ALIASES)} provavel alert`,
        ].sort(),
      );
      const jose = await callTool(
        mcp.connection.client,
        "list_party_hits",
        { party: "jose carlos pereira neto", since: "2025-01-01", newCasesOnly: false },
        ListPartyHitsOutput,
        { timeoutMs: 10_000 },
      );
      expect(jose.hits.map((h) => h.reason)).toEqual([
        expect.stringContaining("tem o nome do cliente, mas o CPF não consta da publicação"),
        expect.stringContaining("outro CPF (111.444.777-35)"),
      ]);
    } finally {
      await mcp.close();
    }
  });

  it("counts each party's names and findings in status, and the hits in /metrics", async () => {
    const status = readStatus(monitor.db, {
      watchlist,
      now: new Date(clock.now()),
      timezone: "America/Sao_Paulo",
      djen: { enabled: true, plan: null },
    });
    const metrics = new MonitorMetrics({ processMetrics: false });
    metrics.readStoredFrom({
      casesByOutcome: () => ({}),
      outboxByState: () => ({}),
      partyHits: () => partyHitTotals(monitor.db),
    });

    expect(status.parties?.map((p) => partyLine(p, () => "at the last sweep"))).toEqual([
      "party ACME Comércio Ltda. (CNPJ 11.222.333/0001-81): 2 names asked, DJEN last checked at the last sweep; 5 new lawsuits (1 confirmado, 3 provável, 1 possível homônimo), 2 later items",
      "party José Carlos Pereira Neto (CPF 529.982.247-25): 1 name asked, DJEN last checked at the last sweep; 1 new lawsuit (0 confirmado, 0 provável, 1 possível homônimo), 1 later item",
    ]);
    const text = await metrics.registry.metrics();
    expect(text).toContain(
      'datajud_monitor_party_hits{confidence="confirmado",disposition="alert"} 1',
    );
    expect(text).toContain(
      'datajud_monitor_party_hits{confidence="provavel",disposition="later"} 2',
    );
  });

  it("prints each party's history on the command line, later items with --all", async () => {
    const result = await cliInProcess(["radar", "ACME Alimentos", "--all"], env, dir);

    expect(result.code).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toContain(
      "party ACME Comércio Ltda. (CNPJ 11.222.333/0001-81): 2 names asked",
    );
    expect(lines[1]).toMatch(/^seen +case +court +match +polo +done +why/);
    expect(lines.filter((l) => l.includes(formatCnjNumber(CONFIRMED)))).toEqual([
      expect.stringMatching(/TJSP +provável +P +later +o destinatário/),
      expect.stringMatching(
        /TJSP +confirmado +P +alert +o CNPJ 11.222.333\/0001-81 consta do texto/,
      ),
    ]);
    const json = await cliInProcess(["radar", "529.982.247-25", "--json"], env, dir);
    expect(JSON.parse(json.stdout).parties[0].hits[0].confidence).toBe("homonimo");
    const unknown = await cliInProcess(["radar", "Beta Transportes"], env, dir);
    expect(unknown.code).toBe(2);
  });

  it("hears of a new lawsuit between sweeps, once its name is due again (the daemon)", async () => {
    const publications = monitor.sweep.publications;
    const report = monitor.sweep.report;
    if (publications === undefined || report === undefined) throw new Error("DJEN is off");
    const later = tjsp(1000008);
    djen.add(
      djenItem({
        id: 2011,
        caseNumber: later,
        court: "TJSP",
        date: "2025-09-30",
        recipients: [{ name: "ACME COMERCIO LTDA", polo: "P" }],
      }),
    );
    const before = sink.messages.length;
    const deps = {
      db: monitor.db,
      clock,
      logger: silentLogger(),
      publications,
      watchlist: () => watchlist,
      report,
      random: () => 0.5,
      host: monitor.system,
    };

    clock.set(clock.now() + 2 * HOUR);
    await askDueBetweenSweeps(deps, new AbortController().signal);

    const subjects = (await harness.mailsSince(before))
      .map((m) => m.subject)
      .filter((subject) => subject.includes(formatCnjNumber(later)));
    expect(subjects).toEqual([
      `[datajud] ⚠ URGENTE Possível nova ação contra ACME Comércio Ltda.: TJSP ${formatCnjNumber(later)}, polo passivo — provável`,
      `[datajud] ⚠ URGENTE Possível nova ação contra ACME Comércio Ltda.: TJSP ${formatCnjNumber(later)}, polo passivo — provável`,
    ]);
  });
});
