import { MonitorError } from "../../errors.js";
/*
 * The subset of Elasticsearch 7 that DataJud's `_search` is, kept in memory: the documents and
 * their indices, ES's errors, and how a dotted path reads a document (see ../recorded-datajud.ts).
 */

/** One hit as DataJud stores it: `_id` and the raw `_source`. */
export interface RecordedDocument {
  _id: string;
  _source: Record<string, unknown>;
}

/** ES's `index.max_result_window` default: `from + size` beyond it is refused. */
export const MAX_RESULT_WINDOW = 10_000;

/** A query ES would refuse with a 400; `kind` is ES's error type (parsing_exception, ...). */
export class QueryError extends MonitorError {}

/** A document and its insertion order (the `_doc` sort). */
export interface StoredDocument {
  seq: number;
  doc: RecordedDocument;
}

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export function asList(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/** An ES 7 error body. */
export function esError(status: number, type: string, reason: string, extra: Json = {}): Json {
  const cause = { type, reason, ...extra };
  return { error: { root_cause: [cause], ...cause }, status };
}

/** Every value at a dotted path, through objects and (nested) arrays, like ES flattens them. */
export function valuesAt(source: unknown, path: string): unknown[] {
  const out: unknown[] = [];
  const walk = (value: unknown, segments: readonly string[]): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item, segments);
      return;
    }
    if (segments.length === 0) {
      if (value !== undefined && value !== null) out.push(value);
      return;
    }
    if (!isObject(value)) return;
    // A key may itself contain dots ({"a.b": 1}); ES treats it like {"a": {"b": 1}}.
    for (let take = segments.length; take >= 1; take--) {
      const key = segments.slice(0, take).join(".");
      if (Object.hasOwn(value, key)) walk(value[key], segments.slice(take));
    }
  };
  walk(source, path.split("."));
  if (out.length === 0 && path.endsWith(".keyword")) return valuesAt(source, path.slice(0, -8));
  return out;
}

/** Court alias -> the documents of its index (`api_publica_<alias>`). */
export interface RecordedState {
  indices: Record<string, RecordedDocument[]>;
}

/** The indices, each keeping its documents in insertion order (ES's `_doc` order). */
export class DocumentIndices {
  readonly #indices = new Map<string, Map<string, StoredDocument>>();
  #seq = 0;

  /** Replaces that index (creating it). */
  setDocuments(alias: string, docs: readonly RecordedDocument[]): void {
    const index = new Map<string, StoredDocument>();
    for (const doc of docs) index.set(doc._id, { seq: this.#seq++, doc: structuredClone(doc) });
    this.#indices.set(alias, index);
  }

  /** A document with a known `_id` keeps its place, like an ES update. */
  upsert(alias: string, doc: RecordedDocument): void {
    const index = this.#indices.get(alias) ?? new Map<string, StoredDocument>();
    const existing = index.get(doc._id);
    index.set(doc._id, { seq: existing?.seq ?? this.#seq++, doc: structuredClone(doc) });
    this.#indices.set(alias, index);
  }

  remove(alias: string, id: string): void {
    this.#indices.get(alias)?.delete(id);
  }

  /** Every index becomes the one in `state`; indices it does not name are dropped. */
  load(state: RecordedState): void {
    const previous = new Map(this.#indices);
    this.#indices.clear();
    for (const [alias, docs] of Object.entries(state.indices)) {
      // Documents DataJud already had keep their order, as an ES re-index of the same ids would.
      const index = new Map<string, StoredDocument>();
      for (const doc of docs) {
        const seq = previous.get(alias)?.get(doc._id)?.seq ?? this.#seq++;
        index.set(doc._id, { seq, doc: structuredClone(doc) });
      }
      this.#indices.set(alias, index);
    }
  }

  /** undefined: no such index (ES answers 404). */
  documents(alias: string): StoredDocument[] | undefined {
    const index = this.#indices.get(alias);
    return index ? [...index.values()] : undefined;
  }
}
