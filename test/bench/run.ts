/**
 * `npm run bench`: requests, wall time and peak memory of sweeps against the loopback fake DataJud.
 * Figures, not assertions: the test suite never times anything.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { CaseReader } from "../../src/datajud/case-reader.js";
import { systemClock } from "../../src/datajud/clock.js";
import { computeCheckDigits, formatCnjNumber } from "../../src/datajud/cnj-number.js";
import { DataJudHttpClient } from "../../src/datajud/http-client.js";
import { silentLogger } from "../../src/log.js";
import { connectInProcess } from "../../src/mcp/in-process-client.js";
import { createDataJudServer } from "../../src/mcp/server.js";
import { mcpGateway } from "../../src/monitor/datajud-gateway.js";
import { runSweep } from "../../src/monitor/sweep.js";
import { closeDatabase, openDatabase } from "../../src/store/database.js";
import type { WatchedCase } from "../../src/watchlist/parse-watchlist.js";
import { startFakeDataJud } from "../fakes/fake-datajud.js";

const COURTS = [
  { alias: "tjsp", segment: "8", tribunal: "26" },
  { alias: "tjrj", segment: "8", tribunal: "19" },
  { alias: "tjmg", segment: "8", tribunal: "13" },
  { alias: "trf1", segment: "4", tribunal: "01" },
  { alias: "trt2", segment: "5", tribunal: "02" },
];

function caseNumber(
  i: number,
  court: (typeof COURTS)[number],
): { digits: string; formatted: string } {
  const sequence = String(1_000_000 + i).padStart(7, "0");
  const year = "2024";
  const origin = "0001";
  const check = computeCheckDigits(sequence, year, court.segment, court.tribunal, origin);
  const digits = `${sequence}${check}${year}${court.segment}${court.tribunal}${origin}`;
  return { digits, formatted: formatCnjNumber(digits) };
}

function documentFor(
  digits: string,
  alias: string,
  i: number,
): { _id: string; _source: Record<string, unknown> } {
  const movements = Array.from({ length: 25 }, (_, m) => ({
    codigo: m % 2 === 0 ? 51 : 85,
    nome: m % 2 === 0 ? "Conclusão" : "Petição",
    dataHora: new Date(Date.UTC(2024, 0, 1 + m, 12)).toISOString(),
    complementosTabelados: [
      { codigo: 3, valor: 5, nome: "para despacho", descricao: "tipo_de_conclusao" },
    ],
  }));
  return {
    _id: `${alias}_G1_${digits}`,
    _source: {
      numeroProcesso: digits,
      grau: "G1",
      id: `${alias}_G1_${digits}`,
      tribunal: alias.toUpperCase(),
      classe: { codigo: 7, nome: "Procedimento Comum Cível" },
      assuntos: [{ codigo: 7691, nome: "Cobrança" }],
      orgaoJulgador: { codigo: 100 + (i % 50), nome: "Vara Cível", codigoMunicipioIBGE: 3550308 },
      nivelSigilo: 0,
      dataAjuizamento: "20240101000000",
      dataHoraUltimaAtualizacao: "2025-01-01T00:00:00.000Z",
      "@timestamp": "2025-01-02T00:00:00.000Z",
      movimentos: movements,
    },
  };
}

interface Row {
  scenario: string;
  cases: number;
  requests: number;
  seconds: string;
  peakRssMb: string;
  dbMb: string;
}

async function measure(cases: number, changedShare: number, latencyMs: number): Promise<Row[]> {
  const fake = await startFakeDataJud({ apiKey: "bench", latencyMs });
  const dir = mkdtempSync(join(tmpdir(), "monitor-bench-"));
  const watchlist: WatchedCase[] = [];
  const docs = new Map<string, Array<{ _id: string; _source: Record<string, unknown> }>>();
  for (let i = 0; i < cases; i++) {
    const court = COURTS[i % COURTS.length] ?? COURTS[0];
    if (!court) throw new Error("no court");
    const { digits, formatted } = caseNumber(i, court);
    watchlist.push({
      number: formatted,
      digits,
      court: court.alias,
      label: null,
      notify: [],
      line: i + 1,
    });
    const list = docs.get(court.alias) ?? [];
    list.push(documentFor(digits, court.alias, i));
    docs.set(court.alias, list);
  }
  for (const [alias, list] of docs) fake.setDocuments(alias, list);

  const http = new DataJudHttpClient({
    baseUrl: fake.url,
    apiKey: "bench",
    requestsPerMinute: 120,
  });
  const connection = await connectInProcess(createDataJudServer({ reader: new CaseReader(http) }));
  const db = openDatabase(join(dir, "monitor.db"));
  const deps = {
    db,
    gateway: mcpGateway(connection.client, { timeoutMs: 600_000 }),
    clock: systemClock,
    logger: silentLogger(),
    settings: { fullRereadDays: 7, notFoundThreshold: 3 },
    datajudRequests: () => http.requestCount,
  };
  const rows: Row[] = [];
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const sweep = async (scenario: string): Promise<void> => {
    peak = process.memoryUsage().rss;
    const started = performance.now();
    const report = await runSweep(deps, {
      watchlist,
      force: false,
      dryRun: false,
      trigger: "manual",
    });
    const seconds = (performance.now() - started) / 1000;
    peak = Math.max(peak, process.memoryUsage().rss);
    rows.push({
      scenario: `${scenario}${latencyMs > 0 ? ` (${latencyMs} ms latency)` : ""}`,
      cases,
      requests: report.datajudRequests,
      seconds: seconds.toFixed(2),
      peakRssMb: (peak / 2 ** 20).toFixed(0),
      dbMb: (statSync(join(dir, "monitor.db")).size / 2 ** 20).toFixed(1),
    });
  };
  await sweep("baseline");
  await sweep("unchanged");
  if (changedShare > 0) {
    const step = Math.max(1, Math.round(1 / changedShare));
    for (let i = 0; i < cases; i += step) {
      const court = COURTS[i % COURTS.length];
      if (!court) continue;
      const { digits } = caseNumber(i, court);
      const doc = documentFor(digits, court.alias, i);
      (doc._source.movimentos as unknown[]).push({
        codigo: 193,
        nome: "Sentença",
        dataHora: "2025-06-01T12:00:00.000Z",
      });
      doc._source.dataHoraUltimaAtualizacao = "2025-06-02T00:00:00.000Z";
      fake.upsert(court.alias, doc);
    }
    await sweep(`${Math.round(changedShare * 100)}% changed`);
  }
  clearInterval(sampler);
  await connection.close();
  closeDatabase(db);
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
  return rows;
}

function printTable(rows: Row[]): void {
  const header = ["scenario", "cases", "DataJud requests", "wall s", "peak RSS MB", "DB MB"];
  const body = rows.map((r) => [
    r.scenario,
    String(r.cases),
    String(r.requests),
    r.seconds,
    r.peakRssMb,
    r.dbMb,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? "").length)));
  const line = (cells: string[]): string =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  process.stdout.write(`${line(header)}\n|${widths.map((w) => "-".repeat(w + 2)).join("|")}|\n`);
  for (const b of body) process.stdout.write(`${line(b)}\n`);
}

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "1000,10000" },
    latency: { type: "string", default: "0" },
    changed: { type: "string", default: "0.01" },
  },
});
const rows: Row[] = [];
for (const size of String(values.sizes).split(",").map(Number)) {
  rows.push(...(await measure(size, Number(values.changed), Number(values.latency))));
}
printTable(rows);
