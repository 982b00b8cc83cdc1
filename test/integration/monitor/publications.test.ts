import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MonitorHandles } from "../../../src/cli/runtime.js";
import type { RunReport } from "../../../src/monitor/run-report.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import { djenItem, type FakeDjen } from "../../fakes/fake-djen.js";
import type { SmtpSink } from "../../fakes/smtp-sink.js";
import { cliInProcess, n } from "../../support/cli-harness.js";
import { type DjenSweep, type Mail, startDjenSweep } from "../../support/djen-sweep.js";

/*
 * DJEN publications end to end: the real sweep (MCP client and server, DJEN and DataJud clients,
 * SQLite, outbox, SMTP) against the fake DJEN and the fake DataJud, on a fake clock. A first
 * sweep is a silent baseline; then a publication for a watched case and one found through a
 * watched OAB under a suffix variant reach their watchers once, with the counting dates; the
 * policy applies; a cancellation sends one correction.
 */

const ANA = "ana@example.com";
const RUI = "rui@example.com";
const JOAO = "joao@example.com";
const ADMIN = "ti@example.com";

const despejo = n.tjdftDespejo; // watched, Ana
const reclamacao = n.trt2Reclamacao; // watched, muted
const previdenciario = n.trf1Previdenciario; // watched, Ana and Rui (digest)
const outside = n.tjspCobranca; // not watched: found only through João's OAB

const digits = (formatted: string): string => formatted.replace(/\D/g, "");

const WATCHLIST = `
defaults:
  notify: [${ANA}]
  ignore: [despacho, edital]
cases:
  - number: "${despejo}"
    label: "Despejo"
  - number: "${reclamacao}"
    label: "Reclamação"
    muted: true
  - number: "${previdenciario}"
    label: "Previdenciário"
    notify: [${RUI}]
watchers:
  - address: ${RUI}
    delivery: digest
  - address: ${JOAO}
    oab: ["123456/SP"]
`;

const CONFIG = `
schedule:
  startJitterSeconds: 0
mail:
  from: "Monitor <monitor@monitor.example.com>"
  admin: ${ADMIN}
  healthAfterFailedSweeps: 2
`;

/** Tuesday 30 September 2025, 10:00 in São Paulo: DJEN's window is 29 and 30 September. */
const START = Date.UTC(2025, 8, 30, 13, 0);
const HOUR = 3_600_000;

const OTHER_LAWYER = [{ name: "BETO ADVOGADO", oab: "999", uf: "DF" }];

const HOSTILE =
  '<p>Fica a parte <b>intimada</b> para manifestar-se.</p><script>alert("x")</script><img src=x onerror="alert(1)"><a href="javascript:alert(2)">clique aqui</a> &lt;b&gt;literal&lt;/b&gt; \u202Efim';

const DESPEJO_INTIMACAO = {
  id: 1002,
  caseNumber: digits(despejo),
  date: "2025-09-30",
  texto: HOSTILE,
  lawyers: OTHER_LAWYER,
};

let harness: DjenSweep;
let dir: string;
let djen: FakeDjen;
let sink: SmtpSink;
let monitor: MonitorHandles;
let env: Record<string, string>;
const clock = new FakeClock({ now: START, autoAdvance: true });

async function sweep(): Promise<RunReport> {
  clock.set(clock.now() + HOUR);
  return harness.sweep();
}

function mailsSince(count: number): Promise<Mail[]> {
  return harness.mailsSince(count);
}

function publicationRows(): Array<{
  djenId: string;
  disposition: string | null;
  baseline: number;
}> {
  return monitor.db
    .prepare<[], { djenId: string; disposition: string | null; baseline: number }>(
      "SELECT djen_id AS djenId, disposition, baseline FROM publications ORDER BY djen_id",
    )
    .all();
}

const reports: RunReport[] = [];
let djenRequestsBeforeGap = 0;
const mails: Mail[][] = [];

async function step(): Promise<void> {
  const before = sink.messages.length;
  reports.push(await sweep());
  mails.push(await mailsSince(before));
}

beforeAll(async () => {
  // Sweeps an hour apart: every source asked at each (the harness's default; the plan is tested
  // on its own).
  harness = await startDjenSweep({
    prefix: "monitor-djen-",
    apiKey: "djen-key",
    watchlist: WATCHLIST,
    config: CONFIG,
    clock,
  });
  ({ dir, djen, sink, env, monitor } = harness);

  // 1. What DJEN already holds when the monitor first looks: a baseline.
  djen.setItems([
    djenItem({ id: 1001, caseNumber: digits(despejo), date: "2025-09-29", lawyers: OTHER_LAWYER }),
  ]);
  await step();

  // 2. New publications: for a watched case (hostile text), in a case outside the watchlist
  // addressed to João's OAB stored with a suffix, in a muted case, an edital the rules ignore,
  // and an intimação for a case Rui follows by digest.
  djen.add(
    djenItem(DESPEJO_INTIMACAO),
    djenItem({
      id: 1003,
      caseNumber: digits(outside),
      court: "TJSP",
      date: "2025-09-30",
      lawyers: [{ name: "JOÃO ADVOGADO", oab: "123456-O", uf: "SP" }],
    }),
    djenItem({ id: 1004, caseNumber: digits(reclamacao), court: "TRT2", lawyers: OTHER_LAWYER }),
    djenItem({
      id: 1005,
      caseNumber: digits(previdenciario),
      court: "TRF1",
      kind: "Edital",
      documentType: "Edital",
      lawyers: OTHER_LAWYER,
    }),
    djenItem({
      id: 1006,
      caseNumber: digits(previdenciario),
      court: "TRF1",
      date: "2025-09-30",
      documentType: "Sentença",
      lawyers: OTHER_LAWYER,
    }),
    // A watched case's citação addressed to João's registration stored with another suffix:
    // found by the case and by the registration, told once to Ana (case) and once to João (OAB).
    djenItem({
      id: 1008,
      caseNumber: digits(despejo),
      date: "2025-09-30",
      kind: "Citação",
      documentType: "Decisão",
      lawyers: [{ name: "JOÃO ADVOGADO", oab: "123456-S", uf: "SP" }],
    }),
  );
  await step();

  // 3. The same feed again: nothing is new.
  await step();

  // 4. The court cancels 1002 (DJEN keeps its id); 5. DJEN keeps showing it cancelled.
  djen.setItems([
    djenItem({ ...DESPEJO_INTIMACAO, cancelled: "Publicada por engano" }),
    ...djen.items().filter((item) => item.id !== 1002),
  ]);
  await step();
  await step();

  // 6. The server is down four days (Thursday 2 to Sunday 5 October); on Monday 6 an intimação
  // made available on Friday 3 is outside the two-day window but after the last complete check.
  clock.set(Date.UTC(2025, 9, 6, 12, 0));
  djen.add(
    djenItem({ id: 1007, caseNumber: digits(despejo), date: "2025-10-03", lawyers: OTHER_LAWYER }),
  );
  djenRequestsBeforeGap = djen.requests.length;
  await step();
}, 120_000);

afterAll(async () => {
  await harness?.close();
});

describe("DJEN publications in sweeps", () => {
  it("records the first sweep's publications as a baseline, mailing nothing", () => {
    expect(mails[0]).toEqual([]);
    expect(reports[0]?.publications).toMatchObject({ checked: 4, failed: 0, newPublications: 1 });
  });

  it("mails the publication outside the watchlist first, then the watched cases', once each", () => {
    expect(mails[1]?.map((m) => `${m.to} ${m.subject}`)).toEqual([
      `${JOAO} [datajud] ⚠ URGENTE Publicação em processo fora da lista: Intimação · ${outside} (prazo até 22/10/2025, estimativa)`,
      `${ANA} [datajud] ⚠ URGENTE Intimação no DJEN: Despejo (prazo a partir de 02/10/2025, estimativa)`,
      // A citação's period runs from the citação itself (CPC art. 231), not from DJEN.
      `${ANA} [datajud] ⚠ URGENTE Citação no DJEN: Despejo (citação: prazo conforme CPC art. 231)`,
      `${JOAO} [datajud] ⚠ URGENTE Citação no DJEN: Despejo (citação: prazo conforme CPC art. 231)`,
      // "no prazo de 15 dias" from Thu 02/10/2025: 2,3,6,7,8,9,10,13,14,15,16,17,20,21,22/10.
      `${ANA} [datajud] ⚠ URGENTE Intimação no DJEN: Previdenciário (prazo até 22/10/2025, estimativa)`,
      `${RUI} [datajud] ⚠ URGENTE 1 publicação no DJEN`,
    ]);
    expect(mails[2]).toEqual([]);
    expect(reports[1]?.publications).toMatchObject({
      checked: 4,
      failed: 0,
      newPublications: 6,
      outsideWatchlist: 1,
    });
  });

  it("gives the counting dates as estimates, with the kind, document type and court unit", () => {
    const alert = mails[1]?.find((m) => m.subject.includes("Despejo"));

    expect(alert?.text).toContain("Disponibilizada no DJEN em: 30/09/2025 (terça-feira)");
    expect(alert?.text).toContain(
      "Considera-se publicada em: 01/10/2025 (quarta-feira) (estimativa)",
    );
    expect(alert?.text).toContain(
      "Prazo começa a contar em: 02/10/2025 (quinta-feira) (estimativa)",
    );
    expect(alert?.text).toContain("Regra: Intimação pelo DJEN");
    expect(alert?.text).toContain("O texto não informa prazo: não estimamos o último dia.");
    expect(alert?.text).toContain("nunca depois da resposta da lei");
    expect(alert?.text).toContain("Tipo: Intimação");
    expect(alert?.text).toContain("Documento: Despacho");
    expect(alert?.text).toContain("Órgão: 1ª Vara Cível de Ceilândia");
    // DJEN's polo "A" and "P" as a lawyer says them.
    expect(alert?.text).toContain(
      "Destinatários: FULANO DE TAL (polo ativo); EMPRESA X LTDA (polo passivo)",
    );
    expect(alert?.text).toContain(
      `Certidão de publicação (DJEN): ${djen.url}/api/v1/comunicacao/h1002AbCdEf/certidao`,
    );
    expect(alert?.text).toContain(
      "Documento no tribunal: https://pje.example.jus.br/documento/123",
    );
  });

  it("shows DJEN's hostile text as plain text, and escapes all of it in HTML", () => {
    const alert = mails[1]?.find((m) => m.subject.includes("Despejo"));

    expect(alert?.text).toContain("Fica a parte intimada para manifestar-se.");
    expect(alert?.text).toContain("clique aqui");
    expect(alert?.text).toContain("<b>literal</b>");
    expect(alert?.text).not.toContain("alert(");
    expect(alert?.text).not.toContain("\u202E");
    expect(alert?.html).not.toMatch(/<script|onerror|javascript:|<img/i);
    expect(alert?.html).toContain("&lt;b&gt;literal&lt;/b&gt;");
  });

  it("says the outside publication was found through the OAB, under the registration asked for", () => {
    const alert = mails[1]?.[0];

    expect(alert?.text).toContain(
      "Publicação em processo fora da lista: encontrada pela OAB 123456/SP; o processo não está no watchlist.",
    );
    expect(alert?.text).toContain("JOÃO ADVOGADO, OAB 123456-O/SP");
    expect(
      djen.requests
        .map((r) => r.params.numeroOab)
        .filter(Boolean)
        .slice(0, 7),
    ).toEqual(["123456", "123456-O", "123456-A", "123456-N", "123456-B", "123456-S", "123456-E"]);
  });

  it("tells a watched case's citação to its watcher and to the registration's follower, once each, saying where its count runs", () => {
    const citacoes = mails
      .flat()
      .filter((m) => m.subject.includes("Citação no DJEN: Despejo"))
      .map((m) => m.to);
    const joao = mails[1]?.find((m) => m.to === JOAO && m.subject.includes("Citação"));

    expect(citacoes.sort()).toEqual([ANA, JOAO]);
    expect(joao?.text).toContain("JOÃO ADVOGADO, OAB 123456-S/SP");
    expect(joao?.text).toContain(
      "Considera-se publicada em: 01/10/2025 (quarta-feira) (estimativa)",
    );
    expect(joao?.text).toContain("Citação: o prazo não corre da publicação no DJEN.");
    expect(joao?.text).not.toContain("Prazo começa a contar em");
    expect(joao?.text).not.toContain("fora da lista");
  });

  it("applies the policy: muted case silent, ignored edital silent, intimação urgent despite ignore: [despacho]", () => {
    expect(publicationRows()).toEqual([
      { djenId: "1001", disposition: "baseline", baseline: 1 },
      { djenId: "1002", disposition: "alert", baseline: 0 },
      { djenId: "1003", disposition: "alert", baseline: 0 },
      { djenId: "1004", disposition: "muted", baseline: 0 },
      { djenId: "1005", disposition: "ignored", baseline: 0 },
      { djenId: "1006", disposition: "alert", baseline: 0 },
      { djenId: "1007", disposition: "alert", baseline: 0 },
      { djenId: "1008", disposition: "alert", baseline: 0 },
    ]);
  });

  it("puts the publication in the digest of a digest watcher", () => {
    const digest = mails[1]?.find((m) => m.to === RUI);

    expect(digest?.text).toContain("PUBLICAÇÕES NO DJEN (1)");
    expect(digest?.text).toContain("⚠ URGENTE Intimação · Previdenciário");
    expect(digest?.text).toContain(
      "prazo a partir de 02/10/2025; último dia 22/10/2025 (estimativas)",
    );
  });

  it("sends one correction when DJEN shows a mailed publication cancelled, to those told of it", () => {
    expect(mails[3]?.map((m) => `${m.to} ${m.subject}`)).toEqual([
      `${ANA} [datajud] Publicação cancelada no DJEN: Despejo (Intimação de 30/09/2025)`,
    ]);
    expect(mails[3]?.[0]?.text).toContain("Motivo informado: Publicada por engano");
    // DJEN wrote "2025-09-30T18:00:00" (no zone, read as UTC): 15:00 in São Paulo, the schedule's.
    expect(mails[3]?.[0]?.text).toContain("Cancelada em (segundo o DJEN): 30/09/2025 15:00");
    expect(mails[3]?.[0]?.text).not.toContain("T18:00:00");
    expect(mails[4]).toEqual([]);
    expect(reports[3]?.publications).toMatchObject({ cancelled: 1, newPublications: 0 });
  });

  it("after days without a sweep, asks again from the day of the last complete check", () => {
    expect(mails[5]?.map((m) => `${m.to} ${m.subject}`)).toEqual([
      `${ANA} [datajud] ⚠ URGENTE Intimação no DJEN: Despejo (prazo até 27/10/2025, estimativa)`,
    ]);
    const asked = djen.requests
      .slice(djenRequestsBeforeGap)
      .filter((r) => r.params.numeroProcesso !== undefined)
      .map((r) => `${r.params.dataDisponibilizacaoInicio}..${r.params.dataDisponibilizacaoFim}`);
    expect(new Set(asked)).toEqual(new Set(["2025-09-30..2025-10-06"]));
  });

  it("never sent a message twice", () => {
    const ids = sink.messages.map((m) => String(m.raw).match(/^Message-ID: (.*)$/im)?.[1]);

    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("DJEN publications in history and export", () => {
  it("monitor history lists the case number's publications: dates, kind, estimates, cancellation, mail", async () => {
    const history = await cliInProcess(["history", despejo], env, dir);

    expect(history.code).toBe(0);
    const text = history.stdout;
    expect(text).toContain(`DJEN publications of ${despejo} (4), newest first`);
    expect(text).toMatch(
      /30\/09\/2025 {2}Intimação · Despacho · TJDFT 1ª Vara Cível de Ceilândia {2}\(DJEN 1002, read /,
    );
    expect(text).toContain(
      "counts as published 01/10/2025, deadline counts from 02/10/2025 (estimates)",
    );
    expect(text).toMatch(/cancelled \(seen \d\d\/\d\d\/\d{4} \d\d:\d\d\): Publicada por engano/);
    // The footer promises what the court's calendar considered with each publication: the
    // TJDFT's list, with what it does not know (issue 35).
    const calendarLine = text
      .split("\n")
      .find((line) => line.trim().startsWith("court calendar: "));
    expect(calendarLine?.trim()).toMatch(/^court calendar: Considera: sábados e domingos /u);
    expect(calendarLine).toContain(
      "Não considera: dias sem expediente declarados pelo tribunal (portarias, indisponibilidade do sistema) que não estejam na configuração.",
    );
    expect(text).toContain("not mailed: already published at DJEN's first check (baseline)");
    expect(text).toContain("never later than the law's answer");
    expect(text.indexOf("DJEN 1007")).toBeLessThan(text.indexOf("DJEN 1002"));
    expect(text.indexOf("DJEN 1002")).toBeLessThan(text.indexOf("DJEN 1001"));
  });

  it("monitor history --json and --format csv carry the same publications", async () => {
    const json = await cliInProcess(["history", despejo, "--json"], env, dir);
    const csv = await cliInProcess(["history", despejo, "--format", "csv"], env, dir);

    const parsed = JSON.parse(json.stdout) as {
      publications: Array<Record<string, unknown>>;
      countingNote: string;
    };
    const ids = parsed.publications.map((p) => p.djenId);
    expect([ids[0], ids.at(-1)]).toEqual(["1007", "1001"]);
    expect([...ids].sort()).toEqual(["1001", "1002", "1007", "1008"]);
    const intimacao = parsed.publications.find((p) => p.djenId === "1002");
    expect(intimacao).toMatchObject({
      availableOn: "2025-09-30",
      availableOnAsSent: "2025-09-30",
      publishedOn: "2025-10-01",
      countingStartsOn: "2025-10-02",
      kind: "Intimação",
      documentType: "Despacho",
      courtUnit: "1ª Vara Cível de Ceilândia",
      label: "Despejo",
      inWatchlist: true,
      disposition: "alert",
      cancelled: { reason: "Publicada por engano" },
    });
    expect(intimacao?.text).toContain("Fica a parte intimada para manifestar-se.");
    expect(intimacao?.text).not.toContain("alert(");
    expect(parsed.countingNote).toMatch(/^Datas estimadas/);
    const djenRows = csv.stdout.split("\r\n").filter((line) => line.includes(',"djen",'));
    expect(djenRows.map((line) => line.split(",")[0])).toEqual([
      `"${despejo}"`,
      `"${despejo}"`,
      `"${despejo}"`,
      `"${despejo}"`,
    ]);
    const row1002 = djenRows.find((line) => line.includes(',"1002",'));
    expect(row1002).toContain(',"2025-10-01","2025-10-02",,,');
    expect(row1002).toContain(',"yes","Publicada por engano","yes","alert","1002",');
  });

  it("monitor export adds every stored publication, those outside the watchlist included, from --since", async () => {
    const csv = await cliInProcess(["export", "--since", "2025-09-30"], env, dir);
    const json = await cliInProcess(["export", "--format", "json"], env, dir);

    expect(csv.code).toBe(0);
    const djenRows = csv.stdout.split("\r\n").filter((line) => line.includes(',"djen",'));
    // 1001, 1004 and 1005 were made available on 29/09, before --since.
    const ids = djenRows.map(
      (line) => line.match(/,"(?:alert|baseline|muted|ignored)","(\d{4})",/)?.[1],
    );
    expect([...ids].sort()).toEqual(["1002", "1003", "1006", "1007", "1008"]);
    expect(ids.at(-1)).toBe("1007");
    expect(djenRows.find((line) => line.startsWith(`"${outside}"`))).toMatch(
      /^"[\d.-]+","tjsp",,,"2025-09-30",,"Intimação",.*,"no",,"no","alert","1003",/,
    );
    const exported = JSON.parse(json.stdout) as {
      publications: Array<{
        djenId: string;
        inWatchlist: boolean;
        disposition: string;
        availableOn: string;
      }>;
    };
    const days = exported.publications.map((p) => p.availableOn);
    expect(days).toEqual([...days].sort());
    const byId = [...exported.publications].sort((a, b) => a.djenId.localeCompare(b.djenId));
    expect(byId.map((p) => [p.djenId, p.inWatchlist, p.disposition])).toEqual([
      ["1001", true, "baseline"],
      ["1002", true, "alert"],
      ["1003", false, "alert"],
      ["1004", true, "muted"],
      ["1005", true, "ignored"],
      ["1006", true, "alert"],
      ["1007", true, "alert"],
      ["1008", true, "alert"],
    ]);
  });
});
