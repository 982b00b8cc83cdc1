import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import {
  CASE_STATES,
  type CaseStatus,
  caseStatuses,
  djenCheckOf,
} from "../../policy/case-status.js";
import { type CaseRow, listCases } from "../../store/cases.js";
import { listDjenSources } from "../../store/djen-sources.js";
import { latestMovementTimes } from "../../store/movements.js";
import { dateNow } from "../../time/clock.js";
import { ListWatchedCasesOutput, type WatchedCaseView } from "../history-schemas.js";
import { movementDate, nextOffset } from "../history-view.js";
import type { MonitorDeps } from "../monitor-deps.js";
import { historyTool, PAGE_OFFSET } from "../tool-deps.js";
import { answered } from "../tool-result.js";

const INPUT = {
  court: z.string().optional().describe("only this court alias, e.g. tjsp"),
  state: z
    .enum([...CASE_STATES, "muted"])
    .optional()
    .describe("only cases in this state, or only muted ones"),
  offset: PAGE_OFFSET,
  limit: z.number().int().min(1).max(500).default(100).describe("cases per page, 1-500"),
};

export type ListWatchedCasesInput = z.output<z.ZodObject<typeof INPUT>>;

export function registerListWatchedCases(server: McpServer, deps: MonitorDeps): void {
  server.registerTool(
    "list_watched_cases",
    historyTool({
      title: "List the watched cases",
      description:
        "The cases the monitor watches (from its own database, no DataJud call): label, court, last check and its outcome, last change, the newest movement's date, whether the case is muted, failing (the last check got no answer from DataJud) or gone (DataJud stopped returning it), and the last DJEN publication check of its number; then the OAB registrations DJEN is asked about, with their last check. Filter by court alias and by state; paged with offset/nextOffset.",
      input: INPUT,
      output: ListWatchedCasesOutput,
    }),
    answered((args) => listWatchedCases(deps, args)),
  );
}

/** The page of watched cases the arguments ask for, with the OAB registrations' checks. */
export async function listWatchedCases(
  deps: MonitorDeps,
  { court, state, offset, limit }: ListWatchedCasesInput,
): Promise<ListWatchedCasesOutput> {
  const db = deps.database();
  const watchlist = await deps.watchlist();
  const view = deps.djen ?? { enabled: true, plan: null };
  // DJEN off: no check is shown, so none counts as failing.
  const sources = view.enabled ? listDjenSources(db) : [];
  const rows = listCases(db, { watchedOnly: true });
  const statuses = caseStatuses(rows, {
    cases: watchlist?.cases ?? null,
    now: dateNow(deps.clock),
    timezone: deps.timezone,
    djen: new Map(sources.map((s) => [`${s.kind}:${s.key}`, s])),
    plan: view.plan,
  });
  const selected = watchedCaseViews(rows, statuses, latestMovementTimes(db)).filter(
    watchedCaseFilter(court, state),
  );
  return {
    total: selected.length,
    offset,
    nextOffset: nextOffset(offset, limit, selected.length),
    cases: selected.slice(offset, offset + limit),
    oab: sources
      .filter((s) => s.kind === "oab")
      .map((s) => ({ registration: s.key, ...djenCheckOf(s, view.plan) })),
    djenEnabled: view.enabled,
    notes: watchedCasesNotes({ watchlistRead: watchlist !== null, djenEnabled: view.enabled }),
  };
}

/** Each case's status under the MCP tools' field names, with its newest movement's date. */
export function watchedCaseViews(
  rows: readonly CaseRow[],
  statuses: readonly CaseStatus[],
  latest: ReadonlyMap<number, string>,
): WatchedCaseView[] {
  return rows.map((row, i): WatchedCaseView => {
    const { number, consecutiveNotFound, goneAt, ...shown } = statuses[i] as CaseStatus;
    const latestAt = latest.get(row.id);
    return {
      // The MCP tools' own names: a case's number is `cnjNumber` there.
      cnjNumber: number,
      ...shown,
      latestMovementAt: latestAt === undefined ? null : movementDate({ dateTime: latestAt }),
    };
  });
}

/** Keeps the cases of this court alias (any case) and in this state ("muted": any muted case). */
export function watchedCaseFilter(
  court: string | undefined,
  state: ListWatchedCasesInput["state"],
): (view: WatchedCaseView) => boolean {
  const alias = court?.trim().toLowerCase();
  return (c) =>
    (alias === undefined || c.court === alias) &&
    (state === undefined || (state === "muted" ? c.muted !== false : c.state === state));
}

/** What a reader must know to read the page right: the watchlist unread, DJEN off. */
export function watchedCasesNotes(read: {
  watchlistRead: boolean;
  djenEnabled: boolean;
}): string[] {
  return [
    ...(read.watchlistRead
      ? []
      : [
          "The watchlist could not be read (monitor validate says why), so muted shows false for every case.",
        ]),
    ...(read.djenEnabled
      ? []
      : [
          "DJEN is off (djen.enabled: false): no publication is read, so no DJEN check is shown or failing.",
        ]),
  ];
}
