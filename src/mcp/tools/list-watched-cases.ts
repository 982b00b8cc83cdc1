import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import {
  CASE_STATES,
  type CaseStatus,
  caseStatuses,
  djenCheckOf,
} from "../../policy/case-status.js";
import { listCases } from "../../store/cases.js";
import { listDjenSources } from "../../store/djen-sources.js";
import { latestMovementTimes } from "../../store/movements.js";
import { dateNow } from "../../time/clock.js";
import { ListWatchedCasesOutput, type WatchedCaseView } from "../history-schemas.js";
import { movementDate, nextOffset } from "../history-view.js";
import type { MonitorDeps } from "../monitor-deps.js";
import { HISTORY_READ_ONLY, PAGE_OFFSET } from "../tool-deps.js";
import { toolFailure, toolSuccess } from "../tool-result.js";

export function registerListWatchedCases(server: McpServer, deps: MonitorDeps): void {
  server.registerTool(
    "list_watched_cases",
    {
      title: "List the watched cases",
      description:
        "The cases the monitor watches (from its own database, no DataJud call): label, court, last check and its outcome, last change, the newest movement's date, whether the case is muted, failing (the last check got no answer from DataJud) or gone (DataJud stopped returning it), and the last DJEN publication check of its number; then the OAB registrations DJEN is asked about, with their last check. Filter by court alias and by state; paged with offset/nextOffset.",
      inputSchema: {
        court: z.string().optional().describe("only this court alias, e.g. tjsp"),
        state: z
          .enum([...CASE_STATES, "muted"])
          .optional()
          .describe("only cases in this state, or only muted ones"),
        offset: PAGE_OFFSET,
        limit: z.number().int().min(1).max(500).default(100).describe("cases per page, 1-500"),
      },
      outputSchema: ListWatchedCasesOutput.shape,
      annotations: { title: "List the watched cases", ...HISTORY_READ_ONLY },
    },
    async ({ court, state, offset, limit }) => {
      try {
        const db = deps.database();
        const watchlist = await deps.watchlist();
        const now = dateNow(deps.clock);
        const latest = latestMovementTimes(db);
        const view = deps.djen ?? { enabled: true, plan: null };
        // DJEN off: no check is shown, so none counts as failing.
        const sources = view.enabled ? listDjenSources(db) : [];
        const djen = new Map(sources.map((s) => [`${s.kind}:${s.key}`, s]));
        const rows = listCases(db, { watchedOnly: true });
        const statuses = caseStatuses(rows, {
          cases: watchlist?.cases ?? null,
          now,
          timezone: deps.timezone,
          djen,
          plan: view.plan,
        });
        const all = rows.map((row, i): WatchedCaseView => {
          const { number, consecutiveNotFound, goneAt, ...shown } = statuses[i] as CaseStatus;
          const latestAt = latest.get(row.id);
          return {
            // The MCP tools' own names: a case's number is `cnjNumber` there.
            cnjNumber: number,
            ...shown,
            latestMovementAt: latestAt === undefined ? null : movementDate({ dateTime: latestAt }),
          };
        });
        const selected = all.filter(
          (c) =>
            (court === undefined || c.court === court.trim().toLowerCase()) &&
            (state === undefined || (state === "muted" ? c.muted !== false : c.state === state)),
        );
        const output: ListWatchedCasesOutput = {
          total: selected.length,
          offset,
          nextOffset: nextOffset(offset, limit, selected.length),
          cases: selected.slice(offset, offset + limit),
          oab: sources
            .filter((s) => s.kind === "oab")
            .map((s) => ({ registration: s.key, ...djenCheckOf(s, view.plan) })),
          djenEnabled: view.enabled,
          notes: [
            ...(watchlist === null
              ? [
                  "The watchlist could not be read (monitor validate says why), so muted shows false for every case.",
                ]
              : []),
            ...(view.enabled
              ? []
              : [
                  "DJEN is off (djen.enabled: false): no publication is read, so no DJEN check is shown or failing.",
                ]),
          ],
        };
        return toolSuccess(output);
      } catch (error) {
        return toolFailure(error);
      }
    },
  );
}
