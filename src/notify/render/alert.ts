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
  type Block,
  type EmailDocument,
  GAP,
  heading,
  type ListItem,
  para,
  renderDocument,
  toned,
} from "./document.js";
import {
  ATTENTION_MARKER,
  clocksNote,
  courtTime,
  instantTime,
  NOT_LEGAL_ADVICE,
  type RenderedAlert,
  URGENT_MARKER,
} from "./email-kit.js";
import {
  LISTED_ABOVE,
  summaryWithoutListedPeriods,
  withoutListedPeriods,
} from "./opened-periods.js";
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

/** The summary's fields; the periods the opening lists with their dates are pointed to there. */
function fieldDiffs(content: AlertContent): FieldDiff[] {
  const listed = (s: CaseSummary) => summaryWithoutListedPeriods(s, content.acts, LISTED_ABOVE);
  const previous = content.previous === null ? null : listed(content.previous);
  const current = listed(content.current);
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
  /** The published act's periods are in the alert's opening (`content.acts`). */
  actPeriodsAbove = false,
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
              actPeriodsAbove,
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
      content.acts.some(
        (a) =>
          a.instance === m.instance &&
          a.movementId === m.publishes?.movementId &&
          a.periods.length > 0,
      ),
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

const LATE_NOTE =
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

/** A summary field as "O que mudou no resumo" shows it: as it was, as it is, or both. */
function fieldDiffBlock(f: FieldDiff): Block {
  const name = { strong: `${f.name}:` };
  if (f.before === null) return para([name, f.block ? `\n${f.after}` : ` ${f.after}`]);
  if (f.before === f.after) {
    return para(
      f.block
        ? [{ strong: f.name }, ` (sem mudança):\n${f.after}`]
        : [name, ` ${f.after} (sem mudança)`],
    );
  }
  return para(
    f.block
      ? [name, `\n  antes: ${f.before}\n  agora: `, { strong: f.after }]
      : [name, ` ${f.before} → `, { strong: f.after }],
  );
}

/** The top: the case, its court page, what kind of change; then why it is urgent or needs the lawyer. */
function openingBlocks(content: AlertContent): Block[] {
  const { current } = content;
  const blocks: Block[] = [
    heading("title", caseName(content)),
    para(
      `Processo ${oneLine(content.caseNumber)} · ${oneLine(content.court).toUpperCase()}`,
      "meta",
    ),
  ];
  const link = caseLinkOf(content);
  if (link !== null) {
    blocks.push(
      para([`Consulta pública no tribunal (${link.system}): `, { link: link.url }], "meta"),
    );
  }
  const kinds = changeKindsText(content.changeKinds);
  if (kinds !== null) blocks.push(para(kinds, "meta"));
  blocks.push(GAP);
  const urgent = urgentTexts(content);
  for (const reason of urgent) {
    blocks.push(para([{ strong: URGENT_MARKER }, `: ${reason}`], "attention"));
  }
  if (urgent.length > 0) blocks.push(GAP);
  blocks.push(...whatNowBlocks(content));
  if (current.needsLawyerAttention) {
    const items = current.attentionReasons.map((r): ListItem => {
      const refs = r.movements.map((m) => referenceText(content, m)).join("; ");
      const reason = oneLine(withoutListedPeriods(r.reason, content.acts, LISTED_ABOVE));
      return { title: `${reason}${refs === "" ? "" : ` (${refs})`}` };
    });
    blocks.push(
      {
        kind: "notice",
        heading: `${ATTENTION_MARKER} Requer atenção do advogado`,
        blocks: items.length === 0 ? [] : [{ kind: "list", items }],
      },
      GAP,
    );
  }
  return blocks;
}

/** What happened, and what to do by when (alert-opening.ts), with the calendar the dates rest on. */
function whatNowBlocks(content: AlertContent): Block[] {
  const opening = alertOpening(content, newsText(content));
  const todo: Block =
    opening.todo.length === 0
      ? para(content.current.needsLawyerAttention ? NOTHING_DATED : NOTHING_TO_DO)
      : {
          kind: "list",
          items: opening.todo.map((item): ListItem => {
            const line = todoText(item);
            const colon = line.indexOf(": ");
            return colon < 0
              ? { title: line }
              : { title: [{ strong: line.slice(0, colon) }, line.slice(colon)] };
          }),
        };
  return [
    heading("section", "O que aconteceu"),
    { kind: "list", items: opening.happened.map((line): ListItem => ({ title: line })) },
    GAP,
    heading("section", TODO_HEADING),
    todo,
    ...opening.counting.map((line) => para(line, "small")),
    ...(opening.calendar === null ? [] : [para(opening.calendar, "small")]),
    GAP,
  ];
}

/** What changed: the summary, the case's data, the court's corrections, the movements. */
function changeBlocks(content: AlertContent): Block[] {
  const blocks: Block[] = [heading("section", "O que mudou no resumo")];
  if (content.previous === null) blocks.push(para("Primeiro resumo deste processo.", "muted"));
  blocks.push(...fieldDiffs(content).map(fieldDiffBlock), GAP);
  const fields = fieldChangeReadings(content);
  if (fields.length > 0) {
    blocks.push(
      heading("section", `Dados do processo alterados (${fields.length})`),
      fieldChangeList(fields),
      GAP,
    );
  }
  const fixes = correctionLines(content);
  if (fixes.length > 0) {
    blocks.push(
      heading("section", `Correções do tribunal (${fixes.length})`),
      correctionList(fixes),
      GAP,
    );
  }
  const { shown, hidden } = movementLines(content);
  blocks.push(
    heading("section", `Movimentações novas (${content.newMovements.length})`),
    shown.length === 0 ? para("Nenhuma.", "muted") : movementList(shown),
  );
  if (hidden > 0) blocks.push(moreMovements(hidden));
  const routine = ignoredText(content.ignoredMovements);
  if (routine !== null) blocks.push(para(routine, "muted"));
  blocks.push(GAP);
  const late = lateBlocks(content);
  if (late.length > 0) blocks.push(...late, GAP);
  return blocks;
}

function alertDocument(content: AlertContent, timeZone: string): EmailDocument {
  const instances =
    content.instances.length === 0
      ? para("Nenhuma informada.", "muted")
      : ({
          kind: "list",
          items: content.instances.map((i) => ({ title: instanceLine(i) })),
        } satisfies Block);
  return {
    subject: renderSubject(content),
    lang: "pt-BR",
    blocks: [
      ...openingBlocks(content),
      ...changeBlocks(content),
      heading("section", "Instâncias"),
      instances,
      GAP,
      heading("section", "Origem dos dados"),
      ...provenanceLines(content, timeZone).map((line) => para(line, "small")),
      para(generatedByText(content.current, timeZone), "small"),
      GAP,
      para(NOT_LEGAL_ADVICE, "footer"),
    ],
  };
}

/** "… e mais 3 (veja `monitor history`)." under a list of movements cut short. */
export function moreMovements(hidden: number): Block {
  return para([`… e mais ${hidden} (veja `, { code: "monitor history" }, ")."], "muted");
}

/** Each field change: what it was, what it is now, what it means. */
export function fieldChangeList(fields: readonly FieldChangeReading[]): Block {
  const items = fields.map(
    (f): ListItem => ({ title: [{ strong: oneLine(f.title) }], lines: fieldChangeDetail(f) }),
  );
  return { kind: "list", items };
}

/** Each correction under its headline and instance. */
export function correctionList(fixes: readonly CorrectionLine[]): Block {
  const items = fixes.map(
    (fix): ListItem => ({
      title: [{ strong: oneLine(fix.reading.headline) }, ` · ${fix.instance}`],
      lines: correctionDetail(fix),
    }),
  );
  return { kind: "list", items };
}

/** Each new movement: date, name, code and instance, then when, what it means, its complements. */
export function movementList(shown: readonly MovementLine[]): Block {
  const items = shown.map((m): ListItem => {
    const lines = [];
    if (m.when !== null) lines.push(`Quando: ${m.when}`);
    if (m.hint !== null) lines.push(`O que significa: ${m.hint}`);
    if (m.complements.length > 0) lines.push(`Complementos: ${m.complements.join("; ")}`);
    return {
      title: [{ strong: m.date }, ` · ${m.name} · ${m.code} · ${m.instance}`],
      lines: [...lines, ...m.deadline.map((line) => toned("small", line))],
    };
  });
  return { kind: "list", items };
}

/** The late records, quiet: a heading, what they are, one muted line each; none when none. */
export function lateBlocks(content: AlertContent): Block[] {
  const lines = lateLines(content);
  if (lines.length === 0) return [];
  const items = lines.map(
    (m): ListItem => ({
      title: toned("muted", `${m.date} · ${m.name} · ${m.code} · ${m.instance} (${m.lateness})`),
    }),
  );
  return [
    heading("minor", `Registros antigos listados agora (${lines.length})`),
    { kind: "paragraph", text: LATE_NOTE, tone: "muted" },
    { kind: "list", items },
  ];
}

/**
 * Pure: the same content always renders the same email, so a resend is identical. `timeZone` (the
 * schedule's) is for our own instants; DataJud's dates are shown as the court recorded them.
 */
export function renderAlert(content: AlertContent, timeZone = COURT_TIME_ZONE): RenderedAlert {
  return renderDocument(alertDocument(content, timeZone));
}
