import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { parseCnjNumber } from "../../datajud/cnj-number.js";
import { invalidInput } from "../../datajud/errors.js";
import {
  courtFreshnessLine,
  freshnessStatus,
  LATE_NOTE_PT,
  saoPauloDay,
} from "../../policy/source-freshness.js";
import { listCases } from "../../store/cases.js";
import { freshnessInputs, instanceFreshness, listDjenGaps } from "../../store/source-freshness.js";
import { formatBrazilian } from "../../time/calendar-date.js";
import { dateNow } from "../../time/clock.js";
import { SourceFreshnessOutput } from "../history-schemas.js";
import type { MonitorDeps } from "../monitor-deps.js";
import { CNJ_NUMBER_DESCRIPTION, HISTORY_READ_ONLY } from "../tool-deps.js";
import { toolFailure, toolSuccess } from "../tool-result.js";

const NOTES = [
  "DataJud's dates (newestUpdate, lastUpdatedAt) are the court's wall clock as DataJud wrote them, even with a Z; the monitor's own instants (lastMovedAt, movedAt, foundAt, djenLastAskedAt) are UTC.",
  "A court's lag is measured from the firm's own cases: the days from a DJEN disponibilização to the sweep that first saw DataJud record it. Fewer than 5 acts: not measured, 10 days stands in.",
];

export function registerSourceFreshness(server: McpServer, deps: MonitorDeps): void {
  server.registerTool(
    "source_freshness",
    {
      title: "How fresh DataJud and DJEN are",
      description:
        "How fresh each source is for the watched cases, measured by the monitor: per court, DataJud's newest update, its usual lag behind DJEN (median and p90 days from a DJEN disponibilização to the sweep that saw DataJud record it) and DJEN's own lag; with a case number, each instance's last DataJud update; and what one source has that the other lacks (DJEN intimações DataJud does not record yet past the court's lag, DataJud disponibilizações DJEN did not return). Read from the monitor's database, no DataJud or DJEN call.",
      inputSchema: {
        cnjNumber: z
          .string()
          .optional()
          .describe(`${CNJ_NUMBER_DESCRIPTION}. Optional: only this case's findings`),
      },
      outputSchema: SourceFreshnessOutput.shape,
      annotations: { title: "How fresh DataJud and DJEN are", ...HISTORY_READ_ONLY },
    },
    ({ cnjNumber }) => {
      try {
        let digits: string | null = null;
        let formatted: string | null = null;
        if (cnjNumber !== undefined) {
          const parsed = parseCnjNumber(cnjNumber);
          if (!parsed.ok) throw invalidInput(parsed.error);
          digits = parsed.value.digits;
          formatted = parsed.value.formatted;
        }
        const db = deps.database();
        const now = dateNow(deps.clock);
        const cases = listCases(db, { watchedOnly: true });
        const numbers = new Map(cases.map((c) => [c.id, c.number]));
        const ofCase = new Set(cases.filter((c) => c.digits === digits).map((c) => c.id));
        const keep = (caseId: number) => digits === null || ofCase.has(caseId);
        const status = freshnessStatus(
          freshnessInputs(db, saoPauloDay(now.toISOString())),
          listDjenGaps(db),
          numbers,
          now,
        );
        const courtOf = new Map(cases.map((c) => [c.id, c.court]));
        const output: SourceFreshnessOutput = {
          courts: status.courts
            .filter(
              (c) =>
                digits === null ||
                cases.some((k) => ofCase.has(k.id) && (k.foundIn ?? k.court) === c.court),
            )
            .map((c) => ({ ...c, summary: courtFreshnessLine(c) })),
          case:
            formatted === null
              ? null
              : {
                  cnjNumber: formatted,
                  instances: [...ofCase].flatMap((id) =>
                    instanceFreshness(db, id).map((i) => ({
                      court: courtOf.get(id) ?? "?",
                      instance: i.instance,
                      lastUpdatedAt: i.lastUpdatedAt ?? i.indexedAt,
                      movedAt: i.movedAt,
                    })),
                  ),
                },
          dataJudLate: status.dataJudLate
            .filter((n) => keep(n.caseId))
            .map((n) => ({
              cnjNumber: n.number,
              court: n.court,
              djenId: n.djenId,
              availableOn: n.availableOn,
              days: n.days,
              lateAfterDays: n.lateAfterDays,
              note: LATE_NOTE_PT,
            })),
          djenGaps: status.djenGaps
            .filter((g) => keep(g.caseId))
            .map((g) => ({
              cnjNumber: g.number,
              availableOn: g.availableOn,
              foundAt: g.foundAt,
              urgent: g.urgent,
              warning: `O DataJud registra uma intimação disponibilizada em ${formatBrazilian(g.availableOn)} que o DJEN não devolveu: confira no tribunal.`,
            })),
          notes:
            formatted !== null && ofCase.size === 0
              ? [`${formatted} is not a watched case: only watched cases are measured.`, ...NOTES]
              : NOTES,
        };
        return toolSuccess(output);
      } catch (error) {
        return toolFailure(error);
      }
    },
  );
}
