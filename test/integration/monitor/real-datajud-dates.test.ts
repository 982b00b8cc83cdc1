import { simpleParser } from "mailparser";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CaseReader } from "../../../src/datajud/case-reader.js";
import { DataJudHttpClient } from "../../../src/datajud/http-client.js";
import { connectInProcess } from "../../../src/mcp/in-process-client.js";
import { createDataJudServer } from "../../../src/mcp/server.js";
import { callTool } from "../../../src/mcp/tool-caller.js";
import { ListMovementsOutput } from "../../../src/mcp/tool-schemas.js";
import { systemClock } from "../../../src/time/clock.js";
import { type FakeDataJud, startFakeDataJud } from "../../fakes/fake-datajud.js";
import {
  baseEnv,
  cliInProcess,
  emlFiles,
  runOnce,
  type Workspace,
  workspace,
} from "../../support/cli-harness.js";
import { formatted, loadRealHits, REAL, realHit } from "../../support/real-datajud.js";

/**
 * DataJud's dates are the court's wall clock even where they say `Z`: a publication stamped
 * 00:15Z is shown at 00:15 of its own day in every output, on a real record served by the fake.
 */

const hits = loadRealHits();
const NUMBER = formatted(REAL.tjdftLong);
const PUBLICATION = {
  codigo: 92,
  nome: "Publicação",
  dataHora: "2025-11-04T00:15:00.000Z",
  complementosTabelados: [],
};

let datajud: FakeDataJud;
let ws: Workspace;

function serveRealRecord(extra: readonly object[] = []): void {
  const g1 = realHit(hits, "tjdft", REAL.tjdftLong, "G1");
  const g2 = realHit(hits, "tjdft", REAL.tjdftLong, "G2");
  if (extra.length > 0) {
    (g1._source.movimentos as unknown[]).push(...extra);
    g1._source.dataHoraUltimaAtualizacao = "2025-11-04T06:00:00.000Z";
  }
  datajud.setDocuments("tjdft", [g1, g2]);
}

beforeAll(async () => {
  datajud = await startFakeDataJud({ apiKey: "real-dates-key" });
});

afterAll(async () => {
  await datajud.close();
});

beforeEach(() => {
  ws = workspace("real-dates-", [NUMBER]);
  serveRealRecord();
});

describe("a publication stamped 2025-11-04T00:15:00Z on a real tjdft record", () => {
  it("is shown at 04/11/2025 00:15 in the alert, history and export", async () => {
    const env = baseEnv(ws, datajud);
    const baseline = await runOnce(ws, env);
    serveRealRecord([PUBLICATION]);

    const moved = await runOnce(ws, env);
    const history = await cliInProcess(["history", NUMBER], env, ws.dir);
    const csv = await cliInProcess(["export", "--since", "2025-11-04"], env, ws.dir);
    const json = await cliInProcess(
      ["export", "--since", "2025-11-04", "--format", "json"],
      env,
      ws.dir,
    );

    expect(baseline.report.cases[0]?.outcome).toBe("baseline");
    // DataJud's own counts: 590 and 72, exact repeats (36 and 10) included, plus the publication.
    expect(history.stdout).toContain("663 movements listed by DataJud");
    expect(moved.report.cases[0]).toMatchObject({ outcome: "changed", newMovements: 1 });
    const mails = emlFiles(ws);
    expect(mails).toHaveLength(1);
    const mail = await simpleParser(mails[0] ?? "");
    expect(mail.text).toContain("- 04/11/2025 00:15 · Publicação · código 92 · 1º grau (G1)");
    expect(mail.html).toContain("<strong>04/11/2025 00:15</strong> · Publicação");
    expect(`${mail.text}${mail.html}`).not.toContain("03/11/2025 21:15");
    expect(history.stdout).toContain("04/11/2025 00:15  92  Publicação  · 1º grau (G1)");
    expect(history.stdout).toContain("read from DataJud's TJDFT index (api_publica_tjdft)");
    // After the first sweep the history lists what it stored, not only a count.
    expect(history.stdout).toContain(
      "first check (baseline, not mailed): 662 movements listed by DataJud\n",
    );
    expect(history.stdout).toContain("    … and 642 older (--format csv lists them all)\n");
    expect(history.stdout).toMatch(/\d\d:\d\d {2}new movements\n/);
    expect(mail.html).toContain("1º grau (G1)");
    expect(mail.text).toContain(
      "Índice consultado: índice do TJDFT no DataJud (api_publica_tjdft)",
    );
    const rows = csv.stdout.trim().split("\r\n").slice(1);
    expect(rows).toEqual([expect.stringContaining(',"2025-11-04 00:15:00",92,"Publicação",')]);
    expect(rows[0]).toMatch(/,"2025-11-04T00:15:00\.000Z","datajud",+"Publicação","listed",$/);
    const exported = JSON.parse(json.stdout) as {
      since: string;
      movements: Array<{ movement: { dateTime: string; dateTimeRaw: string } }>;
    };
    expect(exported.since).toBe("2025-11-04");
    expect(exported.movements.map((m) => m.movement)).toEqual([
      expect.objectContaining({
        dateTime: "2025-11-04T00:15:00",
        dateTimeRaw: "2025-11-04T00:15:00.000Z",
      }),
    ]);
  });

  it("is listed by the MCP tools at 2025-11-04T00:15:00, kept with what DataJud sent", async () => {
    serveRealRecord([PUBLICATION]);
    const http = new DataJudHttpClient({
      baseUrl: datajud.url,
      apiKey: datajud.apiKey,
      clock: systemClock,
      random: Math.random,
    });
    const connection = await connectInProcess(
      createDataJudServer({ reader: new CaseReader(http) }),
    );

    try {
      const listed = await callTool(
        connection.client,
        "list_movements",
        { cnjNumber: NUMBER, since: "2025-11-04", limit: 5 },
        ListMovementsOutput,
        { timeoutMs: 30_000 },
      );

      const g1 = listed.instances.find((i) => i.instance === "G1");
      expect(g1?.movements).toEqual([
        expect.objectContaining({
          code: 92,
          dateTime: "2025-11-04T00:15:00",
          dateTimeRaw: "2025-11-04T00:15:00.000Z",
        }),
      ]);
      expect(g1?.latestMovementAt).toBe("2025-11-04T00:15:00");
    } finally {
      await connection.close();
    }
  });
});
