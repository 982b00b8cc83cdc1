import { simpleParser } from "mailparser";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CaseReader } from "../../../src/datajud/case-reader.js";
import { DataJudHttpClient } from "../../../src/datajud/http-client.js";
import { connectInProcess } from "../../../src/mcp/in-process-client.js";
import { createDataJudServer } from "../../../src/mcp/server.js";
import { callTool } from "../../../src/mcp/tool-caller.js";
import { GetCaseOutput, ListMovementsOutput } from "../../../src/mcp/tool-schemas.js";
import { systemClock } from "../../../src/time/clock.js";
import { type FakeDataJud, startFakeDataJud } from "../../fakes/fake-datajud.js";
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
  formatted,
  loadRealHits,
  REAL,
  realHit,
  updateStamper,
} from "../../support/real-datajud.js";

/**
 * The real tjrr record (195 movements, 50 of them exact repeats of others) through the fake
 * DataJud, the MCP server and the sweep: repeats are separate events, a new copy is news, a copy
 * that goes is recorded quietly, and a movement re-served in another shape is not news.
 */

const hits = loadRealHits();
const NUMBER = formatted(REAL.tjrrRepeats);
type RawMovement = Record<string, unknown> & { complementosTabelados?: unknown[] };

let datajud: FakeDataJud;
let ws: Workspace;
const stamp = updateStamper("2024-09-01");

function record(): FixtureDoc {
  return realHit(hits, "tjrr", REAL.tjrrRepeats, "G1");
}

function movementsOf(doc: FixtureDoc): RawMovement[] {
  return doc._source.movimentos as RawMovement[];
}

/** DataJud serving `doc` as the record's latest push. */
function serve(doc: FixtureDoc): void {
  stamp([doc]);
  datajud.setDocuments("tjrr", [doc]);
}

/** The index of a movement in the real list by code and date. */
function at(doc: FixtureDoc, code: number, dataHora: string): number {
  const i = movementsOf(doc).findIndex((m) => m.codigo === code && m.dataHora === dataHora);
  if (i === -1) throw new Error(`no movement ${code} at ${dataHora}`);
  return i;
}

const REPEATED = { codigo: 60, dataHora: "2024-01-15T13:36:30.000Z" };

async function sweep(): Promise<Awaited<ReturnType<typeof runOnce>>> {
  return runOnce(ws, baseEnv(ws, datajud));
}

beforeAll(async () => {
  datajud = await startFakeDataJud({ apiKey: "real-multiset-key" });
});

afterAll(async () => {
  await datajud.close();
});

beforeEach(async () => {
  ws = workspace("real-multiset-", [NUMBER]);
  serve(record());
  const baseline = await sweep();
  if (baseline.report.cases[0]?.outcome !== "baseline") throw new Error("no baseline");
});

describe("the tjrr record's 195 movements, 50 of them repeats", () => {
  it("are 195 in the store, in history and in the MCP tools", async () => {
    const http = new DataJudHttpClient({
      baseUrl: datajud.url,
      apiKey: datajud.apiKey,
      clock: systemClock,
      random: Math.random,
    });
    const connection = await connectInProcess(
      createDataJudServer({ reader: new CaseReader(http) }),
    );
    const call = { timeoutMs: 30_000 };

    try {
      const got = await callTool(
        connection.client,
        "get_case",
        { cnjNumber: NUMBER },
        GetCaseOutput,
        call,
      );
      const listed = await callTool(
        connection.client,
        "list_movements",
        { cnjNumber: NUMBER, limit: 100 },
        ListMovementsOutput,
        call,
      );
      const history = await cliInProcess(
        ["history", NUMBER, "--json"],
        baseEnv(ws, datajud),
        ws.dir,
      );

      expect(query(ws, "SELECT COUNT(*) AS n FROM movements")).toEqual([{ n: 195 }]);
      expect(got.records[0]?.movementCount).toBe(195);
      expect(listed.instances[0]?.totalMovements).toBe(195);
      expect(JSON.parse(history.stdout).cases[0].movementCount).toBe(195);
    } finally {
      await connection.close();
    }
  });

  it("alert a new copy of a repeated movement once (a copy of 2024: as a late record)", async () => {
    const doc = record();
    const copy = structuredClone(movementsOf(doc)[at(doc, REPEATED.codigo, REPEATED.dataHora)]);
    movementsOf(doc).push(copy as RawMovement);
    serve(doc);

    const run = await sweep();

    expect(run.report.cases[0]).toMatchObject({ outcome: "changed", newMovements: 1 });
    const mails = emlFiles(ws);
    expect(mails).toHaveLength(1);
    const mail = await simpleParser(mails[0] ?? "");
    // A copy of 2024 first listed now, behind the record's newest movement: a late record.
    expect(mail.text).toContain("MOVIMENTAÇÕES NOVAS (0)");
    expect(mail.text).toContain("REGISTROS ANTIGOS LISTADOS AGORA (1)");
    expect(mail.text).toContain(
      "- 15/01/2024 13:36 · Expedição de documento (6ª ocorrência idêntica) · código 60 · 1º grau (G1) (listada",
    );
    expect(
      query(
        ws,
        "SELECT MAX(occurrence) AS n FROM movements WHERE code = 60 AND date_time = ?",
        "2024-01-15T13:36:30",
      ),
    ).toEqual([{ n: 6 }]);
  });

  it("record two copies that disappear without alerting, and show them in history", async () => {
    const doc = record();
    const first = at(doc, REPEATED.codigo, REPEATED.dataHora);
    movementsOf(doc).splice(first, 1);
    movementsOf(doc).splice(at(doc, REPEATED.codigo, REPEATED.dataHora), 1);
    serve(doc);

    const run = await sweep();
    const history = await cliInProcess(["history", NUMBER], baseEnv(ws, datajud), ws.dir);

    expect(run.report.cases[0]).toMatchObject({ outcome: "unchanged", newMovements: 0 });
    expect(run.report.emailsQueued).toBe(0);
    expect(emlFiles(ws)).toEqual([]);
    expect(history.stdout).toContain("193 movements listed by DataJud (and 2 no longer listed)");
    expect(history.stdout.match(/movement no longer listed by DataJud/g)).toHaveLength(2);
    expect(history.stdout).toContain("15/01/2024 13:36  60  Expedição de documento");
  });

  it("do not alert movements re-served reordered, with one more complement, in other case or spacing", async () => {
    const doc = record();
    const list = movementsOf(doc);
    const hearing = list[at(doc, 970, "2021-01-04T09:46:20.000Z")] as RawMovement;
    hearing.complementosTabelados = [...(hearing.complementosTabelados ?? [])].reverse();
    const petition = list[at(doc, 85, "2020-10-30T18:06:52.000Z")] as RawMovement;
    petition.complementosTabelados = [
      ...(petition.complementosTabelados ?? []),
      { codigo: 5, valor: 1, nome: "urgente", descricao: "prioridade" },
    ];
    const remessa = list[at(doc, 123, "2020-10-30T18:06:52.000Z")] as RawMovement;
    remessa.nome = "REMESSA";
    const renuncia = list[at(doc, 85, "2020-11-24T20:30:00.000Z")] as RawMovement;
    renuncia.nome = "Petição  ";
    renuncia.dataHora = "24/11/2020 20:30:00";
    serve(doc);

    const run = await sweep();
    const history = await cliInProcess(["history", NUMBER], baseEnv(ws, datajud), ws.dir);

    expect(run.report.cases[0]).toMatchObject({ outcome: "unchanged", newMovements: 0 });
    expect(emlFiles(ws)).toEqual([]);
    expect(query(ws, "SELECT COUNT(*) AS n FROM movements")).toEqual([{ n: 195 }]);
    expect(history.stdout).toContain("movement completed by DataJud (version 2; not mailed");
    expect(history.stdout).toContain("(was: Petição · tipo de petição: Petição inicial)");
  });
});
