import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, openDatabase } from "../../../src/store/database.js";
import { insertPublication } from "../../../src/store/publications.js";
import { type FakeDataJud, startFakeDataJud } from "../../fakes/fake-datajud.js";
import { caseHistory } from "../../support/case-history.js";
import {
  baseEnv,
  cliInProcess,
  emlFiles,
  runOnce,
  type Workspace,
  workspace,
} from "../../support/cli-harness.js";
import type { FixtureDoc } from "../../support/fixtures.js";
import { formatted, loadRealHits, realHit, updateStamper } from "../../support/real-datajud.js";

/**
 * Real records (../shared/real-datajud) edited as a lawyer meets them, through the fake DataJud,
 * the sweep and the mail (rules summaries: no model): each alert's subject and body read the
 * instance the news happened in, in the words of its case.
 */

const hits = loadRealHits();
const TJAL = "00016632020118020049";
const TJTO = "00034953520178272716";
const TJDFT = "00125906120158070018";

type Raw = Record<string, unknown>;

let datajud: FakeDataJud;
let lastWs: Workspace | null = null;

const stamp = updateStamper();

function serve(alias: string, docs: FixtureDoc[]): void {
  stamp(docs);
  datajud.setDocuments(alias, docs);
}

function withMovements(doc: FixtureDoc, ...extra: Raw[]): FixtureDoc {
  (doc._source.movimentos as Raw[]).push(...structuredClone(extra));
  return doc;
}

function tjal(...extra: Raw[]): FixtureDoc {
  const hit = hits.tjal?.find(
    (h) =>
      h._source.numeroProcesso === TJAL && (h._source.classe as { codigo?: number }).codigo === 156,
  );
  if (hit === undefined) throw new Error("fixture: tjal's cumprimento de sentença");
  return withMovements(structuredClone(hit), ...extra);
}

/** tjto's first instance as an ação penal (CNJ TPU de classes 283). */
function tjtoPenal(...extra: Raw[]): FixtureDoc {
  const doc = realHit(hits, "tjto", TJTO, "G1");
  doc._source.classe = { codigo: 283, nome: "Ação Penal - Procedimento Ordinário" };
  return withMovements(doc, ...extra);
}

async function sweepsOf(
  number: string,
  alias: string,
  first: FixtureDoc[],
  then: FixtureDoc[],
  between: (ws: Workspace) => void = () => {},
) {
  const ws: Workspace = workspace("real-reading-", [formatted(number)]);
  lastWs = ws;
  serve(alias, first);
  await runOnce(ws, baseEnv(ws, datajud));
  between(ws);
  serve(alias, then);
  await runOnce(ws, baseEnv(ws, datajud));
  const parsed = await Promise.all(emlFiles(ws).map((raw) => simpleParser(raw)));
  return parsed.map((m) => ({ subject: m.subject ?? "", text: m.text ?? "" }));
}

/** A DJEN publication of the case already stored (quiet: a baseline one), as a sweep stores it. */
function storePublication(ws: Workspace, availableOn: string, text: string): void {
  const db = openDatabase(ws.dbPath);
  try {
    insertPublication(db, {
      djenId: `reading-${availableOn}`,
      caseNumber: TJTO,
      court: "TJTO",
      availableOn,
      kind: "Intimação",
      documentType: "Despacho",
      courtUnit: null,
      publication: {},
      text,
      raw: {},
      foundBy: `case:${TJTO}`,
      firstSeenAt: `${availableOn}T12:00:00.000Z`,
      runId: null,
      baseline: true,
    });
  } finally {
    closeDatabase(db);
  }
}

beforeAll(async () => {
  datajud = await startFakeDataJud({ apiKey: "real-reading-key" });
});

afterAll(async () => {
  await datajud.close();
});

describe("the reading per instance, mailed", () => {
  it("a petition after tjal's provisional archive is activity, with the archive's law", async () => {
    const petition: Raw = {
      codigo: 85,
      nome: "Petição",
      dataHora: "2026-11-25T10:12:00.000Z",
      complementosTabelados: [
        { codigo: 19, valor: 57, nome: "Petição (outras)", descricao: "tipo_de_peticao" },
      ],
    };
    const mails = await sweepsOf(TJAL, "tjal", [tjal()], [tjal(petition)]);
    const mail = mails.at(-1);

    expect(mail?.subject).toBe(
      "[datajud] ⚠ 0001663-20.2011.8.02.0049: em andamento (1 movimentação nova)",
    );
    expect(mail?.text).toContain(
      "situação: em andamento: Juntada de petição em 25/11/2026, depois do arquivamento provisório de 25/01/2024;",
    );
    expect(mail?.text).toContain(
      "- atividade depois do arquivamento provisório: conferir o ato (pedido de desarquivamento, de prosseguimento ou de reconhecimento da prescrição intercorrente)",
    );
    expect(mail?.text).toContain(
      "Próximo passo: Despacho ou decisão do juízo sobre o ato praticado depois do arquivamento.",
    );
    expect(mail?.text).not.toContain("Nenhum; o processo está arquivado");
  });

  it("a secrecy change in tjal's archived execução brings no appeal deadline and no 'Nenhum'", async () => {
    const secret = tjal();
    secret._source.nivelSigilo = 1;
    const mails = await sweepsOf(TJAL, "tjal", [tjal()], [secret]);
    const mail = mails.at(-1);

    expect(mail?.subject).toMatch(/: arquivado provisoriamente \(/);
    expect(mail?.text).toContain(
      "Próximo passo: Nenhum ato novo nesta mudança; acompanhar a prescrição intercorrente e indicar bens penhoráveis para o desarquivamento (execução arquivada",
    );
    expect(mail?.text).not.toMatch(/prazo para recurso|Nenhum; o processo está arquivado/i);
  });

  it("a conviction in a criminal class reads as condenação, never 'o autor ganhou'", async () => {
    const conclusion: Raw = {
      codigo: 51,
      nome: "Conclusão",
      dataHora: "2026-11-16T13:20:00.000Z",
      complementosTabelados: [
        { codigo: 3, valor: 2, nome: "para sentença", descricao: "tipo_de_conclusao" },
      ],
    };
    const conviction: Raw = {
      codigo: 219,
      nome: "Procedência",
      dataHora: "2026-11-18T16:45:00.000Z",
    };
    const mails = await sweepsOf(TJTO, "tjto", [tjtoPenal()], [tjtoPenal(conclusion, conviction)]);
    const mail = mails.at(-1);

    expect(mail?.subject).toBe(
      "[datajud] ⚠ 0003495-35.2017.8.27.2716: decidido (2 movimentações novas)",
    );
    expect(mail?.text).toContain("situação: decidido (Sentença condenatória em 18/11/2026);");
    expect(mail?.text).toContain(
      "- sentença condenatória: prazo que abre: embargos de declaração: 2 dias corridos da intimação da sentença (CPP, art. 382; dias corridos, art. 798); apelação: 5 dias corridos da intimação da sentença (CPP, art. 593; dias corridos, art. 798) (18/11/2026 16:45 Sentença condenatória)",
    );
    expect(mail?.text).toContain(
      "Próximo passo: Apelação da sentença condenatória (CPP, art. 593) ou trânsito em julgado.",
    );
    expect(mail?.text).toContain(
      "18/11/2026 16:45 · Sentença condenatória · código 219, na TPU “Procedência”",
    );
    expect(mail?.text).not.toMatch(/autor ganhou|acórdão/);
    const history = await caseHistory(lastWs?.dbPath ?? "", formatted(TJTO));
    const conviction219 = history.changes[0]?.newMovements.find((m) => m.code === 219);
    expect(conviction219?.title).toBe("Sentença condenatória");
    expect(conviction219?.hint).toMatch(/^Sentença penal condenatória/);
    expect(history.changes[0]?.summary?.attentionReasons).toEqual([
      "sentença condenatória: prazo que abre: embargos de declaração: 2 dias corridos da intimação da sentença (CPP, art. 382; dias corridos, art. 798); apelação: 5 dias corridos da intimação da sentença (CPP, art. 593; dias corridos, art. 798)",
    ]);

    // The command line reads it in the alert's words too: history (text, csv, json) and export.
    const ws = lastWs as Workspace;
    const cli = (...argv: string[]) => cliInProcess(argv, baseEnv(ws, datajud), ws.dir);
    const text = await cli("history", formatted(TJTO));
    expect(text.stdout).toContain(
      "18/11/2026 16:45  219  Sentença condenatória (TPU: Procedência)  · ",
    );
    const json = JSON.parse((await cli("history", formatted(TJTO), "--json")).stdout);
    const reported = json.cases[0].changes[0].movements.find(
      (m: { code: number | null }) => m.code === 219,
    );
    expect(reported).toMatchObject({ name: "Procedência", title: "Sentença condenatória" });
    for (const argv of [["history", formatted(TJTO), "--format", "csv"], ["export"]]) {
      // title, then listing and no_longer_listed_at, end the row; the other cells quote court
      // text that may hold commas.
      const lines = (await cli(...argv)).stdout.trim().split("\r\n");
      expect(lines[0], argv[0]).toMatch(/,"title","listing","no_longer_listed_at"$/);
      const row = lines.find((l) => l.includes(',219,"Procedência",'));
      expect(row, argv[0]).toMatch(/,"Sentença condenatória","listed",$/);
    }
  });

  it("a G2 decision under tjdft's provisionally archived G1 is headed by G2's status", async () => {
    const g1 = realHit(hits, "tjdft", TJDFT, "G1");
    const g2 = (): FixtureDoc => realHit(hits, "tjdft", TJDFT, "G2");
    const decided = withMovements(
      g2(),
      {
        codigo: 51,
        nome: "Conclusão",
        dataHora: "2026-11-18T14:00:00.000Z",
        complementosTabelados: [
          { codigo: 3, valor: 6, nome: "para decisão", descricao: "tipo_de_conclusao" },
        ],
      },
      { codigo: 12164, nome: "Outras Decisões", dataHora: "2026-11-20T15:00:00.000Z" },
    );
    const mails = await sweepsOf(TJDFT, "tjdft", [g1, g2()], [structuredClone(g1), decided]);
    const mail = mails.at(-1);

    expect(mail?.subject).toBe(
      "[datajud] ⚠ 0012590-61.2015.8.07.0018: decidido (2 movimentações novas)",
    );
    expect(mail?.text).toContain(
      "situação: 1º grau: arquivado provisoriamente em 23/01/2024 (arquivamento provisório: os autos podem ser desarquivados a pedido da parte); 2º grau: decidido: a conclusão de 18/11/2026 foi respondida (Decisão (outras decisões) em 20/11/2026);",
    );
    expect(mail?.subject).not.toContain("arquivado");
  });

  it("a hearing says when it was recorded and, where the record says it, when it is", async () => {
    const hearing = (value: string | null): Raw => ({
      codigo: 12740,
      nome: "de Conciliação",
      dataHora: "2026-11-20T14:10:00.000Z",
      complementosTabelados: [
        {
          codigo: 15,
          valor: value ?? 9,
          nome: "designada",
          descricao: "situacao_da_audiencia",
        },
        { codigo: 16, valor: 17, nome: "conciliação", descricao: "tipo_de_audiencia" },
      ],
    });
    const base = (...extra: Raw[]): FixtureDoc =>
      withMovements(realHit(hits, "tjto", TJTO, "G1"), ...extra);
    const dated = await sweepsOf(
      TJTO,
      "tjto",
      [base()],
      [base(hearing("designada para 10/02/2027 às 14h00"))],
    );
    const undated = await sweepsOf(TJTO, "tjto", [base()], [base(hearing(null))]);

    expect(dated.at(-1)?.text).toContain(
      "  Quando: audiência em 10/02/2027 14:00 (segundo o próprio movimento no DataJud); movimento registrado em 20/11/2026 14:10 (quando a audiência foi designada ou alterada)",
    );
    expect(dated.at(-1)?.text).toContain(
      "Próximo passo: Audiência em 10/02/2027 14:00: comparecimento (conferir no processo).",
    );
    const fromDjen = await sweepsOf(TJTO, "tjto", [base()], [base(hearing(null))], (ws) =>
      storePublication(
        ws,
        "2026-11-23",
        "Fica a parte autora intimada para a audiência de conciliação designada para o dia 15/02/2027, às 9h30, na sala do CEJUSC.",
      ),
    );
    expect(fromDjen.at(-1)?.text).toContain(
      "  Quando: audiência em 15/02/2027 09:30 (segundo publicação no DJEN disponibilizada em 23/11/2026); movimento registrado em 20/11/2026 14:10 (quando a audiência foi designada ou alterada)",
    );
    expect(fromDjen.at(-1)?.text).toContain(
      "Próximo passo: Audiência em 15/02/2027 09:30: comparecimento (conferir no processo).",
    );
    expect(undated.at(-1)?.text).toContain(
      "  Quando: movimento registrado em 20/11/2026 14:10 (quando a audiência foi designada ou alterada); a data da audiência não consta do DataJud: conferir no processo ou no DJEN",
    );
  });
});
