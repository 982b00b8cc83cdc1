import { createHash } from "node:crypto";
import { foldText } from "../text.js";
import { legacyInstant } from "./dates.js";
import type { Movement, MovementComplement } from "./instance-record.js";

/** 24 hex characters of SHA-256 over the JSON of `parts`. */
export function contentHash(parts: unknown): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 24);
}

function canonicalValue(value: string | number | null): string | null {
  return value === null ? null : foldText(String(value));
}

/** A complement as the identity compares it: without regard to case, accents or spacing. */
export function canonicalComplement(c: MovementComplement): string {
  return JSON.stringify([
    c.code,
    c.name === null ? null : foldText(c.name),
    canonicalValue(c.value),
    c.description === null ? null : foldText(c.description),
  ]);
}

/**
 * What makes two movements the same: the TPU code, the name and the complements compared
 * without regard to case, accents, spacing or the order of the complements, and the wall-clock
 * time parsed from whatever form DataJud used. DataJud re-serving a movement in another shape is
 * not a new movement; two copies in one answer are two movements (their occurrence tells them
 * apart).
 */
export function movementIdentity(m: {
  code: number | null;
  name: string;
  dateTime: string | null;
  complements: readonly MovementComplement[];
}): string {
  const complements = m.complements.map(canonicalComplement).sort();
  return contentHash(["movement", m.code, foldText(m.name), m.dateTime, complements]);
}

/** The id of the `occurrence`-th copy of a movement in an instance. */
export function movementId(identity: string, occurrence: number): string {
  return `${identity}:${occurrence}`;
}

/**
 * The ids schema 1 and 2 stored for this movement: a hash of code, name, complements exactly as
 * sent, and the date read as a UTC instant. Several, because those versions did not read a code
 * and name nested under `movimentoNacional` (they stored an empty name and no code). Used once per
 * stored movement, on the first read after the upgrade, to recognise what is already known.
 */
export function legacyMovementIds(m: Movement): string[] {
  const name = m.nameRaw ?? m.name;
  const when = legacyInstant(m.dateTimeRaw);
  const complements = m.complements.map((c) => ({
    code: c.code,
    name: c.nameRaw ?? c.name,
    value: c.valueRaw ?? c.value,
    description: c.descriptionRaw ?? c.description,
  }));
  const variants: Array<[number | null, string]> = [
    [m.code, name],
    [null, ""],
    [null, name],
  ];
  return [...new Set(variants.map(([code, text]) => contentHash([code, text, when, complements])))];
}
