import { z } from "zod";

/**
 * The strict, English-named shape every DataJud record is normalized into. Raw hits are parsed
 * leniently (raw-schemas.ts); what leaves this module is always exactly this.
 */

/** What DataJud sent for a text we repaired (double-encoded UTF-8); absent when sent intact. */
const RawText = z.string().optional();

export const CodeName = z.strictObject({
  code: z.number().int().nullable(),
  name: z.string(),
  nameRaw: RawText,
});
export type CodeName = z.infer<typeof CodeName>;

/** A date exactly as DataJud sent it, kept beside our wall-clock reading of it. */
export const RawDate = z.union([z.string(), z.number()]).nullable();
export type RawDate = z.infer<typeof RawDate>;

export const MovementHint = z.strictObject({
  pt: z.string(),
  en: z.string(),
});
export type MovementHint = z.infer<typeof MovementHint>;

export const MovementComplement = z.strictObject({
  code: z.number().int().nullable(),
  name: z.string().nullable(),
  value: z.union([z.string(), z.number()]).nullable(),
  description: z.string().nullable(),
  nameRaw: RawText,
  valueRaw: RawText,
  descriptionRaw: RawText,
});
export type MovementComplement = z.infer<typeof MovementComplement>;

export const Movement = z.strictObject({
  /** `identity:occurrence`: unique within an instance, the same whenever DataJud re-serves it. */
  id: z.string(),
  /**
   * Hash of the movement's canonical form (code, name and complements without regard to case,
   * accents, spacing or complement order, and its wall-clock time). Copies share it.
   */
  identity: z.string(),
  /**
   * 1 for the first copy of an identity in the instance, 2 for the second...: DataJud lists the
   * same movement more than once (one deadline expiry per party) and counts every copy.
   */
  occurrence: z.number().int().positive(),
  code: z.number().int().nullable(),
  name: z.string(),
  nameRaw: RawText,
  /**
   * The court's wall clock as DataJud recorded it (`2025-11-04T00:15:00`, or `2025-11-04` for a
   * day), never shifted; null when DataJud gave no usable date. See dates.ts.
   */
  dateTime: z.string().nullable(),
  /** What DataJud sent for `dataHora`, as sent. */
  dateTimeRaw: RawDate,
  complements: z.array(MovementComplement),
  courtUnit: CodeName.nullable(),
  hint: MovementHint.nullable(),
});
export type Movement = z.infer<typeof Movement>;

export const Provenance = z.strictObject({
  /** The Elasticsearch index that answered, e.g. `api_publica_tjdft`. */
  index: z.string(),
  url: z.string(),
  fetchedAt: z.string(),
});
export type Provenance = z.infer<typeof Provenance>;

/** One instance (grau) of a case as DataJud keeps it: a case has one record per instance. */
export const InstanceRecord = z.strictObject({
  /** DataJud's own document id (`_id`), distinct per instance. */
  id: z.string(),
  cnjNumber: z.string(),
  /** DataJud's `grau`: G1, G2, JE, TR, SUP, ... */
  instance: z.string(),
  court: z.string(),
  /** DataJud's `tribunal` field, e.g. "TJDFT". */
  courtAcronym: z.string().nullable(),
  class: CodeName.nullable(),
  subjects: z.array(CodeName),
  courtUnit: z
    .strictObject({
      code: z.number().int().nullable(),
      name: z.string(),
      nameRaw: RawText,
      municipalityCode: z.number().int().nullable(),
    })
    .nullable(),
  system: CodeName.nullable(),
  format: CodeName.nullable(),
  secrecyLevel: z.number().int().nullable(),
  /** DataJud's `dataAjuizamento` as a wall clock (dates.ts), and as sent. */
  filedAt: z.string().nullable(),
  filedAtRaw: RawDate,
  /** DataJud's `dataHoraUltimaAtualizacao`: when the court last pushed this record. */
  lastUpdatedAt: z.string().nullable(),
  lastUpdatedAtRaw: RawDate,
  /** DataJud's `@timestamp`: when the record was indexed. */
  indexedAt: z.string().nullable(),
  indexedAtRaw: RawDate,
  /** Every movement DataJud lists, repeated copies included: DataJud's own count. */
  movementCount: z.number().int().nonnegative(),
  latestMovement: Movement.nullable(),
  /** Oldest first. */
  movements: z.array(Movement),
});
export type InstanceRecord = z.infer<typeof InstanceRecord>;

/** What a fingerprint query returns for one instance record: just enough to notice a move. */
export const InstanceFingerprint = z.strictObject({
  id: z.string(),
  cnjNumber: z.string(),
  instance: z.string(),
  lastUpdatedAt: z.string().nullable(),
  lastUpdatedAtRaw: RawDate,
  indexedAt: z.string().nullable(),
  indexedAtRaw: RawDate,
  /** Hash of the fields above; equal hashes mean "DataJud did not touch this record". */
  fingerprint: z.string(),
});
export type InstanceFingerprint = z.infer<typeof InstanceFingerprint>;
