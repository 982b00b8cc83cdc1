/**
 * DJEN's requests a minute when it answers slowly: the real DJEN client (its requestsPerMinute
 * limiter), the in-process MCP server's read_publications, the gateway and askBatches, against the
 * fake DJEN answering every request after a real delay, on the real clock. Asked for `minutes`,
 * then stopped; the rate is what the fake received in that time. Figures, not assertions: the
 * tests check the concurrency and the rate on a fake clock (ask-batches.test.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DjenClient } from "../../src/djen/http-client.js";
import { silentLogger } from "../../src/log.js";
import { connectInProcess } from "../../src/mcp/in-process-client.js";
import { createDataJudServer } from "../../src/mcp/server.js";
import { mcpPublicationGateway } from "../../src/monitor/publications/djen-gateway.js";
import { askBatches, batchesOf } from "../../src/monitor/publications/watch-publications.js";
import { closeDatabase, openDatabase } from "../../src/store/database.js";
import { systemClock } from "../../src/time/clock.js";
import { startFakeDjen } from "../fakes/fake-djen.js";
import { caseNumber } from "./bench-data.js";

export interface DjenLatencyRow {
  latencyMs: number;
  concurrency: number;
  requestsPerMinute: number;
  minutes: number;
  /** Requests DJEN received in those minutes. */
  requests: number;
  maxInFlight: number;
}

export async function djenLatencyRow(
  latencyMs: number,
  concurrency: number,
  minutes: number,
  requestsPerMinute = 20,
): Promise<DjenLatencyRow> {
  const fake = await startFakeDjen();
  fake.latencyMs = latencyMs;
  const dir = mkdtempSync(join(tmpdir(), "monitor-bench-djen-latency-"));
  const db = openDatabase(join(dir, "monitor.db"));
  const djen = new DjenClient({
    baseUrl: fake.url,
    clock: systemClock,
    random: Math.random,
    requestsPerMinute,
    timeoutMs: latencyMs + 30_000,
    totalTimeoutMs: 4 * (latencyMs + 30_000),
  });
  const connection = await connectInProcess(
    createDataJudServer({ reader: null, unavailable: "bench", djen }),
  );
  const controller = new AbortController();
  // More case numbers than the minutes can ask, whatever the concurrency.
  const sources = Array.from({ length: Math.ceil(minutes * requestsPerMinute * 2) }, (_, i) => ({
    kind: "case" as const,
    key: caseNumber(i).digits,
  }));
  const timer = setTimeout(() => controller.abort(), minutes * 60_000);
  try {
    await askBatches(
      {
        db,
        clock: systemClock,
        logger: silentLogger(),
        phase: {
          gateway: mcpPublicationGateway(connection.client, {
            timeoutMs: 8 * (latencyMs + 30_000),
          }),
          windowDays: 2,
          maxMinutesPerSweep: 0,
          concurrency,
          plan: { caseEveryHours: 8, oabEveryHours: 4, partyEveryHours: 24 },
          requests: () => djen.requestCount,
        },
        runId: null,
        write: true,
        signal: controller.signal,
        budgetMs: 0,
        lastOk: new Map(),
      },
      batchesOf(sources, concurrency),
    );
    return {
      latencyMs,
      concurrency,
      requestsPerMinute,
      minutes,
      requests: fake.requests.length,
      maxInFlight: fake.maxInFlight,
    };
  } finally {
    clearTimeout(timer);
    await connection.close();
    closeDatabase(db);
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
