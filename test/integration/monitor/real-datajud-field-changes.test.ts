import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeDataJud, startFakeDataJud } from "../../fakes/fake-datajud.js";
import { caseHistory } from "../../support/case-history.js";
import {
  baseEnv,
  cliInProcess,
  emlFiles,
  query,
  runOnce,
  type Workspace,
  workspace,
} from "../../support/cli-harness.js";
import type { FixtureDoc } from "../../support/fixtures.js";
import { formatted, loadRealHits, realHit, updateStamper } from "../../support/real-datajud.js";

/**
 * The real tjto case (a Procedimento Comum Cível in G1, its Apelação Cível in G2) edited as
 * courts change a case's own data: the class (the case became a cumprimento de sentença), the
 * secrecy level of the appeal, and the court unit (redistribution). Each is one mail with the
 * values before and after, in the instance where it happened, and history and the MCP agree.
 */

const hits = loadRealHits();
const TJTO = "00034953520178272716";

type Edit = (g1: FixtureDoc["_source"], g2: FixtureDoc["_source"]) => void;

let datajud: FakeDataJud;
const stamp = updateStamper();

function serve(edit: Edit = () => {}): void {
  const g1 = realHit(hits, "tjto", TJTO, "G1");
  const g2 = realHit(hits, "tjto", TJTO, "G2");
  edit(g1._source, g2._source);
  stamp([g1, g2]);
  datajud.setDocuments("tjto", [g1, g2]);
}

async function changedOnce(edit: Edit): Promise<{ ws: Workspace; subject: string; text: string }> {
  const ws = workspace("real-fields-", [formatted(TJTO)]);
  serve();
  await runOnce(ws, baseEnv(ws, datajud));
  serve(edit);
  const run = await runOnce(ws, baseEnv(ws, datajud));
  expect(run.report.cases[0]).toMatchObject({ outcome: "changed", newMovements: 0 });
  const mails = await Promise.all(emlFiles(ws).map((raw) => simpleParser(raw)));
  expect(mails).toHaveLength(1);
  return { ws, subject: mails[0]?.subject ?? "", text: mails[0]?.text ?? "" };
}

beforeAll(async () => {
  datajud = await startFakeDataJud({ apiKey: "real-fields-key" });
});

afterAll(async () => {
  await datajud.close();
});

describe("the case's own data changed", () => {
  it("a class change reads Procedimento Comum Cível → Cumprimento de sentença, in the first instance", async () => {
    const { ws, subject, text } = await changedOnce((g1) => {
      g1.classe = { codigo: 156, nome: "Cumprimento de sentença" };
    });
    const history = await caseHistory(ws.dbPath, formatted(TJTO));
    const cli = await cliInProcess(["history", formatted(TJTO)], baseEnv(ws, datajud), ws.dir);

    expect(subject).toMatch(
      /^\[datajud\] 0003495-35\.2017\.8\.27\.2716: .* \(Classe alterada no 1º grau \(G1\): Procedimento Comum Cível → Cumprimento de sentença\)$/,
    );
    expect(text).toContain(
      [
        "DADOS DO PROCESSO ALTERADOS (1)",
        "- Classe alterada no 1º grau (G1)",
        "  Antes: Procedimento Comum Cível (código 7)",
        "  Agora: Cumprimento de sentença (código 156)",
      ].join("\n"),
    );
    // The summary (rules here: no model key) says it too, for history and the MCP.
    expect(history.changes[0]?.summary?.status).toContain(
      "Classe alterada no 1º grau (G1): Procedimento Comum Cível → Cumprimento de sentença.",
    );
    expect(history.changes[0]?.fieldChanges).toEqual([
      {
        instance: "G1",
        field: "class",
        before: { code: 7, name: "Procedimento Comum Cível" },
        after: { code: 156, name: "Cumprimento de sentença" },
        headline:
          "Classe alterada no 1º grau (G1): Procedimento Comum Cível (código 7) → Cumprimento de sentença (código 156)",
        beforeText: "Procedimento Comum Cível (código 7)",
        afterText: "Cumprimento de sentença (código 156)",
        note: null,
      },
    ]);
    expect(cli.stdout).toContain(
      "    Classe alterada no 1º grau (G1): Procedimento Comum Cível (código 7) → Cumprimento de sentença (código 156)",
    );
  });

  it("movements a secrecy raised hid stay in the MCP history and the export, marked hidden", async () => {
    const listed = (realHit(hits, "tjto", TJTO, "G2")._source.movimentos as unknown[]).length;
    const ws = workspace("real-fields-", [formatted(TJTO)]);
    serve();
    await runOnce(ws, baseEnv(ws, datajud));
    serve((_g1, g2) => {
      g2.nivelSigilo = 3;
      g2.movimentos = (g2.movimentos as unknown[]).slice(0, 4);
    });
    await runOnce(ws, baseEnv(ws, datajud));

    const history = await caseHistory(ws.dbPath, formatted(TJTO));
    const csv = await cliInProcess(
      ["history", formatted(TJTO), "--format", "csv"],
      baseEnv(ws, datajud),
      ws.dir,
    );

    expect(listed).toBeGreaterThan(4);
    expect(history.totalNoLongerListed).toBe(listed - 4);
    expect(history.noLongerListed).toHaveLength(listed - 4);
    expect(history.noLongerListed.every((m) => m.instance === "G2" && m.hidden)).toBe(true);
    expect(history.noLongerListed[0]?.title).not.toBe("");
    const rows = csv.stdout
      .replace(/^\uFEFF/, "")
      .split("\r\n")
      .slice(1);
    expect(rows.filter((r) => /,"hidden","\d{4}-\d{2}-\d{2} [\d:]+"$/.test(r))).toHaveLength(
      listed - 4,
    );
    expect(rows.filter((r) => r.includes(',"listed",'))).not.toHaveLength(0);
  });

  it("exports each movement of the real record with the name a lawyer reads beside the TPU's", async () => {
    const ws = workspace("real-fields-", [formatted(TJTO)]);
    serve();
    await runOnce(ws, baseEnv(ws, datajud));

    const csv = await cliInProcess(
      ["history", formatted(TJTO), "--format", "csv"],
      baseEnv(ws, datajud),
      ws.dir,
    );

    const lines = csv.stdout.replace(/^\uFEFF/, "").split("\r\n");
    const columns = (lines[0] ?? "").split(",").map((c) => c.replace(/"/g, ""));
    const titleAt = columns.indexOf("title");
    const named = new Map(
      lines.slice(1).map((l) => {
        const cells = l.split(",");
        return [`${cells[5]} ${cells[6]}`, cells[titleAt]];
      }),
    );
    expect(columns.slice(titleAt)).toEqual(["title", "listing", "no_longer_listed_at"]);
    expect(named.get('12266 "Confirmada"')).toBe('"Intimação eletrônica confirmada"');
    expect(named.get('123 "Remessa"')).toBe('"Remessa dos autos"');
    expect(named.get('581 "Documento"')).toBe('"Juntada de documento"');
  });

  it("a secrecy change in the appeal names the instance, both levels and what the new one means", async () => {
    const { ws, subject, text } = await changedOnce((_g1, g2) => {
      g2.nivelSigilo = 1;
    });
    const history = await caseHistory(ws.dbPath, formatted(TJTO));

    expect(subject).toMatch(
      / \(Nível de sigilo alterado no 2º grau \(G2\): 0 \(público\) → 1 \(segredo de justiça\)\)$/,
    );
    expect(text).toContain(
      [
        "- Nível de sigilo alterado no 2º grau (G2)",
        "  Antes: 0 (público)",
        "  Agora: 1 (segredo de justiça)",
        "  Nível 1, segredo de justiça: acessível aos servidores do Judiciário e dos órgãos de colaboração com a Justiça e às partes do processo e seus advogados (níveis do MNI, Res. CNJ 121/2010). O acesso ao processo ficou mais restrito; fica fora da consulta pública.",
      ].join("\n"),
    );
    expect(
      history.changes[0]?.fieldChanges.map((f) => [f.instance, f.field, f.before, f.after]),
    ).toEqual([["G2", "secrecyLevel", 0, 1]]);
    expect(
      query<{ level: number }>(
        ws,
        "SELECT json_extract(record, '$.secrecyLevel') AS level FROM instances ORDER BY instance",
      ),
    ).toEqual([{ level: 0 }, { level: 1 }]);
  });

  it("a redistribution names the court unit before and after", async () => {
    const { subject, text } = await changedOnce((g1) => {
      g1.orgaoJulgador = {
        codigoMunicipioIBGE: 0,
        codigo: 85356,
        nome: "Juízo da 1ª Vara Cível de Palmas",
      };
    });

    expect(subject).toContain(
      "(Órgão julgador alterado (redistribuição) no 1º grau (G1): agora Juízo da 1ª Vara Cível de Palmas)",
    );
    expect(text).toContain(
      "  Antes: Juízo da Vara Cível, dos Feitos da Fazenda e Registros Públicos de Dianópolis (código 85355)\n  Agora: Juízo da 1ª Vara Cível de Palmas (código 85356)",
    );
    expect(text).toContain(
      "O processo passou a outro órgão julgador: confira onde tramita agora e se prazos ou audiências mudam.",
    );
  });
});
