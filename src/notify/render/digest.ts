import { COURT_TIME_ZONE } from "../../datajud/dates.js";
import { indexText } from "../../datajud/glossary.js";
import { oneLine, paragraph } from "../../text.js";
import { formatBrazilian } from "../../time/calendar-date.js";
import { ackLine } from "./acknowledgement.js";
import {
  attentionValue,
  caseName,
  categoryLabel,
  correctionLines,
  correctionList,
  fieldChangeList,
  fieldChangeReadings,
  generatedByText,
  ignoredText,
  lateBlocks,
  moreMovements,
  movementLines,
  movementList,
  newsText,
  nextStepValue,
} from "./alert.js";
import type { AlertContent } from "./alert-content.js";
import { alertOpening, TODO_HEADING, todoText as todoItemText } from "./alert-opening.js";
import {
  type Block,
  type EmailDocument,
  type Entry,
  GAP,
  heading,
  para,
  renderDocument,
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
import { LISTED_BELOW, summaryWithoutListedPeriods } from "./opened-periods.js";
import type { PublicationAlertContent } from "./publication-alert.js";
import { publicationSectionBlocks, publicationsPhrase } from "./publication-digest.js";
import { type Receipt, receiptBlocks, renderReceiptSubject } from "./receipt.js";
import { sourcesFooter } from "./sources-line.js";

/** A digest lists many cases: each gets its newest movements, the case's own alert would show all. */
const MOVEMENTS_PER_CASE = 5;
const SUBJECT_MAX = 200;

/**
 * The acknowledgement link of each item given to `renderDigest`, in the same order (null: its
 * row asks none): each urgent item of a digest carries its own, bound to its alert and recipient.
 */
export interface DigestAcks {
  changes: readonly (string | null)[];
  publications: readonly (string | null)[];
}

function caseKey(item: AlertContent): string {
  return `${item.caseNumber}|${item.court}`;
}

/** The links of each case's items: a case's changes are one entry, its links all shown. */
function acksByCase(
  items: readonly AlertContent[],
  urls: readonly (string | null)[],
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  items.forEach((item, i) => {
    const url = urls[i] ?? null;
    if (url === null) return;
    const key = caseKey(item);
    out.set(key, [...(out.get(key) ?? []), url]);
  });
  return out;
}

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
    const key = caseKey(item);
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
      // A later alert's reading of an act wins: it may date what the earlier could not.
      acts: [
        ...earlier.acts.filter(
          (a) => !item.acts.some((b) => b.movementId === a.movementId && b.instance === a.instance),
        ),
        ...item.acts,
      ],
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

/** One case's entry: where it is, its summary, what changed, where the data came from. */
function caseEntry(content: AlertContent, timeZone: string, acks: readonly string[]): Entry {
  const { current } = content;
  // The periods listed below with their last days are not named twice.
  const listed = summaryWithoutListedPeriods(current, content.acts, LISTED_BELOW);
  const blocks: Block[] = [
    para(
      `Processo ${oneLine(content.caseNumber)} · ${oneLine(content.court).toUpperCase()}`,
      "meta",
    ),
    ...acks.map((url) => para(ackLine(url), "attention")),
    {
      kind: "rows",
      rows: [
        { key: "Categoria", value: categoryChange(content) },
        { key: "Situação", value: paragraph(current.status) },
        {
          key: "Atenção do advogado",
          value: attentionValue(listed),
          tone: current.needsLawyerAttention ? "attention" : "body",
        },
        { key: "Próximo passo", value: nextStepValue(listed) },
      ],
    },
  ];
  blocks.push(
    ...changeBlocks(content),
    ...lateBlocks(content),
    para(`Origem: ${provenanceLine(content, timeZone)}`, "small"),
    ...sourcesFooter(content.sources, timeZone).map((line) => para(line, "small")),
    para(generatedByText(current, timeZone), "small"),
  );
  return { title: `${markerOf(content)}${caseName(content)}`, blocks };
}

/** What changed in a case: what to do by when, its data, the court's corrections, its movements. */
function changeBlocks(content: AlertContent): Block[] {
  const blocks: Block[] = [];
  // What to do by when, as the case's alert opens with it, and its court calendar once.
  const opening = alertOpening(content, newsText(content));
  if (opening.todo.length > 0) {
    blocks.push(para([{ strong: `${TODO_HEADING}:` }]), {
      kind: "list",
      items: opening.todo.map((item) => ({ title: todoItemText(item) })),
    });
    if (opening.calendar !== null) blocks.push(para(opening.calendar, "small"));
  }
  const fields = fieldChangeReadings(content);
  if (fields.length > 0) {
    blocks.push(
      para([{ strong: `Dados do processo alterados (${fields.length}):` }]),
      fieldChangeList(fields),
    );
  }
  const fixes = correctionLines(content);
  if (fixes.length > 0) {
    blocks.push(
      para([{ strong: `Correções do tribunal (${fixes.length}):` }]),
      correctionList(fixes),
    );
  }
  const { shown, hidden } = movementLines(content, MOVEMENTS_PER_CASE);
  blocks.push(
    para([
      { strong: `Movimentações novas (${content.newMovements.length}):` },
      shown.length === 0 ? " nenhuma" : "",
    ]),
  );
  if (shown.length > 0) blocks.push(movementList(shown));
  if (hidden > 0) {
    blocks.push(moreMovements(hidden));
  }
  const routine = ignoredText(content.ignoredMovements);
  if (routine !== null) blocks.push(para(routine, "muted"));
  return blocks;
}

/** A digest's closing section: each receipt of the watcher it carries, newest last. */
function receiptHeading(r: Receipt): string {
  return `Verificação diária de ${formatBrazilian(r.day)}`;
}

function digestDocument(
  items: readonly AlertContent[],
  publications: readonly PublicationAlertContent[],
  receipts: readonly Receipt[],
  timeZone: string,
  acks: { cases: ReadonlyMap<string, string[]>; publications: readonly (string | null)[] },
): EmailDocument {
  const blocks: Block[] = [];
  // A digest of nothing but the day's receipts reads as the receipts: no title, no counts.
  const newest = receipts.at(-1);
  const only = items.length === 0 && publications.length === 0 && newest !== undefined;
  if (!only) {
    blocks.push(heading("title", digestPhrase(items, publications)));
    const attention = attentionCount(items);
    if (attention > 0) {
      const who = attention === 1 ? "1 requer" : `${attention} requerem`;
      blocks.push(
        para([{ strong: `${ATTENTION_MARKER} ${who} atenção do advogado.` }], "attention"),
      );
    }
    blocks.push(GAP, ...publicationSectionBlocks(publications, timeZone, acks.publications));
    if (items.length > 0 && publications.length > 0) {
      blocks.push(heading("section", casesPhrase(items.length)));
    }
    blocks.push({
      kind: "entries",
      entries: ordered(items).map((content) =>
        caseEntry(content, timeZone, acks.cases.get(caseKey(content)) ?? []),
      ),
    });
  }
  for (const r of receipts) {
    blocks.push(heading("section", receiptHeading(r)), ...receiptBlocks(r, timeZone), GAP);
  }
  blocks.push(para(clocksNote(timeZone), "footer"), para(NOT_LEGAL_ADVICE, "footer"));
  const subject =
    only && newest !== undefined
      ? renderReceiptSubject(newest)
      : renderDigestSubject(items, publications);
  return { subject, lang: "pt-BR", blocks };
}

/**
 * One e-mail for several changes and DJEN publications to one recipient, text + HTML, escaped
 * like a single alert; publications come first, those outside the watchlist before the rest.
 * An item whose row asks for an acknowledgement (`acks`) carries its link under its title.
 * Pure, and the order is fixed by the input's, so a resend of the same rows is the same e-mail.
 */
export function renderDigest(
  changes: readonly AlertContent[],
  timeZone = COURT_TIME_ZONE,
  publications: readonly PublicationAlertContent[] = [],
  receipts: readonly Receipt[] = [],
  acks: DigestAcks = { changes: [], publications: [] },
): RenderedAlert {
  if (changes.length === 0 && publications.length === 0 && receipts.length === 0) {
    throw new RangeError("a digest needs at least one alert");
  }
  return renderDocument(
    digestDocument(mergeByCase(changes), publications, receipts, timeZone, {
      cases: acksByCase(changes, acks.changes),
      publications: acks.publications,
    }),
  );
}
