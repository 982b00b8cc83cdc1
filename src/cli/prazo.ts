import { loadConfig } from "../config/load-config.js";
import { DataJudError } from "../datajud/errors.js";
import type { DeadlineCalculation } from "../deadlines/calculator.js";
import { skippedText } from "../deadlines/publication-estimate.js";
import { answerQuestion, type CalculatorQuestion } from "../mcp/tools/calculate-deadline.js";
import { formatBrazilian, type IsoDate } from "../time/calendar-date.js";
import { calendarBook } from "../time/court-calendar.js";
import { type Command, EXIT, UsageError } from "./command.js";

/*
 * `datajud-monitor prazo`: the lawyer's deadline calculator, the same answer as the MCP tool
 * calculate_deadline (both read the question through calculatorRequest), on the court calendars
 * with the configuration's calendar.closures.
 */

const UNIT_PT: Readonly<Record<DeadlineCalculation["period"]["unit"], [string, string]>> = {
  "business-days": ["dia útil", "dias úteis"],
  "calendar-days": ["dia corrido", "dias corridos"],
  hours: ["hora", "horas"],
};

const WEEKDAY = ["dom", "seg", "ter", "qua", "qui", "sex", "sáb"];

function day(date: IsoDate | string): string {
  const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
  return `${WEEKDAY[weekday] ?? ""} ${formatBrazilian(date as IsoDate)}`;
}

/** The answer for the lawyer, in Portuguese. */
export function calculationText(answer: DeadlineCalculation): string {
  const [one, many] = UNIT_PT[answer.period.unit];
  const unit = answer.period.amount === 1 ? one : many;
  const seat =
    answer.seat.name === null
      ? "sede não informada"
      : `sede ${answer.seat.name}${answer.seat.from === "case-number" ? " (pelo número do processo)" : ""}`;
  const lines = [
    `Prazo de ${answer.period.amount} ${unit} — ${answer.court.toUpperCase()}, ${seat} (estimativa)`,
  ];
  if (answer.availableOn !== null) lines.push(`Disponibilizado em: ${day(answer.availableOn)}`);
  if (answer.publishedOn !== null) lines.push(`Publicado em:       ${day(answer.publishedOn)}`);
  lines.push(`Início da contagem: ${day(answer.countingStartsOn)}`);
  lines.push(`Último dia:         ${day(answer.lastDay)}`);
  lines.push(`Regra: ${answer.rule}`);
  if (answer.skippedDays.length > 0) {
    lines.push("Dias que não contaram ou moveram a data:");
    for (const skipped of answer.skippedDays) {
      lines.push(`  - ${skippedText(skipped)}${skipped.url === null ? "" : ` ${skipped.url}`}`);
    }
  }
  for (const alternative of answer.alternatives) {
    const last = alternative.lastDay === null ? "" : `: último dia ${day(alternative.lastDay)}`;
    const condition = alternative.condition;
    lines.push(`${condition.charAt(0).toUpperCase()}${condition.slice(1)}${last}`);
  }
  for (const known of answer.notKnown) {
    if (known.items.length === 0) continue;
    lines.push(`O calendário de ${known.year} não considera (tratados como dias úteis):`);
    for (const item of known.items) lines.push(`  - ${item}`);
  }
  for (const note of answer.notes) lines.push(`Obs.: ${note}`);
  lines.push("Data estimada, nunca depois da resposta da lei: confira no sistema do tribunal.");
  return `${lines.join("\n")}\n`;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function wholeNumber(value: unknown, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const raw = String(value).trim();
  if (!/^\d+$/u.test(raw))
    throw new UsageError(`${flag} "${raw}": write a whole number, e.g. ${flag} 15`);
  return Number(raw);
}

export const prazoCommand: Command = {
  name: "prazo",
  summary: "Count a deadline on the court's calendar (the MCP tool calculate_deadline)",
  usage:
    "datajud-monitor prazo (--court ALIAS | --case CNJ) (--available-on DATE | --start DATE) (--days N | --hours N) [--business | --calendar] [--municipality IBGE] [--doubled fazenda|mp|defensoria] [--class NAME | --criminal] [--json]",
  details: [
    "From the day a communication was made available (DJEN or a Diário): published the next business day, counted from the one after (Lei 11.419/2006, art. 4). Or --start: the first day of the count, when you know it.",
    "Business days in civil and labour cases, calendar days in criminal (--criminal, or --class) and electoral ones, unless --business or --calendar; the court's holidays, vacations and acts, and calendar.closures from the configuration.",
    "The seat's municipal days: --municipality, or the case number's origin code when the table knows it.",
    "Example: datajud-monitor prazo --court tjsp --available-on 04/12/2026 --days 15",
    "Exit codes: 0 counted, 2 bad usage or config.",
  ],
  options: {
    court: { type: "string" },
    case: { type: "string" },
    municipality: { type: "string" },
    "available-on": { type: "string" },
    start: { type: "string" },
    days: { type: "string" },
    hours: { type: "string" },
    business: { type: "boolean" },
    calendar: { type: "boolean" },
    doubled: { type: "string" },
    class: { type: "string" },
    criminal: { type: "boolean" },
    json: { type: "boolean" },
  },
  async run(args, io) {
    const v = args.values;
    if (v.days !== undefined && v.hours !== undefined) {
      throw new UsageError("give --days N or --hours N, not both");
    }
    if (v.days === undefined && v.hours === undefined) {
      throw new UsageError("no period: give --days N (e.g. --days 15) or --hours N");
    }
    if (v.business === true && v.calendar === true) {
      throw new UsageError("give --business (úteis) or --calendar (corridos), not both");
    }
    if (v.hours !== undefined && (v.business === true || v.calendar === true)) {
      throw new UsageError("--business and --calendar apply to --days, not to --hours");
    }
    const doubled = text(v.doubled);
    if (doubled !== undefined && !["fazenda", "mp", "defensoria"].includes(doubled)) {
      throw new UsageError(`--doubled "${doubled}": write fazenda, mp or defensoria`);
    }
    const question: CalculatorQuestion = {
      court: text(v.court),
      cnjNumber: text(v.case),
      municipality: wholeNumber(v.municipality, "--municipality"),
      availableOn: text(v["available-on"]),
      countingStartsOn: text(v.start),
      period: wholeNumber(v.days ?? v.hours, v.days === undefined ? "--hours" : "--days"),
      unit: v.hours === undefined ? "days" : "hours",
      dayKind: v.business === true ? "business" : v.calendar === true ? "calendar" : undefined,
      doubledFor: doubled as CalculatorQuestion["doubledFor"],
      className: text(v.class),
      criminal: v.criminal === true,
    };
    const config = loadConfig({ env: io.env, cwd: io.cwd });
    if (!config.ok) {
      for (const message of config.errors) io.stderr.write(`${message}\n`);
      io.stderr.write(`config: ${config.errors.length} error(s)\n`);
      return EXIT.usage;
    }
    let answer: DeadlineCalculation;
    try {
      answer = answerQuestion(question, calendarBook(config.config.calendar.closures));
    } catch (error) {
      if (error instanceof DataJudError && error.kind === "invalid_input") {
        throw new UsageError(friendly(error.message));
      }
      throw error;
    }
    io.stdout.write(
      v.json === true ? `${JSON.stringify(answer, null, 2)}\n` : calculationText(answer),
    );
    return EXIT.ok;
  },
};

/** The MCP tool's field names, as this command's flags. */
function friendly(message: string): string {
  return message
    .replace(/\bavailableOn\b(?! \()/gu, "--available-on")
    .replace(/\bcountingStartsOn\b(?! \()/gu, "--start")
    .replace(/\(availableOn\)/gu, "(--available-on)")
    .replace(/\(countingStartsOn\)/gu, "(--start)")
    .replace(/court: tjsp, trf3, trt2, stj, stf/gu, "--court tjsp, trf3, trt2, stj, stf")
    .replace(/^municipality /u, "--municipality ");
}
