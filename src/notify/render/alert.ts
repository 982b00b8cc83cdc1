import { parseCnjNumber } from "../../datajud/cnj-number.js";
import { type CourtCaseLink, courtCaseLink } from "../../datajud/court-links.js";
import { findCourt, successorNote } from "../../datajud/courts.js";
import { COURT_TIME_ZONE } from "../../datajud/dates.js";
import { countText, indexText, instanceText, newMovementsText } from "../../datajud/glossary.js";
import type { Movement } from "../../datajud/instance-record.js";
import type { DeadlineEstimate } from "../../deadlines/estimate-schema.js";
import { skippedText } from "../../deadlines/publication-estimate.js";
import { daysLate } from "../../policy/late-records.js";
import {
  type CaseSummary,
  type MovementRef,
  STATUS_LABELS_PT,
} from "../../summarize/case-summary.js";
import { type CorrectionReading, readCorrection } from "../../summarize/corrections.js";
import type { PublicationEstimate } from "../../summarize/datajud-publication.js";
import { type FieldChangeReading, readFieldChange } from "../../summarize/field-changes.js";
import {
  type HearingDate,
  hearingDateOnRecord,
  hearingWhenText,
} from "../../summarize/hearing-when.js";
import {
  complementText,
  isCriminalClass,
  isHearing,
  movementMeaning,
  movementTitle,
  type ReadingContext,
} from "../../summarize/movement-reading.js";
import { oneLine, paragraph } from "../../text.js";
import { formatBrazilian } from "../../time/calendar-date.js";
import type { AlertContent } from "./alert-content.js";
import {
  alertOpening,
  NOTHING_DATED,
  NOTHING_TO_DO,
  TODO_HEADING,
  todoText,
} from "./alert-opening.js";
import { gazetteMovementLines } from "./deadline-text.js";
import {
  ATTENTION_MARKER,
  breaks,
  clocksNote,
  courtTime,
  escapeHtml,
  htmlDocument,
  instantTime,
  keepNumbersWhole,
  NOT_LEGAL_ADVICE,
  type RenderedAlert,
  STYLES,
  tag,
  URGENT_MARKER,
} from "./email-kit.js";
import { sourcesFooter } from "./sources-line.js";

const SUBJECT_NAME_MAX = 80;
const SUBJECT_MAX = 200;
/** A first read of a busy case can bring hundreds; the history command has the rest. */
const MOVEMENTS_SHOWN = 30;

const CHANGE_KINDS_PT: Record<string, string> = {
  new_movements: "movimentações novas",
  late_movements: "registros antigos listados agora pelo DataJud",
  corrected_movements: "movimentações corrigidas pelo tribunal",
  new_instance: "nova instância",
  class_changed: "classe alterada",
  subjects_changed: "assuntos alterados",
  court_unit_changed: "órgão julgador alterado",
  secrecy_changed: "nível de sigilo alterado",
};

export function caseName(content: AlertContent): string {
  const label = content.label === null ? "" : oneLine(content.label, SUBJECT_NAME_MAX);
  return label === "" ? oneLine(content.caseNumber, SUBJECT_NAME_MAX) : label;
}

export function categoryLabel(summary: CaseSummary): string {
  return STATUS_LABELS_PT[summary.statusCategory] ?? oneLine(summary.statusCategory);
}

export function attentionValue(summary: CaseSummary): string {
  if (!summary.needsLawyerAttention) return "não";
  const reasons = summary.attentionReasons.map((r) => oneLine(r.reason)).filter((r) => r !== "");
  return reasons.length === 0 ? "sim" : `sim: ${reasons.join("; ")}`;
}

export function nextStepValue(summary: CaseSummary): string {
  const step = summary.nextExpectedStep === null ? "" : oneLine(summary.nextExpectedStep);
  return step === "" ? "não informado" : step;
}

interface FieldDiff {
  name: string;
  before: string | null;
  after: string;
  /** Long values are shown as "antes"/"agora" blocks instead of "a → b". */
  block: boolean;
}

function fieldDiffs(previous: CaseSummary | null, current: CaseSummary): FieldDiff[] {
  const field = (name: string, value: (s: CaseSummary) => string, block = false): FieldDiff => ({
    name,
    before: previous === null ? null : value(previous),
    after: value(current),
    block,
  });
  return [
    field("Categoria", categoryLabel),
    field("Situação", (s) => paragraph(s.status), true),
    field("Atenção do advogado", attentionValue),
    field("Próximo passo", nextStepValue),
  ];
}

/** How the instance's class reads its movements: a criminal class in criminal words. */
export function readingOf(content: AlertContent, instance: string): ReadingContext {
  const record = content.instances.find((i) => i.instance === instance);
  return {
    criminal: isCriminalClass({ code: record?.classCode ?? null, name: record?.className ?? "" }),
  };
}

export interface MovementLine {
  date: string;
  name: string;
  code: string;
  instance: string;
  hint: string | null;
  complements: string[];
  /** A gazette movement's publication and counting estimate, as lines; empty for others. */
  deadline: string[];
  /** A hearing's two dates: when it was recorded, and the hearing's own where a text says it. */
  when: string | null;
}

/**
 * DataJud lists some acts once per party (one deadline expiry, one writ each): a new copy of a
 * movement already listed is news, and says which copy it is so it is not read as a repeat alert.
 */
function repeatNote(occurrence: number): string {
  return occurrence > 1 ? ` (${occurrence}ª ocorrência idêntica)` : "";
}

/** Two names that differ only in capitals say the same: the TPU's is not repeated. */
function sameWords(a: string, b: string): boolean {
  return a.toLocaleLowerCase("pt-BR") === b.toLocaleLowerCase("pt-BR");
}

/**
 * A movement as a lawyer reads it: the name with its TPU parent where the leaf alone says
 * nothing, the TPU's own name beside the code when they differ.
 */
export function movementLine(
  movement: Movement,
  instance: string,
  context: ReadingContext = {},
  deadline?: DeadlineEstimate,
  hearing?: HearingDate,
  publishes?: AlertContent["newMovements"][number]["publishes"],
): MovementLine {
  const title = oneLine(movementTitle(movement, context)) || "movimento sem nome";
  const tpu = oneLine(movement.name);
  const code = movement.code === null ? "sem código" : `código ${movement.code}`;
  const meaning = movementMeaning(movement, context);
  return {
    date: courtTime(movement.dateTime),
    name: `${title}${repeatNote(movement.occurrence)}`,
    code: tpu !== "" && !sameWords(tpu, title) ? `${code}, na TPU “${tpu}”` : code,
    instance: oneLine(instanceText(instance)),
    hint: meaning === null ? null : oneLine(meaning) || null,
    when: isHearing(movement)
      ? oneLine(hearingWhenText(movement, hearing ?? hearingDateOnRecord(movement)))
      : null,
    complements: movement.complements.flatMap((c) => complementText(c) ?? []),
    deadline:
      deadline === undefined
        ? []
        : [
            ...(publishes === undefined
              ? []
              : [
                  `Ato publicado, pelo que o DataJud mostra antes: ${oneLine(publishes.title)} (${courtTime(publishes.dateTime)}).`,
                ]),
            // The calendar is said once, at the top; the law's default only where the act may ask
            // something and opens no period of its own (those are at the top too).
            ...gazetteMovementLines(deadline, {
              calendar: false,
              lawDefaults: publishes?.opensPeriods !== true,
            }),
          ],
  };
}

export function movementLines(
  content: AlertContent,
  limit = MOVEMENTS_SHOWN,
): { shown: MovementLine[]; hidden: number } {
  // Newest first, the way court systems list them; undated ones last.
  const sorted = [...content.newMovements].sort((a, b) =>
    (b.movement.dateTime ?? "").localeCompare(a.movement.dateTime ?? ""),
  );
  const line = (m: AlertContent["newMovements"][number]): MovementLine =>
    movementLine(
      m.movement,
      m.instance,
      readingOf(content, m.instance),
      m.deadline,
      m.hearing,
      m.publishes,
    );
  return {
    shown: sorted.slice(0, limit).map(line),
    hidden: Math.max(0, sorted.length - limit),
  };
}

const URGENT_TEXT = "há movimentação nova que o watchlist marca como urgente.";

/** Why the alert is urgent, each reason once; alerts queued before reasons were kept: the rules. */
export function urgentTexts(content: AlertContent): string[] {
  if (!content.urgent) return [];
  const reasons = content.urgentReasons.map((r) => oneLine(r)).filter((r) => r !== "");
  return reasons.length > 0 ? [...new Set(reasons)] : [URGENT_TEXT];
}

export interface CorrectionLine {
  instance: string;
  reading: CorrectionReading;
}

function summaryTime(content: AlertContent): Date | null {
  const at = new Date(content.current.generatedAt);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** Each correction read in its instance's words (criminal classes in criminal words). */
export function correctionLines(content: AlertContent): CorrectionLine[] {
  return content.corrections.map((c) => {
    // Read as of the summary's time, so the alert says what made it urgent, and no more.
    const reading = readCorrection(c, readingOf(content, c.instance), summaryTime(content));
    // The court calendar's dates stored with the alert, where it has them.
    const before = c.counting === undefined ? null : countingOf(c.counting.before);
    const after = c.counting === undefined ? null : countingOf(c.counting.after);
    const counting =
      reading.counting === null || before === null || after === null
        ? reading.counting
        : { before, after };
    return { instance: oneLine(instanceText(c.instance)), reading: { ...reading, counting } };
  });
}

/** A gazette movement's estimate as a correction line shows its dates. */
function countingOf(estimate: DeadlineEstimate): PublicationEstimate | null {
  if (estimate.countingStartsOn === null) return null;
  return {
    rule: `${estimate.rule.title}; no calendário do tribunal`,
    recordedOn: estimate.availableOn,
    publishedOn: estimate.publishedOn,
    countingStartsOn: estimate.countingStartsOn,
    reasons: estimate.skippedDays.map(skippedText),
  };
}

function estimateText(e: PublicationEstimate): string {
  const why = e.reasons.length === 0 ? "" : ` (${e.reasons.join("; ")})`;
  return `publicação ${formatBrazilian(e.publishedOn)}, prazo a partir de ${formatBrazilian(e.countingStartsOn)}${why}`;
}

/** A correction as plain lines: what it was, what it is now, why it matters. */
export function correctionDetail(line: CorrectionLine): string[] {
  const r = line.reading;
  const out = [`Antes: ${oneLine(r.before)}`, `Agora: ${oneLine(r.after)}`];
  if (r.urgent !== null) out.push(`${URGENT_MARKER}: ${oneLine(r.urgent)}`);
  if (r.counting !== null) {
    out.push(
      `Datas de prazo, estimativa: antes ${estimateText(r.counting.before)}; agora ${estimateText(r.counting.after)} (${oneLine(r.counting.after.rule)}).`,
    );
  }
  return out;
}

export const LATE_NOTE =
  "O DataJud listou agora, pela primeira vez, movimentações datadas de meses atrás e anteriores a outras já conhecidas do processo: não são novidade. Cada uma com a data do próprio registro; confira se já foi tratada.";

export interface LateLine extends MovementLine {
  /** "listada 1049 dias depois da própria data". */
  lateness: string;
}

/** The late records, oldest first, each with how long after its own date it was listed. */
export function lateLines(content: AlertContent): LateLine[] {
  const sorted = [...content.lateMovements].sort((a, b) =>
    (a.movement.dateTime ?? "").localeCompare(b.movement.dateTime ?? ""),
  );
  return sorted.map(({ instance, movement }) => {
    const days = daysLate(movement, content.provenance.fetchedAt);
    return {
      ...movementLine(movement, instance, readingOf(content, instance)),
      lateness: days === null ? "listada agora" : `listada ${days} dias depois da própria data`,
    };
  });
}

/** The late records as plain lines, quiet: a heading, what they are, one line each. */
export function lateText(content: AlertContent, indent = ""): string[] {
  const lines = lateLines(content);
  if (lines.length === 0) return [];
  return [
    `${indent}REGISTROS ANTIGOS LISTADOS AGORA (${lines.length})`,
    `${indent}${LATE_NOTE}`,
    ...lines.map(
      (m) => `${indent}- ${m.date} · ${m.name} · ${m.code} · ${m.instance} (${m.lateness})`,
    ),
  ];
}

/** The late records in HTML, muted, every value escaped; alerts and digests share it. */
export function lateHtml(content: AlertContent): string {
  const e = escapeHtml;
  const lines = lateLines(content);
  if (lines.length === 0) return "";
  const items = lines.map((m) =>
    tag(
      "li",
      STYLES.li,
      tag(
        "span",
        STYLES.muted,
        `${e(m.date)} · ${e(m.name)} · ${e(m.code)} · ${e(m.instance)} (${e(m.lateness)})`,
      ),
    ),
  );
  return [
    tag("p", STYLES.muted, `<strong>Registros antigos listados agora (${lines.length})</strong>`),
    tag("p", STYLES.muted, e(LATE_NOTE)),
    tag("ul", STYLES.ul, items.join("")),
  ].join("\n");
}

/** A change that brought only late records: said as such, never as news. */
function lateOnlyText(content: AlertContent): string {
  const late = lateLines(content);
  const [only] = late;
  if (late.length === 1 && only !== undefined) {
    return `sem novidade; 1 registro antigo listado agora, de ${only.date.slice(0, 10)}`;
  }
  return `sem novidade; ${late.length} registros antigos listados agora`;
}

/**
 * "2 movimentações novas, 1 correção", or the one correction's headline when it is all. Late
 * records never count as news: named only when the change brought nothing else.
 */
export function newsText(content: AlertContent): string {
  const n = content.newMovements.length;
  const fixes = correctionLines(content);
  const [only] = fixes;
  const fields = fieldChangeReadings(content);
  const [field] = fields;
  if (n === 0 && fixes.length === 0 && field !== undefined) {
    return fields.length === 1
      ? oneLine(field.brief)
      : countText(fields.length, "dado do processo alterado", "dados do processo alterados");
  }
  if (n === 0 && fixes.length === 0 && content.lateMovements.length > 0) {
    return lateOnlyText(content);
  }
  if (fixes.length === 0) return newMovementsText(n);
  if (n === 0 && fixes.length === 1 && only !== undefined) {
    return `correção: ${oneLine(only.reading.headline)}`;
  }
  const corrected = countText(fixes.length, "correção", "correções");
  return n === 0 ? corrected : `${newMovementsText(n)}, ${corrected}`;
}

/** The case's own data that changed, each read in its instance (summarize/field-changes.ts). */
export function fieldChangeReadings(content: AlertContent): FieldChangeReading[] {
  return content.fieldChanges.map(readFieldChange);
}

/** A field change as plain lines: what it was, what it is now, what it means. */
export function fieldChangeDetail(r: FieldChangeReading): string[] {
  return [
    `Antes: ${oneLine(r.before)}`,
    `Agora: ${oneLine(r.after)}`,
    ...(r.note === null ? [] : [oneLine(r.note)]),
  ];
}

/** The line that says routine movements were left out; null when none were. */
export function ignoredText(count: number): string | null {
  if (count <= 0) return null;
  const what =
    count === 1
      ? "1 movimentação rotineira não listada"
      : `${count} movimentações rotineiras não listadas`;
  return `${what} (regras ignore do watchlist); veja monitor history.`;
}

function instanceLine(i: AlertContent["instances"][number]): string {
  const parts = [i.className, i.courtUnit]
    .map((p) => (p === null ? "" : oneLine(p)))
    .filter((p) => p !== "");
  return `${oneLine(instanceText(i.instance))}: ${parts.length === 0 ? "sem dados" : parts.join(" · ")}`;
}

export function generatedByText(summary: CaseSummary, timeZone: string): string {
  const at = instantTime(summary.generatedAt, timeZone);
  const by = oneLine(summary.generatedBy);
  if (by !== "rules") {
    return `Resumo gerado pelo modelo de IA ${by || "desconhecido"} em ${at}; confira nos autos.`;
  }
  const aside = summary.setAside === undefined ? "" : ` ${oneLine(summary.setAside)}`;
  return `Resumo gerado por regras automáticas (sem modelo de IA) em ${at}.${aside}`;
}

/** The change's kinds in Portuguese ("classe alterada"); an unknown kind as it is. */
export function changeKindNames(kinds: readonly string[]): string[] {
  return kinds.map((k) => CHANGE_KINDS_PT[k] ?? oneLine(k)).filter((k) => k !== "");
}

function changeKindsText(kinds: readonly string[]): string | null {
  const names = changeKindNames(kinds);
  return names.length === 0 ? null : `Mudanças detectadas: ${names.join(", ")}.`;
}

/**
 * The court's public page for the case: from the validated number and the court whose index
 * answered, never from DataJud text; null where the court has no stable URL for a case.
 */
export function caseLinkOf(content: AlertContent): CourtCaseLink | null {
  const parsed = parseCnjNumber(content.caseNumber);
  if (!parsed.ok) return null;
  const court = findCourt(content.provenance.index)?.alias ?? content.court;
  return courtCaseLink(parsed.value, court);
}

function caseLinkText(link: CourtCaseLink): string {
  return `Consulta pública no tribunal (${link.system}): ${link.url}`;
}

function provenanceLines(content: AlertContent, timeZone: string): string[] {
  const p = content.provenance;
  const moved = successorNote(content.court, p.index);
  return [
    `Índice consultado: ${oneLine(indexText(p.index))}`,
    ...(moved === null ? [] : [`Encontrado no índice de outro tribunal: ${moved}.`]),
    `Consultado em: ${instantTime(p.fetchedAt, timeZone)}`,
    `Última atualização no DataJud: ${p.lastUpdatedAt === null ? "não informada" : courtTime(p.lastUpdatedAt)}`,
    ...sourcesFooter(content.sources, timeZone),
    clocksNote(timeZone),
  ];
}

/**
 * A movement an attention item cites, named as the movement list names it (a criminal case's
 * "Procedência" is "Sentença condenatória"); the cited name as it is when the movement is not
 * among the new ones.
 */
function referenceText(content: AlertContent, ref: MovementRef): string {
  const found = content.newMovements.find((n) => n.movement.id === ref.movementId);
  const name =
    found === undefined
      ? oneLine(ref.name)
      : oneLine(movementTitle(found.movement, readingOf(content, found.instance)));
  return `${courtTime(ref.dateTime)} ${name}`;
}

/** One line, no control characters, a bounded length: safe to hand to any mailer as Subject. */
export function renderSubject(content: AlertContent): string {
  const marker = content.urgent
    ? `${URGENT_MARKER} `
    : content.current.needsLawyerAttention
      ? `${ATTENTION_MARKER} `
      : "";
  const subject = `[datajud] ${marker}${caseName(content)}: ${categoryLabel(content.current)} (${newsText(content)})`;
  return oneLine(subject, SUBJECT_MAX);
}

function renderText(content: AlertContent, timeZone: string): string {
  const { current, previous } = content;
  const out: string[] = [];
  const title = caseName(content);
  out.push(title);
  out.push(`Processo ${oneLine(content.caseNumber)} · ${oneLine(content.court).toUpperCase()}`);
  const link = caseLinkOf(content);
  if (link !== null) out.push(caseLinkText(link));
  const kinds = changeKindsText(content.changeKinds);
  if (kinds !== null) out.push(kinds);
  out.push("");

  const urgent = urgentTexts(content);
  for (const reason of urgent) out.push(`${URGENT_MARKER}: ${reason}`);
  if (urgent.length > 0) out.push("");
  const opening = alertOpening(content, newsText(content));
  out.push("O QUE ACONTECEU");
  for (const line of opening.happened) out.push(`- ${line}`);
  out.push("");
  out.push(TODO_HEADING.toLocaleUpperCase("pt-BR"));
  if (opening.todo.length === 0) {
    out.push(current.needsLawyerAttention ? NOTHING_DATED : NOTHING_TO_DO);
  }
  for (const item of opening.todo) out.push(`- ${todoText(item)}`);
  for (const line of opening.counting) out.push(line);
  if (opening.calendar !== null) out.push(opening.calendar);
  out.push("");
  if (current.needsLawyerAttention) {
    out.push(`${ATTENTION_MARKER} REQUER ATENÇÃO DO ADVOGADO`);
    for (const r of current.attentionReasons) {
      const refs = r.movements.map((m) => referenceText(content, m)).join("; ");
      out.push(`- ${oneLine(r.reason)}${refs === "" ? "" : ` (${refs})`}`);
    }
    out.push("");
  }

  out.push("O QUE MUDOU NO RESUMO");
  if (previous === null) out.push("Primeiro resumo deste processo.");
  for (const f of fieldDiffs(previous, current)) {
    if (f.before === null) {
      out.push(f.block ? `${f.name}:\n${f.after}` : `${f.name}: ${f.after}`);
    } else if (f.before === f.after) {
      out.push(
        f.block ? `${f.name} (sem mudança):\n${f.after}` : `${f.name}: ${f.after} (sem mudança)`,
      );
    } else if (f.block) {
      out.push(`${f.name}:\n  antes: ${f.before}\n  agora: ${f.after}`);
    } else {
      out.push(`${f.name}: ${f.before} → ${f.after}`);
    }
  }
  out.push("");

  const fields = fieldChangeReadings(content);
  if (fields.length > 0) {
    out.push(`DADOS DO PROCESSO ALTERADOS (${fields.length})`);
    for (const f of fields) {
      out.push(`- ${oneLine(f.title)}`);
      for (const line of fieldChangeDetail(f)) out.push(`  ${line}`);
    }
    out.push("");
  }

  const fixes = correctionLines(content);
  if (fixes.length > 0) {
    out.push(`CORREÇÕES DO TRIBUNAL (${fixes.length})`);
    for (const fix of fixes) {
      out.push(`- ${oneLine(fix.reading.headline)} · ${fix.instance}`);
      for (const line of correctionDetail(fix)) out.push(`  ${line}`);
    }
    out.push("");
  }

  const { shown, hidden } = movementLines(content);
  out.push(`MOVIMENTAÇÕES NOVAS (${content.newMovements.length})`);
  if (shown.length === 0) out.push("Nenhuma.");
  for (const m of shown) {
    out.push(`- ${m.date} · ${m.name} · ${m.code} · ${m.instance}`);
    if (m.when !== null) out.push(`  Quando: ${m.when}`);
    if (m.hint !== null) out.push(`  O que significa: ${m.hint}`);
    if (m.complements.length > 0) out.push(`  Complementos: ${m.complements.join("; ")}`);
    for (const line of m.deadline) out.push(`  ${line}`);
  }
  if (hidden > 0) out.push(`… e mais ${hidden} (veja \`monitor history\`).`);
  const routine = ignoredText(content.ignoredMovements);
  if (routine !== null) out.push(routine);
  out.push("");
  const late = lateText(content);
  if (late.length > 0) out.push(...late, "");

  out.push("INSTÂNCIAS");
  if (content.instances.length === 0) out.push("Nenhuma informada.");
  for (const i of content.instances) out.push(`- ${instanceLine(i)}`);
  out.push("");

  out.push("ORIGEM DOS DADOS");
  out.push(...provenanceLines(content, timeZone));
  out.push(generatedByText(current, timeZone));
  out.push("");
  out.push(NOT_LEGAL_ADVICE);
  return `${out.join("\n")}\n`;
}

function renderHtml(content: AlertContent, subject: string, timeZone: string): string {
  const e = escapeHtml;
  const { current, previous } = content;
  const parts: string[] = [];
  parts.push(tag("h1", STYLES.h1, keepNumbersWhole(e(caseName(content)))));
  parts.push(
    tag(
      "p",
      STYLES.meta,
      `Processo ${keepNumbersWhole(e(oneLine(content.caseNumber)))} · ${e(oneLine(content.court).toUpperCase())}`,
    ),
  );
  const link = caseLinkOf(content);
  if (link !== null) {
    parts.push(
      tag(
        "p",
        STYLES.meta,
        `Consulta pública no tribunal: <a href="${e(link.url)}">${e(link.system)}</a>`,
      ),
    );
  }
  const kinds = changeKindsText(content.changeKinds);
  if (kinds !== null) parts.push(tag("p", STYLES.meta, e(kinds)));

  for (const reason of urgentTexts(content)) {
    parts.push(tag("div", STYLES.attention, `<strong>${e(URGENT_MARKER)}</strong>: ${e(reason)}`));
  }
  parts.push(openingHtml(content));
  if (current.needsLawyerAttention) {
    const reasons = current.attentionReasons.map((r) => {
      const refs = r.movements.map((m) => referenceText(content, m)).join("; ");
      return tag("li", STYLES.li, `${e(oneLine(r.reason))}${refs === "" ? "" : ` (${e(refs)})`}`);
    });
    parts.push(
      tag(
        "div",
        STYLES.attention,
        `<strong>${ATTENTION_MARKER} Requer atenção do advogado</strong>${
          reasons.length === 0 ? "" : tag("ul", `${STYLES.ul}margin-top:6px;`, reasons.join(""))
        }`,
      ),
    );
  }

  parts.push(tag("h2", STYLES.h2, "O que mudou no resumo"));
  if (previous === null) parts.push(tag("p", STYLES.muted, "Primeiro resumo deste processo."));
  for (const f of fieldDiffs(previous, current)) {
    const name = `<strong>${e(f.name)}:</strong>`;
    if (f.before === null) {
      parts.push(
        tag("p", STYLES.p, f.block ? `${name}<br>${breaks(e(f.after))}` : `${name} ${e(f.after)}`),
      );
    } else if (f.before === f.after) {
      const same = tag("span", STYLES.before, "(sem mudança)");
      parts.push(
        tag(
          "p",
          STYLES.p,
          f.block ? `${name} ${same}<br>${breaks(e(f.after))}` : `${name} ${e(f.after)} ${same}`,
        ),
      );
    } else {
      parts.push(
        tag(
          "p",
          STYLES.p,
          `${name}<br>${tag("span", STYLES.before, `antes: ${breaks(e(f.before))}`)}<br>agora: <strong>${breaks(e(f.after))}</strong>`,
        ),
      );
    }
  }

  const fields = fieldChangeReadings(content);
  if (fields.length > 0) {
    parts.push(tag("h2", STYLES.h2, `Dados do processo alterados (${fields.length})`));
    parts.push(fieldChangeListHtml(fields));
  }

  const fixes = correctionLines(content);
  if (fixes.length > 0) {
    parts.push(tag("h2", STYLES.h2, `Correções do tribunal (${fixes.length})`));
    parts.push(correctionListHtml(fixes));
  }

  const { shown, hidden } = movementLines(content);
  parts.push(tag("h2", STYLES.h2, `Movimentações novas (${content.newMovements.length})`));
  if (shown.length === 0) parts.push(tag("p", STYLES.muted, "Nenhuma."));
  else {
    parts.push(movementListHtml(shown));
  }
  if (hidden > 0) parts.push(tag("p", STYLES.muted, `… e mais ${hidden} (veja monitor history).`));
  const routine = ignoredText(content.ignoredMovements);
  if (routine !== null) parts.push(tag("p", STYLES.muted, e(routine)));
  const late = lateHtml(content);
  if (late !== "") parts.push(late);

  parts.push(tag("h2", STYLES.h2, "Instâncias"));
  if (content.instances.length === 0) parts.push(tag("p", STYLES.muted, "Nenhuma informada."));
  else {
    parts.push(
      tag(
        "ul",
        STYLES.ul,
        content.instances.map((i) => tag("li", STYLES.li, e(instanceLine(i)))).join(""),
      ),
    );
  }

  parts.push(tag("h2", STYLES.h2, "Origem dos dados"));
  for (const line of provenanceLines(content, timeZone)) {
    parts.push(tag("p", STYLES.small, e(line)));
  }
  parts.push(tag("p", STYLES.small, e(generatedByText(current, timeZone))));
  parts.push(tag("p", STYLES.footer, e(NOT_LEGAL_ADVICE)));

  return htmlDocument(subject, parts);
}

/** What happened and what to do by when, first, every value escaped. */
function openingHtml(content: AlertContent): string {
  const e = escapeHtml;
  const opening = alertOpening(content, newsText(content));
  const list = (items: readonly string[]): string =>
    tag("ul", STYLES.ul, items.map((i) => tag("li", STYLES.li, i)).join(""));
  const todo = opening.todo.map((item) => {
    const line = todoText(item);
    const colon = line.indexOf(": ");
    return `<strong>${e(line.slice(0, colon))}</strong>${e(line.slice(colon))}`;
  });
  return [
    tag("h2", STYLES.h2, "O que aconteceu"),
    list(opening.happened.map(e)),
    tag("h2", STYLES.h2, e(TODO_HEADING)),
    todo.length === 0
      ? tag("p", STYLES.p, e(content.current.needsLawyerAttention ? NOTHING_DATED : NOTHING_TO_DO))
      : list(todo),
    ...opening.counting.map((line) => tag("p", STYLES.small, e(line))),
    ...(opening.calendar === null ? [] : [tag("p", STYLES.small, e(opening.calendar))]),
  ].join("\n");
}

/** The field changes as an HTML list, every value escaped; alerts and digests share it. */
export function fieldChangeListHtml(fields: readonly FieldChangeReading[]): string {
  const e = escapeHtml;
  const items = fields.map((f) =>
    tag(
      "li",
      STYLES.li,
      [
        `<strong>${e(oneLine(f.title))}</strong>`,
        ...fieldChangeDetail(f).map((line) => tag("span", STYLES.muted, e(line))),
      ].join("<br>"),
    ),
  );
  return tag("ul", STYLES.ul, items.join(""));
}

/** The corrections as an HTML list, every value escaped; alerts and digests share it. */
export function correctionListHtml(fixes: readonly CorrectionLine[]): string {
  const e = escapeHtml;
  const items = fixes.map((fix) =>
    tag(
      "li",
      STYLES.li,
      [
        `<strong>${e(oneLine(fix.reading.headline))}</strong> · ${e(fix.instance)}`,
        ...correctionDetail(fix).map((line) => tag("span", STYLES.muted, e(line))),
      ].join("<br>"),
    ),
  );
  return tag("ul", STYLES.ul, items.join(""));
}

/** The new movements as an HTML list, every value escaped; alerts and digests share it. */
export function movementListHtml(shown: readonly MovementLine[]): string {
  const e = escapeHtml;
  const items = shown.map((m) => {
    const lines = [
      `<strong>${e(m.date)}</strong> · ${e(m.name)}`,
      tag("span", STYLES.muted, `${e(m.code)} · ${e(m.instance)}`),
    ];
    if (m.when !== null) lines.push(tag("span", STYLES.muted, `Quando: ${e(m.when)}`));
    if (m.hint !== null) lines.push(tag("span", STYLES.muted, `O que significa: ${e(m.hint)}`));
    if (m.complements.length > 0) {
      lines.push(tag("span", STYLES.muted, `Complementos: ${e(m.complements.join("; "))}`));
    }
    for (const line of m.deadline) lines.push(tag("span", STYLES.small, e(line)));
    return tag("li", STYLES.li, lines.join("<br>"));
  });
  return tag("ul", STYLES.ul, items.join(""));
}

/**
 * Pure: the same content always renders the same email, so a resend is identical. `timeZone` (the
 * schedule's) is for our own instants; DataJud's dates are shown as the court recorded them.
 */
export function renderAlert(content: AlertContent, timeZone = COURT_TIME_ZONE): RenderedAlert {
  const subject = renderSubject(content);
  return {
    subject,
    text: renderText(content, timeZone),
    html: renderHtml(content, subject, timeZone),
  };
}
