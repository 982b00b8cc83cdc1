import { existsSync } from "node:fs";
import type { DataJudRateStatus } from "../datajud/http-client.js";
import type { DjenView } from "../policy/djen-plan.js";
import { closeDatabase, type Db, openDatabase, StoreError } from "../store/database.js";
import type { Clock } from "../time/clock.js";
import type { Watchlist } from "../watchlist/parse-watchlist.js";
import { ToolError } from "./tool-errors.js";

/** What the tools over the monitor's own history and budgets read. */
export interface MonitorDeps {
  /** The monitor's database, for reading; throws ToolError `no_database` saying how to fix it. */
  database(): Db;
  /** The watchlist in force (for mutes); null when it cannot be read. */
  watchlist(): Promise<Watchlist | null>;
  /** The DataJud limiter's window now; null when this server has no DataJud client. */
  datajudRate(): DataJudRateStatus | null;
  summarizer: {
    /** null: no ANTHROPIC_API_KEY, the rules engine writes every summary. */
    model: string | null;
    runTokenBudget: number;
    dailyTokenBudget: number;
  };
  clock: Clock;
  /** schedule.timezone: the zone `muted_until` days are read in. */
  timezone: string;
  /** Whether DJEN is on, and its plan (when each source is due). @default on, no plan */
  djen?: DjenView;
}

export interface HistoryDatabase {
  /** Opens on first use (the file may appear after the server started), then keeps it open. */
  get(): Db;
  close(): void;
}

const POINT_AT_IT =
  "Point the server at the monitor's database with MONITOR_DB (or paths.db in the config file), e.g. MONITOR_DB=/var/lib/datajud-monitor/monitor.db for the systemd service, and restart it; `monitor run-once` creates the database on its first sweep.";

/**
 * The monitor's database opened read-only: these tools never write, and a sweep in another
 * process (the daemon) keeps writing beside them (WAL readers see each commit).
 */
export function historyDatabase(path: string): HistoryDatabase {
  let db: Db | null = null;
  return {
    get(): Db {
      if (db?.open) return db;
      if (!existsSync(path)) {
        throw new ToolError("no_database", `there is no monitor database at ${path} yet`, {
          hint: POINT_AT_IT,
        });
      }
      try {
        db = openDatabase(path, { readonly: true });
      } catch (error) {
        if (!(error instanceof StoreError)) throw error;
        throw new ToolError("no_database", error.message, { hint: POINT_AT_IT });
      }
      return db;
    },
    close(): void {
      if (db !== null) closeDatabase(db);
      db = null;
    },
  };
}

export interface MonitorDepsOptions {
  dbPath: string;
  watchlist: () => Promise<Watchlist | null>;
  /** The process's DataJud client, whose limiter rate_status reads; null without one. */
  datajud: { rateStatus(): DataJudRateStatus } | null;
  summarizer: MonitorDeps["summarizer"];
  timezone: string;
  /** The process's clock: what "today" and "the last week" are measured from. */
  clock: Clock;
  djen?: DjenView;
}

/** The history tools' view of one process: its database (read-only), watchlist and budgets. */
export function createMonitorDeps(options: MonitorDepsOptions): {
  deps: MonitorDeps;
  close(): void;
} {
  const history = historyDatabase(options.dbPath);
  return {
    deps: {
      database: () => history.get(),
      watchlist: options.watchlist,
      datajudRate: () => options.datajud?.rateStatus() ?? null,
      summarizer: options.summarizer,
      clock: options.clock,
      timezone: options.timezone,
      ...(options.djen === undefined ? {} : { djen: options.djen }),
    },
    close: () => history.close(),
  };
}
