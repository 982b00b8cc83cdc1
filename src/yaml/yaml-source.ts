import {
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  type Pair,
  parseDocument,
  type Node as YamlNode,
} from "yaml";
import type { z } from "zod";

import type { PositionedError } from "./positioned-error.js";

/** A parsed YAML file and what turns its offsets back into line:col. */
export interface YamlSource {
  file: string;
  text: string;
  doc: Document.Parsed;
  lines: LineCounter;
}

export type YamlPath = readonly PropertyKey[];

export function errorAt(source: YamlSource, offset: number, message: string): PositionedError {
  const { line, col } = source.lines.linePos(offset);
  return { file: source.file, line, col, message };
}

/** The 1-based line of an offset. */
export function lineAt(source: YamlSource, offset: number): number {
  return source.lines.linePos(offset).line;
}

/** Offset of the first byte that starts an invalid UTF-8 sequence, or -1. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    if (b < 0x80) {
      i += 1;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else {
      return i;
    }
    let code = b & (0x3f >> need);
    for (let k = 1; k <= need; k += 1) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      code = (code << 6) | (c & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

export interface DecodedText {
  text: string;
  error: PositionedError | null;
}

/**
 * Files saved by Windows editors in Windows-1252 turn "ç" into one byte that is not UTF-8.
 * The first bad byte is reported where it is; the rest is decoded leniently so the other errors
 * in the file are still found.
 */
export function decodeUtf8(bytes: Uint8Array, file: string): DecodedText {
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes), error: null };
  } catch {
    const bad = Math.max(0, firstInvalidUtf8(bytes));
    const lineStart = bytes.lastIndexOf(0x0a, bad - 1) + 1;
    const line = bytes.subarray(0, lineStart).filter((b) => b === 0x0a).length + 1;
    const before = new TextDecoder("utf-8").decode(bytes.subarray(lineStart, bad));
    const byte = (bytes[bad] ?? 0).toString(16).toUpperCase().padStart(2, "0");
    return {
      text: new TextDecoder("utf-8").decode(bytes),
      error: {
        file,
        line,
        col: before.length + 1,
        message: `byte 0x${byte} is not UTF-8; save the file as UTF-8 (it was probably saved as Latin-1/Windows-1252)`,
      },
    };
  }
}

const YAML_HINTS: Partial<Record<string, string>> = {
  TAB_AS_INDENT: "a tab is used for indentation; YAML indents with spaces only",
  DUPLICATE_KEY: "this key appears twice in the same mapping; keep one",
  MULTIPLE_DOCS: "the file holds more than one YAML document (a second ---); keep one",
};

/** YAML syntax errors at yaml's own positions; the document is kept for positions even then. */
export function parseYamlSource(
  text: string,
  file: string,
): { source: YamlSource; errors: PositionedError[] } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const source: YamlSource = { file, text, doc, lines };
  const errors = doc.errors.map((e) =>
    errorAt(source, e.pos[0], `YAML: ${YAML_HINTS[e.code] ?? e.message}`),
  );
  return { source, errors };
}

function pairFor(map: { items: Pair[] }, key: PropertyKey): Pair | undefined {
  const wanted = String(key);
  return map.items.find((p) => {
    const k: unknown = p.key;
    return isScalar(k) ? String(k.value) === wanted : false;
  });
}

export interface NodeLookup {
  /** The node at the path, or the deepest one that exists on the way there. */
  node: YamlNode | null;
  /** How many path segments were found (path.length when the node exists). */
  depth: number;
  /** The key node of the last found map segment, for "unknown key" positions. */
  key: YamlNode | null;
}

export function nodeAt(source: YamlSource, path: YamlPath): NodeLookup {
  let node: YamlNode | null = (source.doc.contents as YamlNode | null) ?? null;
  let key: YamlNode | null = null;
  let depth = 0;
  // Inside an alias (*name) the nodes are the anchor's, elsewhere in the file; the alias itself is
  // where this occurrence was written.
  let alias: YamlNode | null = null;
  for (const segment of path) {
    let inner: unknown = node;
    if (isAlias(inner)) {
      alias ??= inner;
      inner = inner.resolve(source.doc);
    }
    let next: unknown;
    let nextKey: unknown = null;
    if (isMap(inner)) {
      const pair = pairFor(inner, segment);
      if (pair) {
        nextKey = pair.key;
        // `key:` with nothing after it has no value node; its key is the best place to point at.
        next = pair.value ?? pair.key;
      }
    } else if (isSeq(inner) && typeof segment === "number") {
      next = inner.items[segment];
    }
    if (next === undefined || next === null) break;
    node = next as YamlNode;
    key = (nextKey as YamlNode | null) ?? null;
    depth += 1;
  }
  return alias === null ? { node, depth, key } : { node: alias, depth, key: alias };
}

function offsetOf(node: YamlNode | null): number {
  return node?.range?.[0] ?? 0;
}

export function errorAtPath(
  source: YamlSource,
  path: YamlPath,
  message: string,
  at: "value" | "key" = "value",
): PositionedError {
  const found = nodeAt(source, path);
  const node = at === "key" && found.depth === path.length ? (found.key ?? found.node) : found.node;
  return errorAt(source, offsetOf(node), message);
}

/** `cases[2].notify[0]`, or "the file" for the root. */
export function describePath(path: YamlPath): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? String(segment) : `.${String(segment)}`;
  }
  return out === "" ? "the file" : out;
}

/** Edit distance where swapping two neighbours ("tjps" for "tjsp") counts as one edit. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i += 1) {
    const row = rows[i] ?? [];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i, j - 1) + 1, at(i - 1, j) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, at(i - 2, j - 2) + 1);
      }
      row[j] = best;
    }
  }
  return at(a.length, b.length);
}

function sortedLetters(name: string): string {
  return [...name].sort().join("");
}

function squash(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, "");
}

/** The closest known name, if it is close enough to be a typo (or a snake_case spelling). */
export function suggestName(unknown: string, known: readonly string[]): string | undefined {
  const squashed = squash(unknown);
  const same = known.find((k) => squash(k) === squashed);
  if (same) return same;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  let bestIsAnagram = false;
  const letters = sortedLetters(squashed);
  for (const candidate of known) {
    const distance = editDistance(squashed, squash(candidate));
    const anagram = sortedLetters(squash(candidate)) === letters;
    // On a tie, a candidate with the same letters wins: a swap is likelier than a wrong letter.
    if (distance < bestDistance || (distance === bestDistance && anagram && !bestIsAnagram)) {
      best = candidate;
      bestDistance = distance;
      bestIsAnagram = anagram;
    }
  }
  const allowed = Math.max(1, Math.floor(squashed.length / 3));
  return bestDistance <= allowed ? best : undefined;
}

interface SchemaDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
}

function defOf(schema: z.ZodType): SchemaDef {
  return schema._zod.def as unknown as SchemaDef;
}

/** Strips optional/nullable/default wrappers down to the schema that says what the value is. */
export function unwrapSchema(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    const inner = def.innerType ?? (def.type === "pipe" ? def.in : undefined);
    if (!inner) return current;
    current = inner;
  }
}

/** The schema describing the value at `path`, walking objects and arrays. */
export function schemaAt(schema: z.ZodType, path: YamlPath): z.ZodType | undefined {
  let current: z.ZodType | undefined = schema;
  for (const segment of path) {
    if (!current) return undefined;
    const def = defOf(unwrapSchema(current));
    if (def.type === "object") current = def.shape?.[String(segment)];
    else if (def.type === "array") current = def.element;
    else return undefined;
  }
  return current;
}

/** The keys a strict object at `path` accepts, in schema order. */
export function knownKeysAt(schema: z.ZodType, path: YamlPath): string[] {
  const at = schemaAt(schema, path);
  if (!at) return [];
  const def = defOf(unwrapSchema(at));
  return def.type === "object" ? Object.keys(def.shape ?? {}) : [];
}

const EXPECTED: Partial<Record<string, string>> = {
  string: "text",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  array: "a list",
  object: "a mapping (indented key: value lines)",
};

function describeNode(source: YamlSource, node: YamlNode | null): string {
  if (node === null) return "nothing";
  let inner: unknown = node;
  if (isAlias(inner)) inner = inner.resolve(source.doc);
  if (isMap(inner)) return "a mapping";
  if (isSeq(inner)) return "a list";
  if (isScalar(inner)) {
    const value = inner.value;
    if (value === null) return "nothing (an empty value)";
    if (typeof value === "number" || typeof value === "bigint")
      return `the number ${sourceText(source, node)}`;
    if (typeof value === "boolean") return `${String(value)} (a yes/no value)`;
    if (typeof value === "string") return `the text ${JSON.stringify(value)}`;
  }
  return "a value of another kind";
}

function sourceText(source: YamlSource, node: YamlNode): string {
  const range = node.range;
  return range ? source.text.slice(range[0], range[1]).trim() : "";
}

export interface IssueOptions {
  /** A message of its own for an unknown key (e.g. a secret that belongs in the environment). */
  unknownKeyHint?: (path: YamlPath, key: string) => string | undefined;
}

function unknownKeyMessage(
  path: YamlPath,
  key: string,
  known: readonly string[],
  options: IssueOptions,
): string {
  const where = path.length === 0 ? "" : ` in ${describePath(path)}`;
  const hint = options.unknownKeyHint?.(path, key);
  if (hint) return `unknown key "${key}"${where}: ${hint}`;
  const suggestion = suggestName(key, known);
  if (suggestion) return `unknown key "${key}"${where}; did you mean "${suggestion}"?`;
  const list = known.length > 0 ? `; the keys allowed here are ${known.join(", ")}` : "";
  return `unknown key "${key}"${where}${list}`;
}

function typeMessage(source: YamlSource, path: YamlPath, expected: string): PositionedError {
  const found = nodeAt(source, path);
  const name = describePath(path);
  if (found.depth < path.length) {
    const parent = path.slice(0, -1);
    const key = String(path[path.length - 1]);
    return errorAtPath(source, parent, `${describePath(parent)}: "${key}" is required but missing`);
  }
  const want = EXPECTED[expected] ?? expected;
  const got = describeNode(source, found.node);
  let message = `${name}: expected ${want}, got ${got}`;
  const value: unknown = isScalar(found.node) ? found.node.value : undefined;
  if (expected === "string" && typeof value === "number" && found.node) {
    message += `; put it in quotes ("${sourceText(source, found.node)}"): unquoted, YAML reads it as a number and drops leading zeros`;
  } else if ((expected === "number" || expected === "int") && typeof value === "string") {
    message += "; write the number without quotes";
  } else if (expected === "array" && isScalar(found.node) && value !== null && found.node) {
    message += `; write it as a list: [${sourceText(source, found.node)}]`;
  }
  return errorAt(source, offsetOf(found.node), message);
}

/** zod issues turned into messages at the YAML node they are about. */
export function issuesToErrors(
  source: YamlSource,
  schema: z.ZodType,
  issues: readonly z.core.$ZodIssue[],
  options: IssueOptions = {},
): PositionedError[] {
  const errors: PositionedError[] = [];
  // "numbr" unknown and "number" missing are one mistake: report the typo only.
  const typoTargets = new Set<string>();
  for (const issue of issues) {
    if (issue.code !== "unrecognized_keys") continue;
    const known = knownKeysAt(schema, issue.path);
    for (const key of issue.keys) {
      const suggestion = suggestName(key, known);
      if (suggestion !== undefined) typoTargets.add(JSON.stringify([...issue.path, suggestion]));
    }
  }
  for (const issue of issues) {
    const path = issue.path;
    if (issue.code === "invalid_type" && typoTargets.has(JSON.stringify(path))) {
      if (nodeAt(source, path).depth < path.length) continue;
    }
    switch (issue.code) {
      case "unrecognized_keys": {
        const known = knownKeysAt(schema, path);
        for (const key of issue.keys) {
          errors.push(
            errorAtPath(
              source,
              [...path, key],
              unknownKeyMessage(path, key, known, options),
              "key",
            ),
          );
        }
        break;
      }
      case "invalid_type":
        errors.push(typeMessage(source, path, issue.expected));
        break;
      case "invalid_value": {
        const choices = issue.values.map((v) => JSON.stringify(v));
        const found = nodeAt(source, path);
        const value: unknown = isScalar(found.node) ? found.node.value : undefined;
        const suggestion =
          typeof value === "string"
            ? suggestName(
                value,
                issue.values.map((v) => String(v)),
              )
            : undefined;
        const tail = suggestion === undefined ? "" : `; did you mean "${suggestion}"?`;
        errors.push(
          errorAtPath(
            source,
            path,
            `${describePath(path)}: must be one of ${choices.join(", ")}, got ${describeNode(source, found.node)}${tail}`,
          ),
        );
        break;
      }
      default:
        errors.push(errorAtPath(source, path, `${describePath(path)}: ${issue.message}`));
    }
  }
  return errors;
}
