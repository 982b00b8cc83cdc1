import { COURT_TIME_ZONE } from "../../datajud/dates.js";
import { indexText } from "../../datajud/glossary.js";
import { oneLine, paragraph } from "../../text.js";
import { formatBrazilian } from "../../time/calendar-date.js";
import {
  attentionValue,
  caseName,
  categoryLabel,
  correctionDetail,
  correctionLines,
  correctionListHtml,
  fieldChangeDetail,
  fieldChangeListHtml,
  fieldChangeReadings,
  generatedByText,
  ignoredText,
  lateHtml,
  lateText,
  type MovementLine,
  movementLines,
  movementListHtml,
  nextStepValue,
} from "./alert.js";
import type { AlertContent } from "./alert-content.js";
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
import type { PublicationAlertContent } from "./publication-alert.js";
import {
  publicationSectionsHtml,
  publicationSectionsText,
  publicationsPhrase,
} from "./publication-digest.js";
import { type Receipt, receiptHtml, receiptText, renderReceiptSubject } from "./receipt.js";
import { sourcesFooter } from "./sources-line.js";

/** A digest lists many cases: each gets its newest movements, the case's own alert would show all. */
const MOVEMENTS_PER_CASE = 5;
const SUBJECT_MAX = 200;

function casesPhrase(n: number): string {
  return n === 1 ? "1 processo com novidades" : `${n} processos com novidades`;
}

/**
 * One entry per case: several changes of a case since the last digest read as one, from the
 * summary before the first to the summary after the last, with every new movement of them all.
 */
function mergeByCase(items: readonly AlertContent[]): AlertContent[] {
  const byCase = new Map<string, AlertContent>();
  for (const item of items) {
    const key = `${item.caseNumber}|${item.court}`;
    const earlier = byCase.get(key);
    if (earlier === undefined) {
      byCase.set(key, item);
      continue;
    }
    const seen = new Set(earlier.newMovements.map((m) => m.movement.id));
    byCase.set(key, {
      ...item,
      previous: earlier.previous,
      newMovements: [
        ...earlier.newMovements,
        ...item.newMovements.filter((m) => !seen.has(m.movement.id)),
      ],
      lateMovements: [...earlier.lateMovements, ...item.lateMovements],
      fieldChanges: [...earlier.fieldChanges, ...item.fieldChanges],
      // Each correction is its own step (a hearing designada, cancelada, then redesignada).
      corrections: [...earlier.corrections, ...item.corrections],
      changeKinds: [...new Set([...earlier.changeKinds, ...item.changeKinds])],
      urgent: earlier.urgent || item.urgent,
      urgentReasons: [...new Set([...earlier.urgentReasons, ...item.urgentReasons])],
      ignoredMovements: earlier.ignoredMovements + item.ignoredMovements,
      // How fresh the sources were at the newest change that says so.
      sources: item.sources ?? earlier.sources,
    });
  }
  return [...byCase.values()];
}

/** Urgent cases first, then those needing the lawyer; otherwise the order they were queued in. */
function ordered(items: readonly AlertContent[]): AlertContent[] {
  return items
    .map((content, index) => ({ content, index }))
    .sort(
      (a, b) =>
        Number(b.content.urgent) - Number(a.content.urgent) ||
        Number(b.content.current.needsLawyerAttention) -
          Number(a.content.current.needsLawyerAttention) ||
        a.index - b.index,
    )
    .map((entry) => entry.content);
}

function markerOf(content: AlertContent): string {
  if (content.urgent) return `${URGENT_MARKER} `;
  return content.current.needsLawyerAttention ? `${ATTENTION_MARKER} ` : "";
}

function attentionCount(items: readonly AlertContent[]): number {
  return items.filter((c) => c.current.needsLawyerAttention).length;
}

function categoryChange(content: AlertContent): string {
  const after = categoryLabel(content.current);
  if (content.previous === null) return `${after} (primeiro resumo)`;
  const before = categoryLabel(content.previous);
  return before === after ? `${after} (sem mudança)` : `${before} → ${after}`;
}

function movementText(m: MovementLine): string[] {
  const lines = [`   - ${m.date} · ${m.name} · ${m.code} · ${m.instance}`];
  if (m.when !== null) lines.push(`     Quando: ${m.when}`);
  if (m.hint !== null) lines.push(`     O que significa: ${m.hint}`);
  if (m.complements.length > 0) lines.push(`     Complementos: ${m.complements.join("; ")}`);
  return lines;
}

function provenanceLine(content: AlertContent, timeZone: string): string {
  const p = content.provenance;
  const updated = p.lastUpdatedAt === null ? "não informada" : courtTime(p.lastUpdatedAt);
  return `${oneLine(indexText(p.index))}, consultado em ${instantTime(p.fetchedAt, timeZone)}; última atualização no DataJud: ${updated}.`;
}

function urgentPublication(publications: readonly PublicationAlertContent[]): boolean {
  return publications.some((p) => p.urgent && p.notice === "published");
}

/** "2 publicações no DJEN, 1 processo com novidades": what the digest holds. */
function digestPhrase(
  items: readonly AlertContent[],
  publications: readonly PublicationAlertContent[],
): string {
  const parts = [publicationsPhrase(publications)];
  if (items.length > 0 || parts[0] === null) parts.push(casesPhrase(items.length));
  return parts.filter((p) => p !== null).join(", ");
}

/** One line, no control characters: the counts and a marker are all a digest's subject says. */
export function renderDigestSubject(
  changes: readonly AlertContent[],
  publications: readonly PublicationAlertContent[] = [],
): string {
  const items = mergeByCase(changes);
  const marker =
    items.some((c) => c.urgent) || urgentPublication(publications)
      ? `${URGENT_MARKER} `
      : attentionCount(items) > 0
        ? `${ATTENTION_MARKER} `
        : "";
  return oneLine(`[datajud] ${marker}${digestPhrase(items, publications)}`, SUBJECT_MAX);
}

/** A digest's closing section: each receipt of the watcher it carries, newest last. */
function receiptHeading(r: Receipt): string {
  return `Verificação diária de ${formatBrazilian(r.day)}`;
}

function renderText(
  items: readonly AlertContent[],
  publications: readonly PublicationAlertContent[],
  receipts: readonly Receipt[],
  timeZone: string,
): string {
  if (items.length === 0 && publications.length === 0) {
    return `${[...receipts.flatMap((r) => [receiptHeading(r).toUpperCase(), ...receiptText(r, timeZone), ""]), clocksNote(timeZone), NOT_LEGAL_ADVICE].join("\n")}\n`;
  }
  const out: string[] = [digestPhrase(items, publications)];
  const attention = attentionCount(items);
  if (attention > 0) {
    out.push(
      `${ATTENTION_MARKER} ${attention === 1 ? "1 requer" : `${attention} requerem`} atenção do advogado.`,
    );
  }
  out.push("");
  out.push(...publicationSectionsText(publications, timeZone));
  if (items.length > 0 && publications.length > 0)
    out.push(casesPhrase(items.length).toUpperCase());
  ordered(items).forEach((content, i) => {
    const { current } = content;
    out.push(`${i + 1}. ${markerOf(content)}${caseName(content)}`);
    out.push(
      `   Processo ${oneLine(content.caseNumber)} · ${oneLine(content.court).toUpperCase()}`,
    );
    out.push(`   Categoria: ${categoryChange(content)}`);
    out.push(`   Situação: ${paragraph(current.status).replace(/\n/g, "\n   ")}`);
    out.push(`   Atenção do advogado: ${attentionValue(current)}`);
    out.push(`   Próximo passo: ${nextStepValue(current)}`);
    const fields = fieldChangeReadings(content);
    if (fields.length > 0) out.push(`   Dados do processo alterados (${fields.length}):`);
    for (const f of fields) {
      out.push(`   - ${oneLine(f.title)}`);
      for (const line of fieldChangeDetail(f)) out.push(`     ${line}`);
    }
    const fixes = correctionLines(content);
    if (fixes.length > 0) out.push(`   Correções do tribunal (${fixes.length}):`);
    for (const fix of fixes) {
      out.push(`   - ${oneLine(fix.reading.headline)} · ${fix.instance}`);
      for (const line of correctionDetail(fix)) out.push(`     ${line}`);
    }
    const { shown, hidden } = movementLines(content, MOVEMENTS_PER_CASE);
    out.push(
      `   Movimentações novas (${content.newMovements.length}):${shown.length ? "" : " nenhuma"}`,
    );
    for (const m of shown) out.push(...movementText(m));
    if (hidden > 0) out.push(`   … e mais ${hidden} (veja \`monitor history\`).`);
    const routine = ignoredText(content.ignoredMovements);
    if (routine !== null) out.push(`   ${routine}`);
    out.push(...lateText(content, "   "));
    out.push(`   Origem: ${provenanceLine(content, timeZone)}`);
    for (const line of sourcesFooter(content.sources, timeZone)) out.push(`   ${line}`);
    out.push(`   ${generatedByText(current, timeZone)}`);
    out.push("");
  });
  for (const r of receipts)
    out.push(receiptHeading(r).toUpperCase(), ...receiptText(r, timeZone), "");
  out.push(clocksNote(timeZone));
  out.push(NOT_LEGAL_ADVICE);
  return `${out.join("\n")}\n`;
}

function caseHtml(content: AlertContent, position: number, timeZone: string): string {
  const e = escapeHtml;
  const { current } = content;
  const parts: string[] = [
    tag(
      "h2",
      STYLES.h2,
      `${position}. ${e(markerOf(content))}${keepNumbersWhole(e(caseName(content)))}`,
    ),
    tag(
      "p",
      STYLES.meta,
      `Processo ${keepNumbersWhole(e(oneLine(content.caseNumber)))} · ${e(oneLine(content.court).toUpperCase())}`,
    ),
  ];
  if (current.needsLawyerAttention) {
    parts.push(
      tag(
        "div",
        STYLES.attention,
        `<strong>Atenção do advogado:</strong> ${e(attentionValue(current))}`,
      ),
    );
  }
  parts.push(tag("p", STYLES.p, `<strong>Categoria:</strong> ${e(categoryChange(content))}`));
  parts.push(
    tag("p", STYLES.p, `<strong>Situação:</strong> ${breaks(e(paragraph(current.status)))}`),
  );
  parts.push(tag("p", STYLES.p, `<strong>Próximo passo:</strong> ${e(nextStepValue(current))}`));
  const fields = fieldChangeReadings(content);
  if (fields.length > 0) {
    parts.push(
      tag("p", STYLES.p, `<strong>Dados do processo alterados (${fields.length})</strong>`),
    );
    parts.push(fieldChangeListHtml(fields));
  }
  const fixes = correctionLines(content);
  if (fixes.length > 0) {
    parts.push(tag("p", STYLES.p, `<strong>Correções do tribunal (${fixes.length})</strong>`));
    parts.push(correctionListHtml(fixes));
  }
  const { shown, hidden } = movementLines(content, MOVEMENTS_PER_CASE);
  parts.push(
    tag("p", STYLES.p, `<strong>Movimentações novas (${content.newMovements.length})</strong>`),
  );
  if (shown.length === 0) parts.push(tag("p", STYLES.muted, "Nenhuma."));
  else {
    parts.push(movementListHtml(shown));
  }
  if (hidden > 0) {
    parts.push(tag("p", STYLES.muted, `… e mais ${hidden} (veja monitor history).`));
  }
  const routine = ignoredText(content.ignoredMovements);
  if (routine !== null) parts.push(tag("p", STYLES.muted, e(routine)));
  const late = lateHtml(content);
  if (late !== "") parts.push(late);
  parts.push(tag("p", STYLES.small, `Origem: ${e(provenanceLine(content, timeZone))}`));
  for (const line of sourcesFooter(content.sources, timeZone)) {
    parts.push(tag("p", STYLES.small, e(line)));
  }
  parts.push(tag("p", STYLES.small, e(generatedByText(current, timeZone))));
  return parts.join("\n");
}

function renderHtml(
  items: readonly AlertContent[],
  publications: readonly PublicationAlertContent[],
  receipts: readonly Receipt[],
  subject: string,
  timeZone: string,
): string {
  const only = items.length === 0 && publications.length === 0;
  const parts: string[] = only
    ? []
    : [tag("h1", STYLES.h1, escapeHtml(digestPhrase(items, publications)))];
  const attention = attentionCount(items);
  if (attention > 0) {
    parts.push(
      tag(
        "div",
        STYLES.attention,
        `<strong>${ATTENTION_MARKER} ${attention === 1 ? "1 requer" : `${attention} requerem`} atenção do advogado</strong>`,
      ),
    );
  }
  parts.push(...publicationSectionsHtml(publications, timeZone));
  if (items.length > 0 && publications.length > 0) {
    parts.push(tag("h2", STYLES.h2, escapeHtml(casesPhrase(items.length))));
  }
  ordered(items).forEach((content, i) => {
    parts.push(caseHtml(content, i + 1, timeZone));
  });
  for (const r of receipts) {
    parts.push(
      tag(only ? "h1" : "h2", only ? STYLES.h1 : STYLES.h2, escapeHtml(receiptHeading(r))),
    );
    parts.push(...receiptHtml(r, timeZone));
  }
  parts.push(tag("p", STYLES.footer, escapeHtml(clocksNote(timeZone))));
  parts.push(tag("p", STYLES.footer, escapeHtml(NOT_LEGAL_ADVICE)));
  return htmlDocument(subject, parts);
}

/**
 * One e-mail for several changes and DJEN publications to one recipient, text + HTML, escaped
 * like a single alert; publications come first, those outside the watchlist before the rest.
 * Pure, and the order is fixed by the input's, so a resend of the same rows is the same e-mail.
 */
export function renderDigest(
  changes: readonly AlertContent[],
  timeZone = COURT_TIME_ZONE,
  publications: readonly PublicationAlertContent[] = [],
  receipts: readonly Receipt[] = [],
): RenderedAlert {
  if (changes.length === 0 && publications.length === 0 && receipts.length === 0) {
    throw new RangeError("a digest needs at least one alert");
  }
  const items = mergeByCase(changes);
  const newest = receipts.at(-1);
  // A digest of nothing but the day's receipt reads as the receipt.
  const subject =
    items.length === 0 && publications.length === 0 && newest !== undefined
      ? renderReceiptSubject(newest)
      : renderDigestSubject(items, publications);
  return {
    subject,
    text: renderText(items, publications, receipts, timeZone),
    html: renderHtml(items, publications, receipts, subject, timeZone),
  };
}
