import { writeFileSync } from "node:fs";
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
 * The real tjal cumprimento de sentença (newest movement 12/03/2024), first read without its
 * Publicação of 17/01/2024, which DataJud then lists in this sweep (2026): a late record,
 * reported with its own date in a quiet part of the mail, never as news nor urgent, unless the
 * watchlist's urgent rules say so.
 */

const hits = loadRealHits();
const TJAL = "00016632020118020049";
const LATE_AT = "2024-01-17T16:37:19.000Z";

type RawMovement = Record<string, unknown>;

let datajud: FakeDataJud;
const stamp = updateStamper();

function serve(doc: FixtureDoc): void {
  stamp([doc]);
  datajud.setDocuments("tjal", [doc]);
}

function tjal(options: { withLate: boolean; extra?: RawMovement[] }): FixtureDoc {
  const doc = realHit(hits, "tjal", TJAL, "G1");
  const movements = doc._source.movimentos as RawMovement[];
  const kept = options.withLate
    ? movements
    : movements.filter((m) => !(m.codigo === 92 && m.dataHora === LATE_AT));
  if (kept.length !== movements.length - (options.withLate ? 0 : 1)) {
    throw new Error("fixture: no Publicação on 17/01/2024");
  }
  doc._source.movimentos = [...kept, ...(options.extra ?? [])];
  return doc;
}

/** A day some days before the real now, as DataJud stamps it (the court's wall clock, `Z`). */
function daysAgo(days: number): string {
  return `${new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10)}T14:00:00.000Z`;
}

async function mails(ws: Workspace): Promise<Array<{ subject: string; text: string }>> {
  const parsed = await Promise.all(emlFiles(ws).map((raw) => simpleParser(raw)));
  return parsed.map((m) => ({ subject: m.subject ?? "", text: m.text ?? "" }));
}

/** Baseline without the Publicação, then the sweep that first lists it. */
async function lateSweep(ws: Workspace, extra: RawMovement[] = []) {
  serve(tjal({ withLate: false }));
  await runOnce(ws, baseEnv(ws, datajud));
  serve(tjal({ withLate: true, extra }));
  return runOnce(ws, baseEnv(ws, datajud));
}

beforeAll(async () => {
  datajud = await startFakeDataJud({ apiKey: "real-late-key" });
});

afterAll(async () => {
  await datajud.close();
});

describe("a Publicação of 2024 first listed by DataJud in 2026", () => {
  it("is one quiet mail: a late record with its own date, no news, no urgency, no attention", async () => {
    const ws = workspace("real-late-", [formatted(TJAL)]);

    const run = await lateSweep(ws);
    const [mail, ...more] = await mails(ws);
    const history = await caseHistory(ws.dbPath, formatted(TJAL));
    const cli = await cliInProcess(["history", formatted(TJAL)], baseEnv(ws, datajud), ws.dir);

    expect(run.report.cases[0]).toMatchObject({ outcome: "changed", newMovements: 1 });
    expect(more).toEqual([]);
    expect(mail?.subject).toMatch(
      /^\[datajud\] 0001663-20\.2011\.8\.02\.0049: .* \(sem novidade; 1 registro antigo listado agora, de 17\/01\/2024\)$/,
    );
    const text = mail?.text ?? "";
    expect(text).toContain("MOVIMENTAÇÕES NOVAS (0)\nNenhuma.");
    expect(text).toContain("REGISTROS ANTIGOS LISTADOS AGORA (1)");
    expect(text).toMatch(
      /\n- 17\/01\/2024 16:37 · Publicação · código 92 · 1º grau \(G1\) \(listada \d{3,} dias depois da própria data\)\n/,
    );
    expect(text).not.toContain("URGENTE");
    expect(text).not.toContain("REQUER ATENÇÃO");
    expect(
      query<{ kinds: string; late: string }>(
        ws,
        "SELECT kind AS kinds, json_extract(details, '$.lateMovementIds') AS late FROM changes",
      ).map((c) => [JSON.parse(c.kinds), JSON.parse(c.late).length]),
    ).toEqual([[["late_movements"], 1]]);
    const [change] = history.changes;
    expect(change?.newMovements).toEqual([]);
    expect(change?.lateMovements.map((m) => [m.dateTime, m.title])).toEqual([
      ["2024-01-17T16:37:19", "Publicação"],
    ]);
    expect(change?.summary).toMatchObject({ needsLawyerAttention: false, disposition: "alert" });
    expect(cli.stdout).toMatch(
      /17\/01\/2024 16:37 {2}92 {2}Publicação {2}· 1º grau \(G1\) {2}\(late record: first listed \d{3,} days after its date; mailed apart, not as news\)/,
    );
  });

  it("stays apart from a movement of ten days ago, which is the news of the mail", async () => {
    const ws = workspace("real-late-", [formatted(TJAL)]);
    const recent = { codigo: 11010, nome: "Mero expediente", dataHora: daysAgo(10) };

    await lateSweep(ws, [recent]);
    const [mail] = await mails(ws);
    const history = await caseHistory(ws.dbPath, formatted(TJAL));

    expect(mail?.subject).toMatch(/ \(1 movimentação nova\)$/);
    expect(mail?.text).toContain("MOVIMENTAÇÕES NOVAS (1)\n- ");
    expect(mail?.text).toContain("Despacho de mero expediente");
    expect(mail?.text).toContain("REGISTROS ANTIGOS LISTADOS AGORA (1)");
    expect(history.changes[0]?.newMovements.map((m) => m.code)).toEqual([11010]);
    expect(history.changes[0]?.lateMovements.map((m) => m.code)).toEqual([92]);
  });

  it("is urgent when the watchlist's urgent rules name it, and says why", async () => {
    const ws = workspace("real-late-", [formatted(TJAL)]);
    writeFileSync(
      ws.watchlistPath,
      `defaults:\n  notify: [ana@example.com]\n  urgent: [92]\ncases:\n  - number: "${formatted(TJAL)}"\n`,
    );

    await lateSweep(ws);
    const [mail] = await mails(ws);

    expect(mail?.subject).toMatch(/^\[datajud\] ⚠ URGENTE 0001663-20\.2011\.8\.02\.0049: /);
    expect(mail?.text).toContain(
      "URGENTE: há registro antigo, listado agora pelo DataJud, que o watchlist marca como urgente.",
    );
    expect(mail?.text).toContain("REGISTROS ANTIGOS LISTADOS AGORA (1)");
  });
});
