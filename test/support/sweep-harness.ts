import { join } from "node:path";
import { CaseReader } from "../../src/datajud/case-reader.js";
import { DataJudHttpClient } from "../../src/datajud/http-client.js";
import { silentLogger } from "../../src/log.js";
import { connectInProcess, type InProcessConnection } from "../../src/mcp/in-process-client.js";
import { createDataJudServer } from "../../src/mcp/server.js";
import { type FingerprintedCase, mcpGateway } from "../../src/monitor/detect/datajud-gateway.js";
import type { SweepDeps } from "../../src/monitor/sweep.js";
import { closeDatabase, type Db, openDatabase } from "../../src/store/database.js";
import { realSystem } from "../../src/system.js";
import { systemClock } from "../../src/time/clock.js";
import type { FakeDataJud } from "../fakes/fake-datajud.js";
import { makeTempDir } from "./temp-dir.js";

/** The real sweep stack (HTTP client, MCP server and client, SQLite) against a fake DataJud. */
export interface SweepHarness {
  http: DataJudHttpClient;
  connection: InProcessConnection;
  db: Db;
  deps: SweepDeps;
  close(): Promise<void>;
}

export interface SweepHarnessOptions {
  maxAttempts?: number;
  tempPrefix?: string;
  /** datajud.concurrency. @default 8 */
  concurrency?: number;
  /** datajud.batchSize. @default 100 */
  batchSize?: number;
  timeoutMs?: number;
  totalTimeoutMs?: number;
}

export async function startSweepHarness(
  fake: FakeDataJud,
  options: SweepHarnessOptions = {},
): Promise<SweepHarness> {
  const concurrency = options.concurrency ?? 8;
  const batchSize = options.batchSize ?? 100;
  const http = new DataJudHttpClient({
    baseUrl: fake.url,
    apiKey: fake.apiKey,
    clock: systemClock,
    random: () => 0,
    concurrency,
    ...(options.maxAttempts === undefined ? {} : { maxAttempts: options.maxAttempts }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.totalTimeoutMs === undefined ? {} : { totalTimeoutMs: options.totalTimeoutMs }),
  });
  const connection = await connectInProcess(
    createDataJudServer({ reader: new CaseReader(http, { batchSize }) }),
  );
  const dir = makeTempDir(options.tempPrefix ?? "monitor-sweep-");
  const db = openDatabase(join(dir, "monitor.db"));
  const deps: SweepDeps = {
    db,
    gateway: mcpGateway(connection.client, { timeoutMs: 60_000 }),
    clock: systemClock,
    random: Math.random,
    host: realSystem,
    logger: silentLogger(),
    settings: { fullRereadDays: 7, notFoundThreshold: 3, concurrency, batchSize },
    datajudRequests: () => http.requestCount,
  };
  return {
    http,
    connection,
    db,
    deps,
    async close() {
      await connection.close();
      closeDatabase(db);
    },
  };
}

/** A fingerprint answer for gateways scripted by a test: none of `numbers` is in the index. */
export function notFoundAnswer(court: string, numbers: readonly string[]): FingerprintedCase[] {
  return numbers.map((cnjNumber) => ({
    cnjNumber,
    court,
    found: false,
    fingerprint: null,
    instances: [],
    provenance: { index: `api_publica_${court}`, url: "", fetchedAt: "" },
  }));
}
