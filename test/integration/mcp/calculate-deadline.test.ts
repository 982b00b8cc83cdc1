import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../../src/cli/run-cli.js";
import { calculateDeadline } from "../../../src/deadlines/calculator.js";
import { calendarsWith, estimatePublication } from "../../../src/deadlines/publication-estimate.js";
import { connectInProcess, type InProcessConnection } from "../../../src/mcp/in-process-client.js";
import { createDataJudServer } from "../../../src/mcp/server.js";
import { addDays } from "../../../src/time/calendar-date.js";
import { captureIo } from "../../support/cli-io.js";
import { makeTempDir } from "../../support/temp-dir.js";

/*
 * The lawyer's calculator through both doors, `datajud-monitor prazo --json` and the MCP tool
 * calculate_deadline: the same answer, and the expected days worked out by hand from the law and
 * the court's acts (never from our output).
 */

let connection: InProcessConnection;
beforeAll(async () => {
  connection = await connectInProcess(createDataJudServer({ reader: null, unavailable: "none" }));
});
afterAll(async () => {
  await connection.close();
});

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const dir = makeTempDir("prazo-");
  const io = captureIo({ PATH: process.env.PATH ?? "" }, dir, ["prazo", ...argv]);
  const code = await runCli(io);
  return { code, out: io.out(), err: io.err() };
}

async function tool(args: Record<string, unknown>) {
  return connection.client.callTool({ name: "calculate_deadline", arguments: args });
}

/** Both doors on one question: the CLI's JSON must equal the tool's structured answer. */
async function both(argv: string[], args: Record<string, unknown>) {
  const run = await cli([...argv, "--json"]);
  expect(run.code, run.err).toBe(0);
  const fromCli = JSON.parse(run.out) as Record<string, unknown>;
  const result = await tool(args);
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  expect(result.structuredContent).toEqual(fromCli);
  return fromCli as {
    publishedOn: string | null;
    countingStartsOn: string;
    lastDay: string;
    rule: string;
    seat: { municipality: number | null; from: string };
    skippedDays: Array<{ from: string; to: string; source: string }>;
    notKnown: Array<{ year: number; items: string[] }>;
  };
}

const skips = (answer: { skippedDays: Array<{ from: string; to: string }> }, day: string) =>
  answer.skippedDays.some((s) => s.from <= day && day <= s.to);

describe("prazo and calculate_deadline, worked out by hand", () => {
  it("TJSP, São Paulo: 15 dias úteis from Fri 04/12/2026 end Tue 02/02/2027", async () => {
    // Provimento CSM 2.813/2025 closes Mon 07/12 and Tue 08/12 (Dia da Justiça): published Wed
    // 09/12 (Lei 11.419/2006 art. 4 §3), counting from Thu 10/12 (§4). 10, 11, 14-18 = 7 days;
    // suspended 20/12-20/01 (CPC art. 220); 21, 22 = 9; 25/01 São Paulo's anniversary (Lei
    // municipal); 26-29 = 13; 01/02 = 14; 02/02 = 15 (CPC art. 219).
    const answer = await both(
      [
        "--court",
        "tjsp",
        "--municipality",
        "3550308",
        "--available-on",
        "04/12/2026",
        "--days",
        "15",
      ],
      { court: "tjsp", municipality: 3550308, availableOn: "2026-12-04", period: 15 },
    );
    expect(answer.publishedOn).toBe("2026-12-09");
    expect(answer.countingStartsOn).toBe("2026-12-10");
    expect(answer.lastDay).toBe("2027-02-02");
    expect(skips(answer, "2026-12-08")).toBe(true);
    expect(skips(answer, "2027-01-25")).toBe(true);
    expect(answer.rule).toContain("CPC, arts. 219, 220 e 224");
  });

  it("TRT2, São Paulo: 8 days from Fri 11/12/2026 run over CLT art. 775-A to Wed 27/01/2027", async () => {
    // Published Mon 14/12, counting from Tue 15/12: 15-18 = 4 business days (CLT art. 775);
    // 20/12-20/01 suspended (CLT art. 775-A; Lei 5.010/1966 art. 62 I); 21, 22 = 6; 25/01
    // municipal; 26 = 7; 27 = 8. A count ignoring art. 775-A would end on 28/12.
    const answer = await both(
      [
        "--court",
        "trt2",
        "--municipality",
        "3550308",
        "--available-on",
        "2026-12-11",
        "--days",
        "8",
      ],
      { court: "trt2", municipality: 3550308, availableOn: "11/12/2026", period: 8 },
    );
    expect(answer.publishedOn).toBe("2026-12-14");
    expect(answer.countingStartsOn).toBe("2026-12-15");
    expect(answer.lastDay).toBe("2027-01-27");
    expect(answer.rule).toContain("CLT, arts. 775 e 775-A");
  });

  it("STF: 5 days from Fri 02/07/2027 start after its vacations, Mon 02/08 to Fri 06/08", async () => {
    // RISTF arts. 78 and 105: no period runs 02-31/07; the count begins Mon 02/08 and its fifth
    // business day is Fri 06/08 (CPC art. 219).
    const answer = await both(["--court", "stf", "--available-on", "02/07/2027", "--days", "5"], {
      court: "stf",
      availableOn: "2027-07-02",
      period: 5,
    });
    expect(answer.countingStartsOn).toBe("2027-08-02");
    expect(answer.lastDay).toBe("2027-08-06");
  });

  it("TJRS by case number, from a counting start on Porto Alegre's 02/02/2026: 5 days to 09/02", async () => {
    // Origin 0001: Porto Alegre. Mon 02/02 is Nossa Senhora dos Navegantes there: the count
    // begins Tue 03/02 (CPC art. 224 §1); 03, 04, 05, 06, 09/02.
    const answer = await both(
      ["--case", "5001234-59.2026.8.21.0001", "--start", "02/02/2026", "--days", "5"],
      { cnjNumber: "5001234-59.2026.8.21.0001", countingStartsOn: "2026-02-02", period: 5 },
    );
    expect(answer.seat).toMatchObject({ municipality: 4314902, from: "case-number" });
    expect(answer.countingStartsOn).toBe("2026-02-03");
    expect(answer.lastDay).toBe("2026-02-09");
  });

  it("TRF1 by case number, from a counting start on Cuiabá's 08/04/2026: 5 days to 15/04", async () => {
    // Origin 3600: the Seção Judiciária de Mato Grosso, seated in Cuiabá (origin-seats.json, from
    // the TRF1's list of units; CF art. 110). Wed 08/04 is the founding of Cuiabá (Lei municipal
    // 1.077/1968): the count begins Thu 09/04 (CPC art. 224 §1); 09, 10, 13, 14, 15/04.
    const answer = await both(
      ["--case", "1001234-88.2026.4.01.3600", "--start", "08/04/2026", "--days", "5"],
      { cnjNumber: "1001234-88.2026.4.01.3600", countingStartsOn: "2026-04-08", period: 5 },
    );
    expect(answer.seat).toMatchObject({ municipality: 5103403, from: "case-number" });
    expect(answer.countingStartsOn).toBe("2026-04-09");
    expect(answer.lastDay).toBe("2026-04-15");
  });

  it("TJSP by case number, a foro regional of the capital: São Paulo's 25/01/2027 moves the start", async () => {
    // Origin 0002: Foro Regional II - Santo Amaro, in São Paulo (TJSP's list). Mon 25/01/2027 is
    // the city's anniversary (Lei municipal SP 14.485/2007, art. 10): the count begins Tue 26/01;
    // 26, 27, 28, 29/01, 01/02 (after CPC art. 220's 20/01, before Carnival on 08-09/02).
    const answer = await both(
      ["--case", "1001234-52.2027.8.26.0002", "--start", "25/01/2027", "--days", "5"],
      { cnjNumber: "1001234-52.2027.8.26.0002", countingStartsOn: "2027-01-25", period: 5 },
    );
    expect(answer.seat).toMatchObject({ municipality: 3550308, from: "case-number" });
    expect(answer.countingStartsOn).toBe("2027-01-26");
    expect(answer.lastDay).toBe("2027-02-01");
  });

  it("doubled for the Fazenda Pública (CPC art. 183): 15 days become 30, to Wed 18/03/2026", async () => {
    // TJRS, Porto Alegre, made available Fri 30/01/2026: published Tue 03/02 (02/02 municipal),
    // counting from Wed 04/02. 30 business days: 04-06 = 3, 09-13 = 8, 16 = 9 (Carnival Monday:
    // no TJRS act known, a working day), 17/02 Carnival Tuesday closed (Lei 1.408/1951 art. 5),
    // 18-20 = 12, 23-27 = 17, 02-06/03 = 22, 09-13/03 = 27, 16, 17, 18/03 = 30.
    const answer = await both(
      [
        "--case",
        "50012345920268210001",
        "--available-on",
        "30/01/2026",
        "--days",
        "15",
        "--doubled",
        "fazenda",
      ],
      {
        cnjNumber: "50012345920268210001",
        availableOn: "2026-01-30",
        period: 15,
        doubledFor: "fazenda",
      },
    );
    expect(answer.publishedOn).toBe("2026-02-03");
    expect(answer.lastDay).toBe("2026-03-18");
    expect(answer.rule).toContain("CPC, art. 183");
  });

  it("says what the calendar does not know, and prints it for the lawyer in Portuguese", async () => {
    const run = await cli(["--court", "tjsp", "--available-on", "04/12/2026", "--days", "15"]);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain("Último dia:         seg 01/02/2027");
    expect(run.out).toContain("feriados municipais (a sede da unidade não é conhecida)");
    expect(run.out).toContain("Dia da Justiça, 08/12/2026 (Provimento CSM TJSP 2.813/2025");
  });
});

describe("usage errors say what is wrong and what to write", () => {
  it.each([
    [
      ["--court", "tjsp", "--available-on", "04/12", "--days", "15"],
      "has no year: write it whole, e.g. 04/12/2026",
    ],
    [
      ["--available-on", "04/12/2026", "--days", "15"],
      "no court: give the court's alias (--court tjsp",
    ],
    [["--court", "tjsp", "--available-on", "04/12/2026"], "no period: give --days N"],
    [
      ["--court", "tjsp", "--available-on", "04/12/2026", "--start", "07/12/2026", "--days", "5"],
      "not both",
    ],
    [["--court", "tjxx", "--available-on", "04/12/2026", "--days", "5"], "tjxx"],
    [
      ["--court", "tjsp", "--available-on", "04/12/2026", "--days", "5", "--doubled", "uniao"],
      "write fazenda, mp or defensoria",
    ],
  ])("prazo %j exits 2", async (argv, message) => {
    const run = await cli(argv);
    expect(run.code).toBe(2);
    expect(run.err).toContain(message);
    expect(run.out).toBe("");
  });

  it("the tool answers the same mistakes as invalid_input, never a date", async () => {
    const result = await tool({ court: "tjsp", availableOn: "04/12", period: 15 });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("has no year");
    const juizado = await tool({
      court: "tjsp",
      availableOn: "2026-12-04",
      period: 15,
      doubledFor: "fazenda",
      className: "Procedimento do Juizado Especial da Fazenda Pública",
    });
    expect(juizado.isError).toBe(true);
    expect(JSON.stringify(juizado.content)).toContain("Lei 12.153/2009");
  });
});

/** A small deterministic generator (no real randomness in tests). */
function generator(seed: number) {
  let state = seed >>> 0;
  return (n: number) => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state % n;
  };
}

describe("the calculator and the publication estimates agree", () => {
  it("on 300 random courts, seats, dates and periods", () => {
    const courts: Array<[string, number | undefined, string]> = [
      ["tjsp", 3550308, "Procedimento Comum Cível"],
      ["tjrj", undefined, "Procedimento Comum Cível"],
      ["tjrs", 4314902, "Procedimento Comum Cível"],
      ["tjpr", undefined, "Procedimento Comum Cível"],
      ["tjms", undefined, "Procedimento Comum Cível"],
      ["trf3", 3550308, "Procedimento Comum Cível"],
      ["trf5", 2611606, "Procedimento Comum Cível"],
      ["trt2", 3550308, "Ação Trabalhista - Rito Ordinário"],
      ["trt4", undefined, "Ação Trabalhista - Rito Ordinário"],
      ["stj", undefined, "Recurso Especial"],
      ["stf", undefined, "Recurso Extraordinário"],
      ["tst", undefined, "Recurso de Revista"],
      ["tjsp", undefined, "Ação Penal - Procedimento Ordinário"],
    ];
    const calendars = calendarsWith();
    const next = generator(35);
    for (let i = 0; i < 300; i++) {
      const picked = courts[next(courts.length)];
      if (picked === undefined) throw new Error("no court");
      const [court, municipality, className] = picked;
      const availableOn = addDays("2025-01-01", next(3 * 365));
      const days = 1 + next(30);
      const published = estimatePublication(
        {
          court: court.toUpperCase(),
          kind: "Intimação",
          documentType: "Decisão",
          className,
          medium: "D",
          availableOn,
          caseNumber: null,
          recipients: [{ name: "JOÃO DA SILVA", side: "A" }],
          lawyers: [{ nome: "ADVOGADA" }],
        },
        `Intime-se a parte para, no prazo de ${days} dias, manifestar-se sobre os documentos.`,
        calendars,
        { municipality },
      );
      const calculated = calculateDeadline(
        {
          court,
          municipality: municipality ?? null,
          caseNumber: null,
          availableOn,
          countingStartsOn: null,
          amount: days,
          unit: "days",
          dayKind: null,
          doubledFor: null,
          className,
          criminal: false,
        },
        calendars,
      );
      const where = `${court} ${availableOn} ${days}`;
      expect(calculated.publishedOn, where).toBe(published.publishedOn);
      expect(calculated.countingStartsOn, where).toBe(published.countingStartsOn);
      expect(calculated.lastDay, where).toBe(published.lastDay);
      expect(calculated.skippedDays, where).toEqual(published.skippedDays);
    }
  });
});
