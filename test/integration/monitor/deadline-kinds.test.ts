import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import readXlsxFile from "read-excel-file/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../../src/cli/run-cli.js";
import { GetCaseHistoryOutput } from "../../../src/mcp/history-schemas.js";
import type { InProcessConnection } from "../../../src/mcp/in-process-client.js";
import { callTool } from "../../../src/mcp/tool-caller.js";
import { RunReport } from "../../../src/monitor/run-report.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import type { FakeDataJud } from "../../fakes/fake-datajud.js";
import {
  djenItem,
  type FakeDjen,
  type FakeDjenItem,
  startFakeDjen,
} from "../../fakes/fake-djen.js";
import {
  baseEnv,
  emlFiles,
  moveCase,
  n,
  startDataJud,
  type Workspace,
  workspace,
} from "../../support/cli-harness.js";
import { captureIo } from "../../support/cli-io.js";
import { connectMonitorMcp, type MonitorMcp } from "../../support/monitor-mcp.js";

/*
 * Each kind of communication through the real pipeline (fake DJEN -> run-once -> mail, MCP
 * history, export), and a suspension the operator adds to calendar.closures moving an open
 * estimate on the next run, with one correction and nothing after it.
 *
 * December 2026 (printed calendar, `cal 12 2026`): Mon 14, Tue 15, Wed 16, Thu 17, Fri 18,
 * Sat 19, Sun 20; January 2027: Thu 21, Fri 22, Mon 25, Tue 26. Every item is made available on
 * Mon 14/12/2026, so it counts as published on Tue 15/12 and a count starts on Wed 16/12
 * (Lei 11.419/2006 art. 4 §§3-4).
 */

const AVAILABLE = "2026-12-14";
const digits = (formatted: string): string => formatted.replace(/\D/g, "");
const DESPEJO = digits(n.tjdftDespejo);
const PREVIDENCIARIO = digits(n.trf1Previdenciario);
const COBRANCA = digits(n.tjspCobranca);

function item(
  options: Parameters<typeof djenItem>[0],
  fields: Partial<FakeDjenItem> = {},
): FakeDjenItem {
  return { ...djenItem({ date: AVAILABLE, ...options }), ...fields };
}

const ITEMS: FakeDjenItem[] = [
  // Civil, 5 business days: Wed 16, Thu 17, Fri 18/12, then nothing counts 20/12-20/01 (CPC
  // art. 220): Thu 21 and Fri 22/01/2027. Last day 22/01/2027.
  item({
    id: 7001,
    caseNumber: DESPEJO,
    texto: "<p>Intime-se a parte ré para, no prazo de 5 (cinco) dias, juntar o contrato.</p>",
  }),
  // A pauta: the session's date and time from the text, no period.
  item({
    id: 7002,
    caseNumber: DESPEJO,
    kind: "Pauta de julgamento",
    documentType: "Pauta de julgamento",
    texto:
      "<p>Fica incluído o processo na pauta da sessão ordinária da 3ª Turma Cível a realizar-se em 03/02/2027, às 13h30.</p>",
  }),
  // A lista de distribuição: no period.
  item({
    id: 7003,
    caseNumber: DESPEJO,
    kind: "Lista de distribuição",
    documentType: "Lista de distribuição",
    texto: "<p>Processo distribuído à 3ª Turma Cível por sorteio.</p>",
  }),
  // An edital with a dilação of 20 days: counted from publication (CPC art. 257 III), 15/12 +
  // 20 days = 04/01/2027; the first counting day after it is after the suspension, 21/01/2027.
  item(
    {
      id: 7004,
      caseNumber: DESPEJO,
      kind: "Edital",
      documentType: "Edital",
      texto:
        "<p>EDITAL DE CITAÇÃO com prazo de 20 (vinte) dias. Fica o réu citado para contestar no prazo de 15 (quinze) dias.</p>",
    },
    { meio: "E" },
  ),
  // Addressed only to the INSS, with no lawyer: its period runs from the Domicílio Judicial
  // Eletrônico, not from DJEN.
  item(
    {
      id: 7005,
      caseNumber: PREVIDENCIARIO,
      court: "TRF1",
      lawyers: [],
      texto: "<p>Intime-se o INSS para cumprir a sentença no prazo de 30 (trinta) dias.</p>",
    },
    {
      destinatarios: [
        { nome: "INSTITUTO NACIONAL DO SEGURO SOCIAL - INSS", polo: "P", comunicacao_id: 7005 },
      ],
    },
  ),
  // Criminal, custody not said: 10 calendar days from Wed 16/12 end Fri 25/12 (Christmas), moved
  // to the next day the court sits, Mon 28/12 with the duty court of the recess (CPP art. 798
  // §3), the earliest reading; with the suspension of art. 798-A (no defendant in custody): 16,
  // 17, 18, 19/12 and 21-26/01/2027, last day Tue 26/01/2027.
  item(
    {
      id: 7006,
      caseNumber: COBRANCA,
      court: "TJSP",
      texto:
        "<p>Intime-se a defesa para apresentar resposta à acusação no prazo de 10 (dez) dias.</p>",
    },
    { nomeClasse: "AÇÃO PENAL - PROCEDIMENTO ORDINÁRIO", codigoClasse: "283" },
  ),
];

/** The TJDFT suspends deadlines on Thu 17/12/2026 (PJe down), as the operator learns later. */
const CLOSURE = `calendar:
  closures:
    - court: tjdft
      from: "2026-12-17"
      effect: suspended
      reason: "suspensão de prazos: PJe indisponível"
      source: "Portaria GPR 9.999/2026"
      url: https://www.tjdft.jus.br/
`;

let datajud: FakeDataJud;
let djen: FakeDjen;
let ws: Workspace;
let env: Record<string, string>;
const clock = new FakeClock({ now: Date.UTC(2026, 11, 14, 15, 0), autoAdvance: true });
const reports: RunReport[] = [];
const mailsAfter: number[] = [];

interface Mail {
  subject: string;
  text: string;
}

async function cli(argv: string[]): Promise<{ code: number; stdout: string }> {
  const io = captureIo(env, ws.dir, argv, clock);
  const code = await runCli(io);
  return { code, stdout: io.out() };
}

async function runOnceAt(utc: number): Promise<void> {
  clock.set(Math.max(clock.now(), utc));
  const run = await cli(["run-once", "--json"]);
  reports.push(RunReport.parse(JSON.parse(run.stdout)));
  mailsAfter.push(emlFiles(ws).length);
}

async function mails(): Promise<Mail[]> {
  const parsed = await Promise.all(emlFiles(ws).map((raw) => simpleParser(raw)));
  return parsed.map((m) => ({
    subject: m.subject ?? "",
    text: typeof m.text === "string" ? m.text : "",
  }));
}

beforeAll(async () => {
  datajud = await startDataJud("deadline-kinds-key");
  djen = await startFakeDjen();
  ws = workspace("deadline-kinds-", [n.tjdftDespejo, n.trf1Previdenciario, n.tjspCobranca]);
  const config = join(ws.dir, "monitor.yaml");
  writeFileSync(config, "schedule:\n  startJitterSeconds: 0\n");
  env = baseEnv(ws, datajud, {
    MONITOR_CONFIG: config,
    DJEN_ENABLED: "true",
    DJEN_BASE_URL: djen.url,
    DJEN_MAX_ATTEMPTS: "1",
    DJEN_CASE_EVERY_HOURS: "0",
    DJEN_OAB_EVERY_HOURS: "0",
  });
  // 1. Mon 14/12 12:00 in São Paulo: DJEN's first look is a baseline (nothing yet).
  await runOnceAt(Date.UTC(2026, 11, 14, 15, 0));
  // 2. Tue 15/12 10:00: the six items, one alert each, and DataJud's movement alert.
  djen.setItems(ITEMS);
  // DataJud lists the despejo's disponibilização of the same day (TPU 1061).
  moveCase(datajud, "tjdft", n.tjdftDespejo, {
    codigo: 1061,
    nome: "Disponibilização no Diário da Justiça Eletrônico",
    dataHora: "2026-12-14T10:00:00.000Z",
  });
  await runOnceAt(Date.UTC(2026, 11, 15, 13, 0));
  // 3. The operator adds the TJDFT's suspension to the configuration; the next run re-estimates.
  writeFileSync(config, `schedule:\n  startJitterSeconds: 0\n${CLOSURE}`);
  await runOnceAt(Date.UTC(2026, 11, 15, 19, 0));
  // 4. And the one after it has nothing to say.
  await runOnceAt(Date.UTC(2026, 11, 15, 21, 0));
}, 60_000);

afterAll(async () => {
  await djen?.close();
  await datajud?.close();
});

const SOURCE = /\([^()]*(?:\([^()]*\)[^()]*)*\)$/u;

async function mailOf(djenId: number): Promise<Mail> {
  const found = (await mails()).filter(
    (m) => m.text.includes(`comunicação ${djenId}, lida`) && !m.subject.includes("reestimado"),
  );
  expect(found).toHaveLength(1);
  return found[0] ?? { subject: "", text: "" };
}

interface Exported {
  publications: Array<{
    djenId: string;
    publishedOn: string;
    countingStartsOn: string | null;
    lastDay: string | null;
    rule: { code: string; title: string };
    session: { date: string; time: string | null } | null;
    countingReasons: string[];
    deadline: { considered: string; alternatives: Array<{ lastDay: string | null }> };
  }>;
}

describe("each kind of communication through a sweep", () => {
  it("mails each once, and one correction when a configured suspension moves a date", () => {
    expect(reports.map((r) => r.publications?.newPublications)).toEqual([0, 6, 0, 0]);
    // Six publication alerts and DataJud's; the third run's one correction; nothing from the fourth.
    expect(mailsAfter).toEqual([0, 7, 8, 8]);
  });

  it("DataJud's disponibilização of the same day gets the DJEN item's dates", async () => {
    const movement = (await mails()).filter((m) => m.text.includes("MOVIMENTAÇÕES NOVAS"));

    expect(movement).toHaveLength(1);
    expect(movement[0]?.text).toContain(
      "Datas de prazo (estimativas): considera-se publicada em 15/12/2026 (terça-feira); prazo a partir de 16/12/2026 (quarta-feira).",
    );
  });

  it("an intimação: the last day over the year-end suspension, each skipped day with its source", async () => {
    const mail = await mailOf(7001);

    expect(mail.subject).toContain("(prazo até 22/01/2027, estimativa)");
    expect(mail.text).toContain("Prazo começa a contar em: 16/12/2026 (quarta-feira) (estimativa)");
    expect(mail.text).toContain("Último dia do prazo: 22/01/2027 (sexta-feira) (estimativa)");
    expect(mail.text).toContain(
      "prazos suspensos de 20/12 a 20/01, 20/12/2026 a 20/01/2027 (CPC, art. 220)",
    );
    expect(mail.text).toMatch(/Calendário do tribunal: Considera: .*Lei 11\.697\/2008/u);
  });

  it("the operator's suspension: one correction with the old and new dates and the act", async () => {
    const all = await mails();
    const correction = all.filter((m) => m.subject.includes("Prazo reestimado"));

    // 16/12, 18/12, then 21, 22 and 25/01/2027: 17/12 no longer counts.
    expect(correction.map((m) => m.subject)).toEqual([
      `[datajud] ⚠ URGENTE Prazo reestimado: ${n.tjdftDespejo} (Intimação de 14/12/2026) (prazo até 25/01/2027, estimativa)`,
    ]);
    const text = correction[0]?.text ?? "";
    expect(text).toContain("22/01/2027");
    expect(text).toContain("25/01/2027");
    expect(text).toContain(
      "suspensão de prazos: PJe indisponível, 17/12/2026 (Portaria GPR 9.999/2026)",
    );
    expect(text).toContain(
      "fechamentos e suspensões configurados: suspensão de prazos: PJe indisponível (Portaria GPR 9.999/2026)",
    );
  });

  it("a pauta: the session's date and time from its text, and no period", async () => {
    const mail = await mailOf(7002);

    expect(mail.subject).toContain("(sessão em 03/02/2027 13:30)");
    expect(mail.text).toContain(
      "Sessão de julgamento: sessão em 03/02/2027 (quarta-feira) às 13:30 (conforme o texto)",
    );
    expect(mail.text).not.toContain("Prazo começa a contar");
    expect(mail.text).not.toMatch(/prazo a partir de/u);
    expect(mail.text).toContain("não abre prazo");
  });

  it("a lista de distribuição opens no period", async () => {
    const mail = await mailOf(7003);

    expect(mail.subject).not.toMatch(/prazo/u);
    expect(mail.text).toContain("Regra: Lista de distribuição, certidão ou ata: não abre prazo");
    expect(mail.text).not.toContain("Prazo começa a contar");
  });

  it("an edital: its period after the dilação read from the text, counted over the suspension", async () => {
    const mail = await mailOf(7004);

    // 15/12/2026 + 20 days = 04/01/2027; counts from 21/01/2027 (CPC arts. 220, 231 IV, 257 III);
    // 15 business days: 21, 22, 25-29/01, 1-5/02, then the TJDFT's Carnaval (08-10/02, Lei
    // 11.697/2008 art. 60; Lei 1.408/1951 art. 5), 11, 12 and 15/02.
    expect(mail.subject).toContain("Edital no DJEN");
    expect(mail.subject).toContain("(prazo até 15/02/2027, estimativa)");
    expect(mail.text).toContain("Prazo começa a contar em: 21/01/2027 (quinta-feira) (estimativa)");
    expect(mail.text).toContain("Regra: Edital: o prazo corre depois da dilação");
    expect(mail.text).toContain(
      "Quarta-feira de Cinzas, 10/02/2027 (Lei 11.697/2008 (LOJDFT), art. 60)",
    );
  });

  it("an item for the Fazenda: no count from DJEN, where it runs and from when", async () => {
    const mail = await mailOf(7005);

    expect(mail.subject).toContain("(prazo pelo Domicílio Judicial Eletrônico)");
    expect(mail.text).toContain("Domicílio Judicial Eletrônico");
    expect(mail.text).toContain("CPC, art. 231, V");
    expect(mail.text).toContain("em dobro (CPC, art. 183)");
    expect(mail.text).not.toContain("Prazo começa a contar");
    expect(mail.text).not.toContain("Último dia do prazo");
  });

  it("a criminal intimação: calendar days, the earlier reading with custody unknown, and what would move it", async () => {
    const mail = await mailOf(7006);

    expect(mail.subject).toContain("(prazo até 28/12/2026, estimativa)");
    expect(mail.text).toContain("10 dias corridos");
    expect(mail.text).toContain("Terminaria em 25/12/2026");
    expect(mail.text).toContain("Não sabemos se há réu preso (CPP, art. 798-A, I)");
    expect(mail.text).toMatch(
      /se não houver réu preso nem outra exceção do CPP, art\. 798-A, .*: o último dia passa a 26\/01\/2027/u,
    );
    expect(mail.text).toMatch(/o último dia passa a 07\/01\/2027/u);
  });
});

describe("the same estimates in the export and over MCP", () => {
  let exported: Exported;
  let connection: InProcessConnection;
  let mcp: MonitorMcp | undefined;

  beforeAll(async () => {
    const json = await cli(["export", "--format", "json"]);
    exported = JSON.parse(json.stdout) as Exported;
    mcp = await connectMonitorMcp(ws, datajud);
    connection = mcp.connection;
  });

  afterAll(async () => {
    await mcp?.close();
  });

  function dates(p: Exported["publications"][number]) {
    return [p.djenId, p.rule.code, p.publishedOn, p.countingStartsOn, p.lastDay];
  }

  const EXPECTED = [
    ["7001", "intimacao", "2026-12-15", "2026-12-16", "2027-01-25"],
    ["7002", "pauta", "2026-12-15", null, null],
    ["7003", "no-deadline", "2026-12-15", null, null],
    ["7004", "edital", "2026-12-15", "2027-01-21", "2027-02-15"],
    ["7005", "personal", "2026-12-15", null, null],
    ["7006", "intimacao", "2026-12-15", "2026-12-16", "2026-12-28"],
  ];

  it("export --format json: the re-estimated dates, the rule, the session, every skipped day's source", () => {
    const byId = [...exported.publications].sort((a, b) => a.djenId.localeCompare(b.djenId));

    expect(byId.map(dates)).toEqual(EXPECTED);
    expect(byId[1]?.session).toMatchObject({ date: "2027-02-03", time: "13:30" });
    const reasons = byId.flatMap((p) => p.countingReasons);
    expect(reasons.length).toBeGreaterThan(5);
    for (const reason of reasons) expect(reason).toMatch(SOURCE);
    expect(byId[0]?.countingReasons).toContain(
      "suspensão de prazos: PJe indisponível, 17/12/2026 (Portaria GPR 9.999/2026)",
    );
    expect(byId[5]?.deadline.alternatives.map((a) => a.lastDay)).toEqual([
      "2027-01-26",
      "2027-01-07",
    ]);
    // Per year where the dates span two: "2026: Considera: ...; 2027: Considera: ...".
    for (const p of byId) expect(p.deadline.considered).toMatch(/^(?:\d{4}: )?Considera: /u);
  });

  it("export as CSV: the last day, the rule and the days skipped with their sources", async () => {
    const csv = await cli(["export"]);
    const row = csv.stdout.split("\r\n").find((line) => line.includes(',"7001",'));

    expect(row).toContain('"2026-12-15","2026-12-16","2027-01-25"');
    expect(row).toContain("Intimação pelo DJEN");
    expect(row).toContain(
      "suspensão de prazos: PJe indisponível, 17/12/2026 (Portaria GPR 9.999/2026)",
    );
  });

  it("export as xlsx: the same columns, the dates as date cells", async () => {
    const io = captureIo(env, ws.dir, ["export", "--format", "xlsx"], clock);
    expect(await runCli(io)).toBe(0);
    const [sheet] = await readXlsxFile(io.outBytes());
    const [header, ...rows] = sheet?.data ?? [];
    const column = (name: string) => header?.indexOf(name) ?? -1;
    const row = rows.find((r) => r[column("djen_id")] === "7001");
    const day = (name: string) => {
      const cell = row?.[column(name)];
      return cell instanceof Date ? cell.toISOString().slice(0, 10) : cell;
    };

    expect([day("published_on_estimate"), day("last_day_estimate")]).toEqual([
      "2026-12-15",
      "2027-01-25",
    ]);
    expect(String(row?.[column("deadline_rule")])).toContain("Intimação pelo DJEN");
    expect(String(row?.[column("days_skipped")])).toContain(
      "suspensão de prazos: PJe indisponível, 17/12/2026 (Portaria GPR 9.999/2026)",
    );
  });

  it("MCP get_case_history: publishedOn, countingStartsOn, the last day, the rule and the reasons", async () => {
    const history = await callTool(
      connection.client,
      "get_case_history",
      { cnjNumber: n.tjdftDespejo },
      GetCaseHistoryOutput,
      { timeoutMs: 30_000 },
    );
    const byId = [...history.publications].sort((a, b) => a.djenId.localeCompare(b.djenId));

    expect(byId.map(dates)).toEqual(EXPECTED.slice(0, 4));
    expect(byId[0]?.rule.title).toMatch(/Lei 11\.419\/2006/u);
    expect(byId[0]?.countingReasons).toContain(
      "suspensão de prazos: PJe indisponível, 17/12/2026 (Portaria GPR 9.999/2026)",
    );
    for (const reason of byId.flatMap((p) => p.countingReasons)) expect(reason).toMatch(SOURCE);
    expect(byId[1]?.session).toMatchObject({ date: "2027-02-03", time: "13:30" });
  });

  it("history: the same dates, and the days skipped with their sources", async () => {
    const history = await cli(["history", n.tjdftDespejo]);

    expect(history.stdout).toContain("last day 25/01/2027");
    expect(history.stdout).toContain(
      "suspensão de prazos: PJe indisponível, 17/12/2026 (Portaria GPR 9.999/2026)",
    );
    expect(history.stdout).toContain("session");
  });
});
