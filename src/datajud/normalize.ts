import { createHash } from "node:crypto";
import { formatCnjNumber } from "./cnj-number.js";
import { legacyInstant, parseDataJudDate, rawDate } from "./dates.js";
import type {
  CodeName,
  InstanceFingerprint,
  InstanceRecord,
  Movement,
  MovementComplement,
} from "./instance-record.js";
import {
  KNOWN_SOURCE_FIELDS,
  RawCaseSource,
  RawCodeNameItem,
  RawComplement,
  RawMovement,
} from "./raw-schemas.js";
import { movementHint } from "./tpu-hints.js";

/** Unknown `_source` fields seen, by name, so schema drift can be reported rather than ignored. */
export type DriftCounter = Map<string, number>;

function hash(parts: unknown): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 24);
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
  const name = raw.nome?.trim() ?? "";
  if (code === null && name === "") return null;
  return { code, name };
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
    out.push({
      code: parsed.data.codigo ?? null,
      name: parsed.data.nome ?? null,
      value: parsed.data.valor ?? null,
      description: parsed.data.descricao ?? null,
    });
  }
  return out;
}

/** Movements that cannot be read at all are dropped; the rest of the record is kept. */
export function normalizeMovement(raw: unknown): Movement | null {
  const parsed = RawMovement.safeParse(raw);
  if (!parsed.success) return null;
  const m = parsed.data;
  const code = m.codigo ?? null;
  const name = m.nome?.trim() ?? "";
  const dateTime = parseDataJudDate(m.dataHora);
  if (code === null && name === "" && dateTime === null) return null;
  const unit = m.orgaoJulgador;
  const unitCode = unit?.codigoOrgao ?? unit?.codigo ?? null;
  const unitName = unit?.nomeOrgao ?? unit?.nome ?? null;
  const comps = complements(m.complementosTabelados);
  return {
    // Identity is the content DataJud gave us, so re-reading the same movement never duplicates it.
    id: hash([code, name, legacyInstant(m.dataHora), comps]),
    code,
    name,
    dateTime,
    dateTimeRaw: rawDate(m.dataHora),
    complements: comps,
    courtUnit:
      unitCode === null && unitName === null ? null : { code: unitCode, name: unitName ?? "" },
    hint: movementHint(code),
  };
}

function compareMovements(a: Movement, b: Movement): number {
  const da = a.dateTime ?? "";
  const db = b.dateTime ?? "";
  if (da !== db) return da < db ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function cnjFromRaw(raw: string | null | undefined): string {
  const digits = (raw ?? "").replace(/\D/g, "");
  return digits.length === 20 ? formatCnjNumber(digits) : (raw ?? "").trim();
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
  const movements: Movement[] = [];
  const seen = new Set<string>();
  for (const rawMovement of s.movimentos ?? []) {
    const movement = normalizeMovement(rawMovement);
    if (movement === null || seen.has(movement.id)) continue;
    seen.add(movement.id);
    movements.push(movement);
  }
  movements.sort(compareMovements);
  const unit = s.orgaoJulgador;
  return {
    id: hit._id,
    cnjNumber: cnjFromRaw(s.numeroProcesso),
    instance: s.grau?.trim() || "unknown",
    court,
    courtAcronym: s.tribunal?.trim() || null,
    class: codeName(s.classe),
    subjects: subjects(s.assuntos),
    courtUnit:
      unit && (unit.nome || unit.codigo !== null)
        ? {
            code: unit.codigo ?? null,
            name: unit.nome?.trim() ?? "",
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
  return hash([parts.id, legacyInstant(parts.lastUpdatedAtRaw), legacyInstant(parts.indexedAtRaw)]);
}

export function normalizeFingerprint(hit: RawHitLike, drift?: DriftCounter): InstanceFingerprint {
  countDrift(hit._source, drift);
  const parsed = RawCaseSource.safeParse(hit._source ?? {});
  const s: RawCaseSource = parsed.success ? parsed.data : {};
  const stamps = updateStamps(s);
  return {
    id: hit._id,
    cnjNumber: cnjFromRaw(s.numeroProcesso),
    instance: s.grau?.trim() || "unknown",
    ...stamps,
    fingerprint: fingerprintOf({ id: hit._id, ...stamps }),
  };
}

export function fingerprintOfRecord(record: InstanceRecord): string {
  return fingerprintOf(record);
}

/** One value for all instances of a case: what the monitor compares between sweeps. */
export function caseFingerprint(
  instances: ReadonlyArray<{ id: string; fingerprint: string }>,
): string {
  const sorted = [...instances].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return hash(sorted.map((i) => [i.id, i.fingerprint]));
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
