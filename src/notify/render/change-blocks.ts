import type { FieldChangeReading } from "../../summarize/field-changes.js";
import { oneLine } from "../../text.js";
import {
  type CorrectionLine,
  correctionDetail,
  fieldChangeDetail,
  LATE_NOTE,
  lateLines,
  type MovementLine,
} from "./alert.js";
import type { AlertContent } from "./alert-content.js";
import { type Block, heading, type ListItem, toned } from "./document.js";

/*
 * The parts of a case change that an alert and a digest both show, as document blocks: the
 * case's own data that changed, the court's corrections, the new movements and the late records.
 */

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
