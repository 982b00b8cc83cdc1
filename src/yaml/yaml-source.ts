import {
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  type Pair,
  parseDocument,
  visit,
  type Node as YamlNode,
} from "yaml";
import { indentationProblem } from "./indentation.js";
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

const YAML_HINTS: Partial<Record<string, string>> = {
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
  const errors: PositionedError[] = [];
  // An indentation mistake makes yaml report the line up to three times: said once, ours.
  const explained = new Set<number>();
  for (const e of doc.errors) {
    const line = lineAt(source, e.pos[0]);
    if (explained.has(line)) continue;
    const indent = indentationProblem(text, { code: e.code, message: e.message, offset: e.pos[0] });
    if (indent !== null) {
      explained.add(line);
      errors.push(errorAt(source, indent.offset, indent.message));
    } else {
      errors.push(errorAt(source, e.pos[0], `YAML: ${YAML_HINTS[e.code] ?? e.message}`));
    }
  }
  return { source, errors };
}

/**
 * The document as plain values, or an error at its first alias when the aliases expand past
 * `maxAliasCount` nodes (a "billion laughs" file would take gigabytes to expand).
 */
export function plainValue(
  source: YamlSource,
  maxAliasCount = 100,
): { ok: true; value: unknown } | { ok: false; error: PositionedError } {
  try {
    return { ok: true, value: source.doc.toJS({ maxAliasCount }) };
  } catch (error) {
    if (!(error instanceof ReferenceError) || !/alias/i.test(error.message)) throw error;
    let offset = 0;
    visit(source.doc, {
      Alias(_, node) {
        offset = node.range?.[0] ?? 0;
        return visit.BREAK;
      },
    });
    return {
      ok: false,
      error: errorAt(
        source,
        offset,
        `YAML: the aliases (*name) here expand to more than ${maxAliasCount} copies; write the values out instead of repeating aliases`,
      ),
    };
  }
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

export function offsetOf(node: YamlNode | null): number {
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
