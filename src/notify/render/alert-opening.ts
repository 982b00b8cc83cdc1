import { wallClockDay } from "../../datajud/dates.js";
import { instanceText } from "../../datajud/glossary.js";
import type { ActDeadline, DatedPeriod } from "../../summarize/act-deadlines.js";
import { hearingDateOnRecord } from "../../summarize/hearing-when.js";
import { kindOf } from "../../summarize/instance-status.js";
import {
  HEARING_SITUATION_PT,
  hearingSituation,
  isCriminalClass,
  isHearing,
  movementTitle,
} from "../../summarize/movement-reading.js";
import { oneLine } from "../../text.js";
import { formatBrazilian } from "../../time/calendar-date.js";
import type { AlertContent } from "./alert-content.js";
import { type CalendarUse, calendarParagraph, capitalized, dayText } from "./deadline-text.js";

/*
 * What an alert says first, so a lawyer reading it on a phone knows in ten seconds: what happened
 * (each act in a lawyer's words, with its publication), then what to do by when (each period the
 * act opens with its estimated last day or "data a confirmar", a hearing and its date), then the
 * court calendar once for every date above. The details (summary, movements) follow. Pure.
 */

export interface TodoItem {
  /** The day the item is due or happens; null: "data a confirmar". */
  date: string | null;
  /** "apelação (15 dias úteis; CPC, art. 1.003, § 5º ...)". */
  what: string;
  /** Why there is no date, or what moved it. */
  note: string | null;
  kind: "period" | "hearing" | "law-default";
}

export interface AlertOpening {
  /** What happened, one line each, the acts first. */
  happened: string[];
  /** What to do by when: dated items earliest first, then those whose date is to confirm. */
  todo: TodoItem[];
  /** How each act's publication was dated (its rule), once per act. */
  counting: string[];
  /** The court calendar once for every date of the alert; null when no date rests on one. */
  calendar: string | null;
}

const HAPPENED_SHOWN = 5;

/** Movements whose news a lawyer reads first: acts of the court and what changes the case. */
const NOTABLE = new Set([
  "decision",
  "sentence",
  "judgment",
  "final_judgment",
  "suspension",
  "resumption",
  "execution",
  "citation",
  "appeal",
  "archiving",
  "unarchiving",
  "session",
  "session_change",
  "unknown",
]);

function criminalOf(content: AlertContent, instance: string): boolean {
  const i = content.instances.find((x) => x.instance === instance);
  return isCriminalClass({ code: i?.classCode ?? null, name: i?.className ?? "" });
}

function dayOfWallClock(value: string | null): string | null {
  return value === null ? null : wallClockDay(value);
}

function shortDay(value: string | null): string {
  const day = dayOfWallClock(value);
  return day === null ? "sem data" : formatBrazilian(day);
}

function lengthText(p: DatedPeriod): string {
  if (p.days === null) return "";
  return `${p.days} ${p.counting === "business" ? "dias úteis" : "dias corridos"}; `;
}

function actHappened(act: ActDeadline): string {
  const on = act.actOn === null ? "sem data" : formatBrazilian(act.actOn);
  const head = `${capitalized(act.act)} (${oneLine(act.title)}) em ${on}, ${oneLine(instanceText(act.instance))}`;
  const p = act.publication;
  if (p === null) return `${head}; a publicação ainda não consta do DataJud nem do DJEN.`;
  return `${head}; publicação considerada feita em ${formatBrazilian(p.publishedOn)} (${oneLine(p.what)}).`;
}

function periodTodo(act: ActDeadline, p: DatedPeriod, several: boolean): TodoItem {
  const of = several
    ? ` (${act.act}, ${act.actOn === null ? "sem data" : formatBrazilian(act.actOn)})`
    : "";
  return {
    date: p.lastDay,
    what: `${oneLine(p.name)}${of} (${lengthText(p)}${oneLine(p.article)})`,
    note: p.note === null ? null : oneLine(p.note).replace(/\.$/u, ""),
    kind: "period",
  };
}

/** A new hearing as a lawyer's appointment: its date, or that the date is to confirm. */
function hearingTodo(m: AlertContent["newMovements"][number], criminal: boolean): TodoItem | null {
  if (!isHearing(m.movement)) return null;
  const situation = hearingSituation(m.movement);
  if (situation === null) return null;
  const title = oneLine(movementTitle(m.movement, { criminal }));
  const what = HEARING_SITUATION_PT[situation];
  const named = title.toLocaleLowerCase("pt-BR").includes(what) ? title : `${title} (${what})`;
  if (!["designada", "redesignada", "antecipada"].includes(situation)) {
    return {
      date: null,
      what: `${named}: conferir no processo se há nova data`,
      note: null,
      kind: "hearing",
    };
  }
  const date = m.hearing ?? hearingDateOnRecord(m.movement);
  return {
    date: date?.date ?? null,
    what: `${named}${date?.time == null ? "" : ` às ${date.time}`}: comparecimento`,
    note:
      date === null
        ? "a data da audiência não consta do DataJud: conferir no processo ou no DJEN"
        : null,
    kind: "hearing",
  };
}

/**
 * The law's default period of a gazette movement (CPC art. 218 § 3º: 5 dias úteis where the act
 * asks something and fixes no period), only where the published act may ask something of the
 * party: not when it opens periods of its own (said above), once per published act.
 */
function lawDefaultTodos(content: AlertContent): TodoItem[] {
  const byAct = new Map<string, TodoItem>();
  for (const m of content.newMovements) {
    if (m.deadline === undefined || m.publishes?.opensPeriods === true) continue;
    const law = m.deadline.otherPeriods.find(
      (p) => p.from === "legal-default" && p.lastDay !== null,
    );
    if (law === undefined || law.lastDay === null) continue;
    const act =
      m.publishes === undefined
        ? "o ato publicado (o DataJud não diz qual)"
        : `${oneLine(m.publishes.title)} (${shortDay(m.publishes.dateTime)})`;
    const key = m.publishes?.movementId ?? `${m.instance}|${m.deadline.publishedOn}`;
    const item: TodoItem = {
      date: law.lastDay,
      what: `se ${act} pedir uma providência sem prazo fixado: ${law.amount} dias úteis (CPC, art. 218, § 3º)`,
      note: null,
      kind: "law-default",
    };
    const known = byAct.get(key);
    if (known === undefined || (known.date ?? "") > law.lastDay) byAct.set(key, item);
  }
  return [...byAct.values()];
}

function byDate(a: TodoItem, b: TodoItem): number {
  if (a.date === b.date) return 0;
  if (a.date === null) return 1;
  if (b.date === null) return -1;
  return a.date < b.date ? -1 : 1;
}

function otherHappened(content: AlertContent, actIds: ReadonlySet<string>): string[] {
  const lines: string[] = [];
  // A published act is told once, with its publication: the earliest of its gazette movements.
  const published = new Map<string, { title: string; dateTime: string | null; on: string }>();
  for (const m of content.newMovements) {
    if (m.publishes === undefined || m.deadline === undefined) continue;
    if (actIds.has(m.publishes.movementId)) continue;
    const known = published.get(m.publishes.movementId);
    if (known === undefined || m.deadline.publishedOn < known.on) {
      published.set(m.publishes.movementId, {
        title: m.publishes.title,
        dateTime: m.publishes.dateTime,
        on: m.deadline.publishedOn,
      });
    }
  }
  for (const p of published.values()) {
    lines.push(
      `Publicação no Diário de ${oneLine(p.title)} de ${shortDay(p.dateTime)}, considerada feita em ${formatBrazilian(p.on)}.`,
    );
  }
  const sorted = [...content.newMovements].sort((a, b) =>
    (b.movement.dateTime ?? "").localeCompare(a.movement.dateTime ?? ""),
  );
  for (const m of sorted) {
    const id = m.movement.id;
    if (actIds.has(id) || published.has(id) || m.publishes !== undefined) continue;
    const title = oneLine(movementTitle(m.movement, { criminal: criminalOf(content, m.instance) }));
    if (m.deadline !== undefined) {
      lines.push(
        `${title} em ${shortDay(m.movement.dateTime)}: o DataJud não diz de qual ato; publicação considerada feita em ${formatBrazilian(m.deadline.publishedOn)}.`,
      );
      continue;
    }
    if (isHearing(m.movement) || NOTABLE.has(kindOf(m.movement))) {
      lines.push(`${title}, ${shortDay(m.movement.dateTime)}.`);
    }
  }
  return lines;
}

/** The opening of a DataJud alert, from its payload. */
export function alertOpening(content: AlertContent, fallback: string): AlertOpening {
  const actIds = new Set(content.acts.map((a) => a.movementId));
  const all = [...content.acts.map(actHappened), ...otherHappened(content, actIds)];
  const happened = all.slice(0, HAPPENED_SHOWN);
  if (all.length > HAPPENED_SHOWN) {
    happened.push(`… e mais ${all.length - HAPPENED_SHOWN} (nas movimentações abaixo).`);
  }
  if (happened.length === 0) happened.push(`${capitalized(fallback)}.`);
  const todo = [
    ...content.acts.flatMap((act) =>
      act.periods.map((p) => periodTodo(act, p, content.acts.length > 1)),
    ),
    ...content.newMovements.flatMap((m) => hearingTodo(m, criminalOf(content, m.instance)) ?? []),
    ...lawDefaultTodos(content),
  ].sort(byDate);
  const counting = content.acts.flatMap((act) => {
    const p = act.publication;
    if (p === null || p.countingStartsOn === null) return [];
    return [
      `${capitalized(act.act)}: publicação considerada feita em ${dayText(p.publishedOn)}; o prazo conta de ${dayText(p.countingStartsOn)}. Regra: ${oneLine(p.rule, 600)}.`,
      ...act.notes.map((n) => oneLine(n, 600)),
    ];
  });
  const uses: CalendarUse[] = [
    ...content.acts.flatMap((a) =>
      a.publication === null ? [] : [{ skippedDays: a.skippedDays, considered: a.considered }],
    ),
    ...content.newMovements.flatMap((m) =>
      m.deadline === undefined
        ? []
        : [{ skippedDays: m.deadline.skippedDays, considered: m.deadline.considered }],
    ),
  ];
  return { happened, todo, counting: [...new Set(counting)], calendar: calendarParagraph(uses) };
}

/** What the opening says when nothing of the change has a date or a period. */
export const NOTHING_TO_DO =
  "Nenhum prazo ou audiência identificado nestas movimentações; confira nos autos.";

/** The same, when the summary asks the lawyer to look: the reasons follow. */
export const NOTHING_DATED =
  "Nenhum prazo com data identificado nestas movimentações: veja abaixo o que requer atenção.";

/** The heading of what to do, with the word every estimate carries. */
export const TODO_HEADING = "O que fazer e até quando (datas estimadas, nunca depois da lei)";

/** One item of what to do, as a line: "até 28/11/2025 (sexta-feira): apelação ...". */
export function todoText(item: TodoItem): string {
  const when =
    item.date === null
      ? "data a confirmar"
      : item.kind === "hearing"
        ? `em ${dayText(item.date)}`
        : `até ${dayText(item.date)}`;
  const note = item.note === null ? "" : ` (${item.note})`;
  return `${capitalized(when)}: ${item.what}${note}`;
}
