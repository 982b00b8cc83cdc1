import { simpleParser } from "mailparser";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
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
import {
  cancelledHearing,
  formatted,
  SCHEDULED_HEARING as HEARING,
  loadRealHits,
  type RawMovement,
  realHit,
  updateStamper,
} from "../../support/real-datajud.js";

/**
 * Real records (tjto's first instance, tjal's cumprimento de sentença) edited the way a court
 * corrects them, through the fake DataJud, the sweep, the mail, history and the MCP tools: a
 * correction is one mail saying what it was and what it is now, and what was mailed before is
 * never rewritten.
 */

const hits = loadRealHits();
const TJTO = "00034953520178272716";
const TJAL = "00016632020118020049";

let datajud: FakeDataJud;
let ws: Workspace;
const stamp = updateStamper("2026-11-21");

function serve(alias: string, doc: FixtureDoc): void {
  stamp([doc]);
  datajud.setDocuments(alias, [doc]);
}

function tjto(...extra: RawMovement[]): FixtureDoc {
  const doc = realHit(hits, "tjto", TJTO, "G1");
  (doc._source.movimentos as RawMovement[]).push(...structuredClone(extra));
  return doc;
}

function tjal(disponibilizacao: string): FixtureDoc {
  const doc = realHit(hits, "tjal", TJAL, "G1");
  const m = (doc._source.movimentos as RawMovement[]).find(
    (x) => x.codigo === 1061 && x.dataHora === "2024-01-16T13:41:41.000Z",
  );
  if (m === undefined) throw new Error("fixture: no disponibilização on 2024-01-16");
  m.dataHora = disponibilizacao;
  return doc;
}

async function sweep(): Promise<Awaited<ReturnType<typeof runOnce>>> {
  return runOnce(ws, baseEnv(ws, datajud));
}

async function mails(): Promise<Array<{ subject: string; text: string }>> {
  const parsed = await Promise.all(emlFiles(ws).map((raw) => simpleParser(raw)));
  return parsed
    .map((m) => ({ subject: m.subject ?? "", text: m.text ?? "" }))
    .sort((a, b) => a.subject.localeCompare(b.subject));
}

beforeAll(async () => {
  datajud = await startFakeDataJud({ apiKey: "real-corrections-key" });
});

afterAll(async () => {
  await datajud.close();
});

describe("a hearing cancelled in place after it was mailed", () => {
  beforeEach(async () => {
    ws = workspace("real-corrections-", [formatted(TJTO)]);
    serve("tjto", tjto());
    await sweep();
    serve("tjto", tjto(HEARING));
    await sweep();
  });

  it("mails one urgent correction, keeps both forms, and history still shows what was mailed", async () => {
    serve("tjto", tjto(cancelledHearing(HEARING)));

    const run = await sweep();
    const all = await mails();
    const history = await caseHistory(ws.dbPath, formatted(TJTO));
    const cli = await cliInProcess(
      ["history", formatted(TJTO), "--json"],
      baseEnv(ws, datajud),
      ws.dir,
    );

    expect(run.report.cases[0]).toMatchObject({ outcome: "changed", newMovements: 0 });
    expect(all).toHaveLength(2);
    // A hearing designated is urgent by itself: the lawyer's calendar changes (issue 34).
    expect(all[0]?.subject).toMatch(
      /^\[datajud\] ⚠ URGENTE 0003495-35\.2017\.8\.27\.2716: .* \(1 movimentação nova\)$/,
    );
    expect(all[0]?.text).toContain("audiência: Audiência de conciliação designada.");
    expect(all[1]?.subject).toMatch(
      /^\[datajud\] ⚠ URGENTE 0003495-35\.2017\.8\.27\.2716: .* \(correção: Audiência de conciliação: designada → cancelada\)$/,
    );
    const correction = all[1]?.text ?? "";
    expect(correction).toContain("CORREÇÕES DO TRIBUNAL (1)");
    expect(correction).toContain(
      "Antes: 20/11/2026 14:10 · Audiência de conciliação designada · situação da audiência: designada; tipo de audiência: conciliação; dirigida por: Conciliador(a)",
    );
    expect(correction).toContain("Agora: 20/11/2026 14:10 · Audiência de conciliação cancelada");
    expect(correction).toContain("MOVIMENTAÇÕES NOVAS (0)");
    expect(
      query(
        ws,
        "SELECT version, kind, json_extract(data, '$.complements[0].name') AS situation FROM movement_versions ORDER BY version",
      ),
    ).toEqual([
      { version: 1, kind: "first", situation: "designada" },
      { version: 2, kind: "amended", situation: "cancelada" },
    ]);
    const [correcting, reporting] = history.changes;
    expect(
      correcting?.corrections.map((c) => [
        c.headline,
        c.before.complements[0],
        c.after.complements[0],
      ]),
    ).toEqual([
      [
        "Audiência de conciliação: designada → cancelada",
        "situação da audiência: designada",
        "situação da audiência: cancelada",
      ],
    ]);
    expect(reporting?.newMovements.map((m) => [m.title, m.complements[0]])).toEqual([
      ["Audiência de conciliação designada", "situação da audiência: designada"],
    ]);
    expect(history.movementVersions[0]?.versions.map((v) => [v.version, v.reported])).toEqual([
      [1, true],
      [2, true],
    ]);
    const fromCli = JSON.parse(cli.stdout).cases[0];
    expect(
      fromCli.changes.map(
        (c: { movements: Array<{ data: { complements: Array<{ name: string }> } }> }) =>
          c.movements.map((m) => m.data.complements[0]?.name),
      ),
    ).toEqual([[], ["designada"]]);
  });
});

describe("a disponibilização re-dated from 16/01 to 17/01/2024", () => {
  it("mails the correction with the counting dates before and after, not urgent in 2026", async () => {
    ws = workspace("real-corrections-", [formatted(TJAL)]);
    serve("tjal", tjal("2024-01-16T13:41:41.000Z"));
    await sweep();
    serve("tjal", tjal("2024-01-17T13:41:41.000Z"));

    const run = await sweep();
    const [mail] = await mails();

    expect(run.report.cases[0]).toMatchObject({ outcome: "changed", newMovements: 0 });
    // Read in late 2026, no period counted from January 2024 can still be running (the longest,
    // 30 days doubled, ends by April 2024): a correction, not "⚠ URGENTE … refaça a contagem".
    expect(mail?.subject).toMatch(/^\[datajud\] 0001663-20\.2011\.8\.02\.0049: /);
    expect(mail?.subject).toContain(
      "(correção: Disponibilização no Diário da Justiça Eletrônico: data corrigida de 16/01/2024 13:41 para 17/01/2024 13:41)",
    );
    // By hand: made available Tue 16/01/2024, published Wed 17/01 (Lei 11.419/2006 art. 4 §3);
    // made available Wed 17/01, published Thu 18/01. Either way the count cannot start before
    // Sun 21/01 (CPC art. 220 suspends deadlines 20/12-20/01), so it starts Mon 22/01 (art. 4 §4).
    expect(mail?.text).toContain(
      "Datas de prazo, estimativa: antes publicação 17/01/2024, prazo a partir de 22/01/2024 (prazos suspensos de 20/12 a 20/01, 18/01/2024 a 20/01/2024 (CPC, art. 220)); agora publicação 18/01/2024, prazo a partir de 22/01/2024 (prazos suspensos de 20/12 a 20/01, 19/01/2024 a 20/01/2024 (CPC, art. 220))",
    );
    // On the TJAL's calendar at the unit's seat (Penedo), as a DJEN item of those days.
    expect(mail?.text).toContain("no calendário do tribunal).");
    expect(mail?.text).not.toContain("mudou a data de que um prazo pode contar");
    expect(mail?.text).not.toContain("URGENTE");
  });
});
