import { formatCnjNumber } from "./cnj-number.js";
import { cutText } from "./cut-text.js";
import { legacyInstant, parseDataJudDate, rawDate as sentDate } from "./dates.js";
import type {
  CodeName,
  InstanceFingerprint,
  InstanceRecord,
  Movement,
  MovementComplement,
} from "./instance-record.js";
import { contentHash, movementId, movementIdentity } from "./movement-identity.js";
import {
  KNOWN_SOURCE_FIELDS,
  RawCaseSource,
  RawCodeNameItem,
  RawComplement,
  RawMovement,
} from "./raw-schemas.js";
import { repairMojibake } from "./text.js";
import { movementHint } from "./tpu-hints.js";

/** Unknown `_source` fields seen, by name, so schema drift can be reported rather than ignored. */
export type DriftCounter = Map<string, number>;

const hash = contentHash;

/**
 * A text from DataJud, cut to a sane length (cut-text.ts), then repaired when it is unambiguously
 * double-encoded, with what was sent.
 */
function repaired(text: string): { text: string; raw: string | undefined } {
  const sent = cutText(text);
  const fixed = repairMojibake(sent);
  return { text: fixed, raw: fixed === sent ? undefined : sent };
}

/** A date as DataJud wrote it, kept for display; a string no date needs is cut like any text. */
function rawDate(raw: unknown): string | number | null {
  const value = sentDate(raw);
  return typeof value === "string" ? cutText(value, 100) : value;
}

/** A short label DataJud sends (instance, court acronym), cut like any text. */
function short(text: string | null | undefined): string {
  return cutText(text?.trim() ?? "", 100);
}

/** `{ [key]: raw }` when the text was repaired, `{}` otherwise: raw values only where they differ. */
function rawOf<K extends string>(key: K, raw: string | undefined): Partial<Record<K, string>> {
  return raw === undefined ? {} : ({ [key]: raw } as Partial<Record<K, string>>);
}

function countDrift(source: unknown, drift: DriftCounter | undefined): void {
  if (drift === undefined || source === null || typeof source !== "object") return;
  for (const key of Object.keys(source)) {
    if (!KNOWN_SOURCE_FIELDS.has(key)) drift.set(key, (drift.get(key) ?? 0) + 1);
  }
}

function codeName(
  raw: { codigo?: number | null | undefined; nome?: string | null | undefined } | null | undefined,
): CodeName | null {
  if (raw === null || raw === undefined) return null;
  const code = raw.codigo ?? null;
  const name = repaired(raw.nome?.trim() ?? "");
  if (code === null && name.text === "") return null;
  return { code, name: name.text, ...rawOf("nameRaw", name.raw) };
}

function flatten(items: readonly unknown[]): unknown[] {
  return items.flatMap((item) => (Array.isArray(item) ? flatten(item) : [item]));
}

function subjects(raw: readonly unknown[] | null | undefined): CodeName[] {
  if (!raw) return [];
  const out: CodeName[] = [];
  for (const item of flatten(raw)) {
    const parsed = RawCodeNameItem.safeParse(item);
    if (!parsed.success) continue;
    const value = codeName(parsed.data);
    if (value) out.push(value);
  }
  return out;
}

function complements(raw: readonly unknown[] | null | undefined): MovementComplement[] {
  if (!raw) return [];
  const out: MovementComplement[] = [];
  for (const item of flatten(raw)) {
    const parsed = RawComplement.safeParse(item);
    if (!parsed.success) continue;
    // Texts exactly as sent (only repaired): the schema-2 ids hash them that way.
    const name = parsed.data.nome == null ? null : repaired(parsed.data.nome);
    const valor = parsed.data.valor ?? null;
    const value = typeof valor === "string" ? repaired(valor) : null;
    const description = parsed.data.descricao == null ? null : repaired(parsed.data.descricao);
    out.push({
      code: parsed.data.codigo ?? null,
      name: name?.text ?? null,
      value: value?.text ?? valor,
      description: description?.text ?? null,
      ...rawOf("nameRaw", name?.raw),
      ...rawOf("valueRaw", value?.raw),
      ...rawOf("descriptionRaw", description?.raw),
    });
  }
  return out;
}

/** Code and name flat (`codigo`, `nome`) or nested under `movimentoNacional` / `movimentoLocal`. */
function codeAndName(m: RawMovement): { code: number | null; name: string } {
  const national = m.movimentoNacional;
  const local = m.movimentoLocal;
  const code =
    m.codigo ??
    national?.codigoNacional ??
    national?.codigo ??
    local?.codigoPaiNacional ??
    local?.codigoMovimento ??
    null;
  const name = [m.nome, national?.descricao, national?.nome, local?.descricao, local?.nome]
    .map((text) => text?.trim() ?? "")
    .find((text) => text !== "");
  return { code, name: name ?? "" };
}

/**
 * One movement; null when it cannot be read at all (the rest of the record is kept). Its
 * occurrence is 1: normalizeInstanceRecord numbers the copies of a record.
 */
export function normalizeMovement(raw: unknown): Movement | null {
  const parsed = RawMovement.safeParse(raw);
  if (!parsed.success) return null;
  const m = parsed.data;
  const { code, name: sentName } = codeAndName(m);
  const name = repaired(sentName);
  const dateTime = parseDataJudDate(m.dataHora);
  if (code === null && name.text === "" && dateTime === null) return null;
  const unit = m.orgaoJulgador;
  const unitCode = unit?.codigoOrgao ?? unit?.codigo ?? null;
  const unitName = repaired(unit?.nomeOrgao ?? unit?.nome ?? "");
  const comps = complements(m.complementosTabelados);
  const identity = movementIdentity({ code, name: name.text, dateTime, complements: comps });
  return {
    id: movementId(identity, 1),
    identity,
    occurrence: 1,
    code,
    name: name.text,
    ...rawOf("nameRaw", name.raw),
    dateTime,
    dateTimeRaw: rawDate(m.dataHora),
    complements: comps,
    courtUnit:
      unitCode === null && unitName.text === ""
        ? null
        : { code: unitCode, name: unitName.text, ...rawOf("nameRaw", unitName.raw) },
    hint: movementHint(code),
  };
}

/** Every movement DataJud lists, each copy of a repeated one numbered in the order sent. */
function numberedMovements(raw: readonly unknown[]): Movement[] {
  const copies = new Map<string, number>();
  const out: Movement[] = [];
  for (const item of raw) {
    const movement = normalizeMovement(item);
    if (movement === null) continue;
    const occurrence = (copies.get(movement.identity) ?? 0) + 1;
    copies.set(movement.identity, occurrence);
    out.push({ ...movement, occurrence, id: movementId(movement.identity, occurrence) });
  }
  return out;
}

function compareMovements(a: Movement, b: Movement): number {
  const da = a.dateTime ?? "";
  const db = b.dateTime ?? "";
  if (da !== db) return da < db ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function cnjFromRaw(raw: string | null | undefined): string {
  const digits = (raw ?? "").replace(/\D/g, "");
  return digits.length === 20 ? formatCnjNumber(digits) : short(raw);
}

export interface RawHitLike {
  _id: string;
  _source: unknown;
}

/** One DataJud hit (one instance record) into our strict shape. */
export function normalizeInstanceRecord(
  hit: RawHitLike,
  court: string,
  drift?: DriftCounter,
): InstanceRecord {
  countDrift(hit._source, drift);
  const parsed = RawCaseSource.safeParse(hit._source ?? {});
  const s: RawCaseSource = parsed.success ? parsed.data : {};
  const movements = numberedMovements(s.movimentos ?? []).sort(compareMovements);
  const unit = s.orgaoJulgador;
  const unitName = repaired(unit?.nome?.trim() ?? "");
  return {
    id: hit._id,
    cnjNumber: cnjFromRaw(s.numeroProcesso),
    instance: short(s.grau) || "unknown",
    court,
    courtAcronym: short(s.tribunal) || null,
    class: codeName(s.classe),
    subjects: subjects(s.assuntos),
    courtUnit:
      unit && (unit.nome || unit.codigo !== null)
        ? {
            code: unit.codigo ?? null,
            name: unitName.text,
            ...rawOf("nameRaw", unitName.raw),
            municipalityCode: unit.codigoMunicipioIBGE ?? null,
          }
        : null,
    system: codeName(s.sistema),
    format: codeName(s.formato),
    secrecyLevel: s.nivelSigilo ?? null,
    filedAt: parseDataJudDate(s.dataAjuizamento),
    filedAtRaw: rawDate(s.dataAjuizamento),
    ...updateStamps(s),
    movementCount: movements.length,
    latestMovement: movements.at(-1) ?? null,
    movements,
  };
}

/** DataJud's two update times: when the court last pushed the record, and when it was indexed. */
function updateStamps(s: RawCaseSource): {
  lastUpdatedAt: string | null;
  lastUpdatedAtRaw: string | number | null;
  indexedAt: string | null;
  indexedAtRaw: string | number | null;
} {
  return {
    lastUpdatedAt: parseDataJudDate(s.dataHoraUltimaAtualizacao),
    lastUpdatedAtRaw: rawDate(s.dataHoraUltimaAtualizacao),
    indexedAt: parseDataJudDate(s["@timestamp"]),
    indexedAtRaw: rawDate(s["@timestamp"]),
  };
}

/**
 * The same fields whichever query read them, so a fingerprint from a batch equals one from a full
 * read. The update times are hashed as the instants schema 1 and 2 read them, so a database
 * upgraded from those versions keeps its fingerprints.
 */
export function fingerprintOf(parts: {
  id: string;
  lastUpdatedAtRaw: string | number | null;
  indexedAtRaw: string | number | null;
}): string {
  if (parts.lastUpdatedAtRaw === null && parts.indexedAtRaw === null) {
    return `${UNSTAMPED}${hash([parts.id])}`;
  }
  return hash([parts.id, legacyInstant(parts.lastUpdatedAtRaw), legacyInstant(parts.indexedAtRaw)]);
}

/**
 * The mark of a record DataJud sent without `dataHoraUltimaAtualizacao` and `@timestamp` (the
 * STJ's partial answers): its update times cannot tell that it moved, so only its content can,
 * and the sweep reads it in full each time (monitor/detect/judge.ts).
 */
export const UNSTAMPED = "unstamped:";

/** Whether a record's (or a case's) fingerprint says it has no update times to go by. */
export function isUnstamped(fingerprint: string | null): boolean {
  return fingerprint?.startsWith(UNSTAMPED) === true;
}

export function normalizeFingerprint(hit: RawHitLike, drift?: DriftCounter): InstanceFingerprint {
  countDrift(hit._source, drift);
  const parsed = RawCaseSource.safeParse(hit._source ?? {});
  const s: RawCaseSource = parsed.success ? parsed.data : {};
  const stamps = updateStamps(s);
  return {
    id: hit._id,
    cnjNumber: cnjFromRaw(s.numeroProcesso),
    instance: short(s.grau) || "unknown",
    ...stamps,
    fingerprint: fingerprintOf({ id: hit._id, ...stamps }),
  };
}

/**
 * A full record's fingerprint: its update times, as a fingerprint query reads them; a record
 * without them, its content (movements, class, parties' data), so what changed shows.
 */
export function fingerprintOfRecord(record: InstanceRecord): string {
  const stamped = fingerprintOf(record);
  return isUnstamped(stamped) ? `${UNSTAMPED}${hash(recordContent(record))}` : stamped;
}

/**
 * One value for all instances of a case: what the monitor compares between sweeps. A case with a
 * record without update times keeps the mark: its fingerprint cannot say it did not move.
 */
export function caseFingerprint(
  instances: ReadonlyArray<{ id: string; fingerprint: string }>,
): string {
  const sorted = [...instances].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const value = hash(sorted.map((i) => [i.id, i.fingerprint]));
  return sorted.some((i) => isUnstamped(i.fingerprint)) ? `${UNSTAMPED}${value}` : value;
}

/** Movement data without the per-read fields, for "did the content really change" comparisons. */
export function recordContent(record: InstanceRecord): unknown {
  const {
    indexedAt: _indexedAt,
    indexedAtRaw: _indexedAtRaw,
    lastUpdatedAt: _lastUpdatedAt,
    lastUpdatedAtRaw: _lastUpdatedAtRaw,
    ...content
  } = record;
  return content;
}
