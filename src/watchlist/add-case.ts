import { Document, isMap, isNode, isSeq, parseDocument, Scalar } from "yaml";
import { parseCnjNumber } from "../datajud/cnj-number.js";
import { resolveCourt } from "../datajud/courts.js";
import { normalizeEmailAddress } from "../email-address.js";
import { formatPositionedError } from "../yaml/positioned-error.js";
import { parseWatchlist, type WatchlistOptions } from "./parse-watchlist.js";

/*
 * Adding a case to a person's watchlist (`datajud-monitor watch`, the party radar's alerts name
 * it): through the YAML library's document API, so every comment, blank line and key order of the
 * file stays as it was and only the new item is added under `cases:`. The file must be valid
 * before, and the result is validated before the caller writes it: nothing half-done is written.
 * Pure: text in, text out.
 */

export interface NewCase {
  /** Formatted or 20 digits. */
  number: string;
  label?: string | undefined;
  /** Addresses told of it besides defaults.notify. */
  notify?: readonly string[] | undefined;
}

export type AddCaseResult =
  /** `text`: the new file; null when the case is already there (nothing to write). */
  | { ok: true; text: string | null; line: number; formatted: string }
  | { ok: false; errors: string[] };

/** The new item as block YAML, its number quoted, each line indented by `indent`. */
function itemText(item: Record<string, unknown>, indent: string): string {
  const doc = new Document([item]);
  const seq = doc.contents;
  const node = isSeq(seq) ? seq.items[0] : null;
  // Quoted, as the watchlist asks (a number left plain may be read as a number).
  const number = isMap(node) ? node.get("number", true) : null;
  if (number instanceof Scalar) number.type = Scalar.QUOTE_DOUBLE;
  return String(doc)
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => `${indent}${line}\n`)
    .join("");
}

/**
 * `text` with the item added as the last of `cases:`. A block list gets the item spliced in after
 * its last item's line, in its indentation, so every other byte of the file stays; a file without
 * cases gets `cases:` at its end; a flow list (`cases: []`) is rewritten by the document API,
 * which keeps comments but may respace that part. Null when the file is no mapping.
 */
function withCase(text: string, item: Record<string, unknown>): string | null {
  const doc = parseDocument(text);
  if (doc.contents !== null && !isMap(doc.contents)) return null;
  const cases = doc.get("cases", true);
  const last = isSeq(cases) && !cases.flow ? cases.items.at(-1) : undefined;
  if (isSeq(cases) && !cases.flow && last !== undefined && isNode(last) && last.range) {
    const first = cases.items[0];
    const firstStart = isNode(first) && first.range ? first.range[0] : last.range[0];
    const lineStart = text.lastIndexOf("\n", firstStart - 1) + 1;
    const dash = text.slice(lineStart, firstStart).indexOf("-");
    const indent = " ".repeat(Math.max(0, dash));
    // The item's range runs on over the blank lines after it: insert after its last written line.
    const end = last.range[0] + text.slice(last.range[0], last.range[1]).trimEnd().length;
    const lineEnd = text.indexOf("\n", end);
    const at = lineEnd < 0 ? text.length : lineEnd + 1;
    const before = lineEnd < 0 ? `${text}\n` : text.slice(0, at);
    return `${before}${itemText(item, indent)}${text.slice(at)}`;
  }
  if (!doc.has("cases")) {
    const end = text.length === 0 || text.endsWith("\n") ? text : `${text}\n`;
    return `${end}cases:\n${itemText(item, "  ")}`;
  }
  const list = isSeq(cases) ? cases : doc.createNode([]);
  const node = doc.createNode(item);
  const number = isMap(node) ? node.get("number", true) : null;
  if (number instanceof Scalar) number.type = Scalar.QUOTE_DOUBLE;
  list.add(node);
  doc.set("cases", list);
  return String(doc);
}

export function addCaseToWatchlist(
  text: string,
  file: string,
  entry: NewCase,
  options: WatchlistOptions = {},
): AddCaseResult {
  const cnj = parseCnjNumber(entry.number);
  if (!cnj.ok) return { ok: false, errors: [cnj.error] };
  const notify: string[] = [];
  for (const raw of entry.notify ?? []) {
    const address = normalizeEmailAddress(raw);
    if (address === null) return { ok: false, errors: [`"${raw}" is not an e-mail address`] };
    notify.push(address);
  }
  const before = parseWatchlist(text, file, options);
  if (!before.ok) {
    return {
      ok: false,
      errors: [
        ...before.errors.map(formatPositionedError),
        `${file} has ${before.errors.length} error(s); fix them first (nothing was written)`,
      ],
    };
  }
  let court: string;
  try {
    court = resolveCourt(cnj.value);
  } catch (error) {
    return { ok: false, errors: [error instanceof Error ? error.message : String(error)] };
  }
  const known = before.watchlist.cases.find(
    (c) => c.digits === cnj.value.digits && c.court === court,
  );
  if (known !== undefined) {
    return { ok: true, text: null, line: known.line, formatted: cnj.value.formatted };
  }
  const item = {
    number: cnj.value.formatted,
    ...(entry.label === undefined || entry.label.trim() === ""
      ? {}
      : { label: entry.label.trim() }),
    ...(notify.length === 0 ? {} : { notify }),
  };
  const next = withCase(text, item);
  if (next === null) return { ok: false, errors: [`${file} is not a mapping with a cases: key`] };
  const after = parseWatchlist(next, file, options);
  if (!after.ok) {
    return {
      ok: false,
      errors: [
        ...after.errors.map(formatPositionedError),
        "the watchlist with this case would not be valid; nothing was written",
      ],
    };
  }
  const added = after.watchlist.cases.find(
    (c) => c.digits === cnj.value.digits && c.court === court,
  );
  if (added === undefined) {
    return { ok: false, errors: ["the case could not be added; nothing was written"] };
  }
  return { ok: true, text: next, line: added.line, formatted: cnj.value.formatted };
}
