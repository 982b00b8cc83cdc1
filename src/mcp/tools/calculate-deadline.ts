import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { parseCnjNumber } from "../../datajud/cnj-number.js";
import { courtAliasForNumber, findCourt, unknownCourtMessage } from "../../datajud/courts.js";
import { invalidInput } from "../../datajud/errors.js";
import {
  CalculatorRefusal,
  type CalculatorRequest,
  calculateDeadline,
  DeadlineCalculation,
} from "../../deadlines/calculator.js";
import { type CalendarFor, calendarsWith } from "../../deadlines/publication-estimate.js";
import { calendarDate, type IsoDate, parseIsoDate } from "../../time/calendar-date.js";
import { CNJ_NUMBER_DESCRIPTION, READ_ONLY } from "../tool-deps.js";
import { answered } from "../tool-result.js";

/*
 * calculate_deadline: the lawyer's own period counted on the court's calendar, the answer
 * `datajud-monitor prazo` prints. Both read the question through `calculatorRequest`, so both
 * give the same days with the same sources.
 */

/** The question as a person or a model writes it, before the court and dates are resolved. */
export interface CalculatorQuestion {
  court?: string | undefined;
  cnjNumber?: string | undefined;
  municipality?: number | undefined;
  availableOn?: string | undefined;
  countingStartsOn?: string | undefined;
  period?: number | undefined;
  unit?: "days" | "hours" | undefined;
  dayKind?: "business" | "calendar" | undefined;
  doubledFor?: "fazenda" | "mp" | "defensoria" | undefined;
  className?: string | undefined;
  criminal?: boolean | undefined;
}

/** 2026-12-04 or 04/12/2026; `what` names the field in the message. */
export function questionDate(text: string, what: string): IsoDate {
  const trimmed = text.trim();
  if (parseIsoDate(trimmed) !== null) return trimmed as IsoDate;
  const br = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/u.exec(trimmed);
  const date = br === null ? null : calendarDate(Number(br[3]), Number(br[2]), Number(br[1]));
  if (date !== null) return date;
  if (/^\d{1,2}\/\d{1,2}$/u.test(trimmed)) {
    throw invalidInput(`${what} "${trimmed}" has no year: write it whole, e.g. ${trimmed}/2026`);
  }
  throw invalidInput(`${what} "${trimmed}" is not a date: write DD/MM/YYYY or YYYY-MM-DD`);
}

/** The court of the question: named (any DataJud alias, or stf), else the case number's own. */
function courtOf(court: string | undefined, digits: string | null, segment: string | null) {
  if (court !== undefined) {
    const key = court.trim().toLowerCase();
    if (key === "stf") return "stf";
    const found = findCourt(key);
    if (found === undefined) throw invalidInput(unknownCourtMessage(court));
    return found.alias;
  }
  if (digits === null) {
    throw invalidInput(
      "no court: give the court's alias (court: tjsp, trf3, trt2, stj, stf) or the case number",
    );
  }
  if (segment === "1") return "stf";
  const parsed = parseCnjNumber(digits);
  if (!parsed.ok) throw invalidInput(parsed.error);
  return courtAliasForNumber(parsed.value);
}

/** The question checked and resolved; throws invalid_input saying what to write instead. */
export function calculatorRequest(question: CalculatorQuestion): CalculatorRequest {
  let digits: string | null = null;
  let segment: string | null = null;
  if (question.cnjNumber !== undefined) {
    const parsed = parseCnjNumber(question.cnjNumber);
    if (!parsed.ok) throw invalidInput(parsed.error);
    digits = parsed.value.digits;
    segment = parsed.value.segment;
  }
  const court = courtOf(question.court, digits, segment);
  if ((question.availableOn === undefined) === (question.countingStartsOn === undefined)) {
    throw invalidInput(
      question.availableOn === undefined
        ? "no date: give the day the communication was made available (availableOn) or the first day of the count (countingStartsOn)"
        : "two dates: give the day it was made available or the first day of the count, not both",
    );
  }
  if (question.period === undefined || !Number.isInteger(question.period)) {
    throw invalidInput("no period: give it as a whole number of days or hours, e.g. 15");
  }
  if (question.period < 1 || question.period > 365) {
    throw invalidInput(`period ${question.period}: it must be 1 to 365`);
  }
  const unit = question.unit ?? "days";
  if (unit === "hours" && question.dayKind !== undefined) {
    throw invalidInput("business or calendar days apply to a period in days, not in hours");
  }
  const municipality = question.municipality ?? null;
  if (
    municipality !== null &&
    (!Number.isInteger(municipality) || municipality < 1_000_000 || municipality > 9_999_999)
  ) {
    throw invalidInput(
      `municipality ${municipality}: give the seat's 7-digit IBGE code (São Paulo 3550308)`,
    );
  }
  return {
    court,
    municipality,
    caseNumber: digits,
    availableOn:
      question.availableOn === undefined ? null : questionDate(question.availableOn, "availableOn"),
    countingStartsOn:
      question.countingStartsOn === undefined
        ? null
        : questionDate(question.countingStartsOn, "countingStartsOn"),
    amount: question.period,
    unit,
    dayKind: question.dayKind ?? null,
    doubledFor: question.doubledFor ?? null,
    className: question.className?.trim() || null,
    criminal: question.criminal ?? false,
  };
}

/** The calculation of a question; a refusal of the law is an invalid_input error. */
export function answerQuestion(
  question: CalculatorQuestion,
  calendars: CalendarFor,
): DeadlineCalculation {
  const request = calculatorRequest(question);
  try {
    return calculateDeadline(request, calendars);
  } catch (error) {
    if (error instanceof CalculatorRefusal) throw invalidInput(error.message);
    throw error;
  }
}

export function registerCalculateDeadline(
  server: McpServer,
  deps: { calendars?: CalendarFor | undefined },
): void {
  const calendars = deps.calendars ?? calendarsWith();
  server.registerTool(
    "calculate_deadline",
    {
      title: "Calculate a deadline",
      description:
        "Counts a lawyer's period on the court's calendar, as the monitor dates every publication: from the day a communication was made available in the DJEN or a Diário (published the next business day, counted from the one after, Lei 11.419/2006 art. 4) or from a counting start the lawyer knows. Business days in civil and labour cases (CPC 219; CLT 775), calendar days in criminal and electoral ones; the year-end suspension (CPC 220; CLT 775-A), each court's holidays, the STF's and the superior courts' vacations, the seat's municipal days (from the municipality, or the case number's origin code). Answers the publication, counting start and last day, every skipped day with its act and link, what the calendar does not know, and the rule applied. An estimate: confirm in the court's system. E.g. '15 dias úteis, intimado em 04/12/2026 no TJSP': court tjsp, availableOn 2026-12-04, period 15.",
      inputSchema: {
        court: z
          .string()
          .optional()
          .describe(
            "The court's alias (tjsp, trf3, trt2, tre-sp, stj, tst, stf); or give cnjNumber",
          ),
        cnjNumber: z
          .string()
          .optional()
          .describe(
            `${CNJ_NUMBER_DESCRIPTION}. Names the court and, when its origin code is known, the seat`,
          ),
        municipality: z
          .number()
          .int()
          .optional()
          .describe("IBGE code of the unit's seat (São Paulo 3550308): its municipal holidays"),
        availableOn: z
          .string()
          .optional()
          .describe(
            "The day the communication was made available (disponibilização), YYYY-MM-DD or DD/MM/YYYY",
          ),
        countingStartsOn: z
          .string()
          .optional()
          .describe("Instead: the first day of the count, when already known"),
        period: z.number().int().describe("The period: 15 for 15 days, 48 for 48 hours"),
        unit: z.enum(["days", "hours"]).optional().describe("days (default) or hours"),
        dayKind: z
          .enum(["business", "calendar"])
          .optional()
          .describe("business (úteis) or calendar (corridos); default: the procedure's"),
        doubledFor: z
          .enum(["fazenda", "mp", "defensoria"])
          .optional()
          .describe(
            "Doubled for the Fazenda Pública (CPC 183), MP (CPC 180) or Defensoria (CPC 186)",
          ),
        className: z
          .string()
          .optional()
          .describe(
            "The case's class, when known (a criminal class counts calendar days, CPP 798)",
          ),
      },
      outputSchema: DeadlineCalculation.shape,
      annotations: { title: "Calculate a deadline", ...READ_ONLY, openWorldHint: false },
    },
    answered((question) => {
      return answerQuestion(question, calendars);
    }),
  );
}
