import { type MonitorConfig, loadConfig } from "../config/load-config.js";
import { CaseReader } from "../datajud/case-reader.js";
import { DataJudHttpClient } from "../datajud/http-client.js";
import { type Logger, createLogger } from "../log.js";
import { connectInProcess } from "../mcp/in-process-client.js";
import { createDataJudServer } from "../mcp/server.js";
import { type DataJudGateway, mcpGateway } from "../monitor/datajud-gateway.js";
import { type Db, StoreError, closeDatabase, openDatabase } from "../store/database.js";
import { type CliIo, EXIT } from "./command.js";

export interface Runtime {
  config: MonitorConfig;
  secrets: string[];
  logger: Logger;
}

/** Config from defaults < file < environment; on error prints every message and returns null. */
export function loadRuntime(io: CliIo, command: string): Runtime | null {
  const result = loadConfig({ env: io.env, cwd: io.cwd });
  if (!result.ok) {
    for (const message of result.errors) io.stderr.write(`${message}\n`);
    io.stderr.write(`monitor ${command}: fix the configuration above (see config/default.yaml)\n`);
    return null;
  }
  const logger = createLogger({ level: result.config.log.level, secrets: result.secrets }).child({
    command,
  });
  return { config: result.config, secrets: result.secrets, logger };
}

export interface DataJudRuntime {
  http: DataJudHttpClient;
  reader: CaseReader;
}

export function createDataJud(
  config: MonitorConfig,
  logger: Logger,
  fetchImpl: typeof fetch = globalThis.fetch,
): DataJudRuntime {
  const apiKey = config.datajud.apiKey;
  if (apiKey === null) {
    throw new MissingApiKeyError();
  }
  const http = new DataJudHttpClient({
    baseUrl: config.datajud.baseUrl,
    apiKey,
    fetch: fetchImpl,
    requestsPerMinute: config.datajud.requestsPerMinute,
    timeoutMs: config.datajud.timeoutMs,
    totalTimeoutMs: config.datajud.totalTimeoutMs,
    maxAttempts: config.datajud.maxAttempts,
    onEvent: (event) => {
      if (event.type === "retry") logger.warn({ event }, "DataJud request failed, retrying");
      else logger.debug({ event }, "DataJud request");
    },
  });
  return { http, reader: new CaseReader(http, { batchSize: config.datajud.batchSize }) };
}

export class MissingApiKeyError extends Error {
  override readonly name = "MissingApiKeyError";
  constructor() {
    super(
      "DATAJUD_API_KEY is not set: copy CNJ's current public key from https://datajud-wiki.cnj.jus.br/api-publica/acesso into DATAJUD_API_KEY (or DATAJUD_API_KEY_FILE)",
    );
  }
}

export interface MonitorHandles {
  db: Db;
  datajud: DataJudRuntime;
  gateway: DataJudGateway;
  close(): Promise<void>;
}

/**
 * The composition root of a sweep: HTTP client -> reader -> MCP server, reached through a real
 * MCP client in-process, plus the database.
 */
export async function openMonitor(
  runtime: Runtime,
  options: { fetch?: typeof fetch; readonly?: boolean } = {},
): Promise<MonitorHandles> {
  const datajud = createDataJud(runtime.config, runtime.logger, options.fetch);
  const db = openDatabase(runtime.config.paths.db, options.readonly ? { readonly: true } : {});
  const connection = await connectInProcess(createDataJudServer({ reader: datajud.reader }));
  const gateway = mcpGateway(connection.client, {
    // Room for every retry of every batch in one tool call; progress resets it anyway.
    timeoutMs: runtime.config.datajud.totalTimeoutMs * 2 + 30_000,
  });
  return {
    db,
    datajud,
    gateway,
    close: async () => {
      await connection.close();
      closeDatabase(db);
    },
  };
}

/** Opens the monitor, or prints why not and returns the exit code (2: fix config or database). */
export async function openMonitorOrReport(
  io: CliIo,
  runtime: Runtime,
  command: string,
): Promise<MonitorHandles | number> {
  try {
    return await openMonitor(runtime);
  } catch (error) {
    if (!(error instanceof MissingApiKeyError) && !(error instanceof StoreError)) throw error;
    io.stderr.write(`monitor ${command}: ${error.message}\n`);
    return EXIT.usage;
  }
}
