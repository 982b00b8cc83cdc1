import { z } from "zod";
import {
  InstanceFingerprint,
  InstanceRecord,
  Movement,
  Provenance,
} from "../datajud/instance-record.js";

/**
 * A movement as the DataJud tools give it: DataJud's fields as normalized, and beside them (never
 * instead of them) the reading a lawyer expects, in the words of the case's own class.
 */
export const ToolMovement = Movement.extend({
  /** The name a lawyer reads: "Intimação eletrônica confirmada" where DataJud says "Confirmada". */
  title: z.string(),
  /** Each complement as "descriptor: name" ("situação da audiência: designada"), in order. */
  complementTexts: z.array(z.string()),
  /**
   * What the movement records in plain Portuguese, criminal classes in criminal words (219 in an
   * ação penal is a conviction); null for codes without a hint.
   */
  meaning: z.string().nullable(),
});
export type ToolMovement = z.infer<typeof ToolMovement>;

/** A record without its movement list: what get_case and search_cases show (list_movements pages them). */
export const RecordOverview = InstanceRecord.omit({ movements: true }).extend({
  latestMovement: ToolMovement.nullable(),
});
export type RecordOverview = z.infer<typeof RecordOverview>;

export const GetCaseOutput = z.strictObject({
  court: z.string(),
  cnjNumber: z.string(),
  found: z.boolean(),
  records: z.array(RecordOverview),
  provenance: Provenance,
});
export type GetCaseOutput = z.infer<typeof GetCaseOutput>;

export const ListMovementsOutput = z.strictObject({
  court: z.string(),
  cnjNumber: z.string(),
  found: z.boolean(),
  instances: z.array(
    z.strictObject({
      instance: z.string(),
      recordId: z.string(),
      totalMovements: z.number().int(),
      /** After `since`: what offset/nextOffset count in. */
      matchingMovements: z.number().int(),
      latestMovementAt: z.string().nullable(),
      offset: z.number().int(),
      /** The offset of the next page of this instance; null when this page reached its end. */
      nextOffset: z.number().int().nullable(),
      movements: z.array(ToolMovement),
    }),
  ),
  provenance: Provenance,
});
export type ListMovementsOutput = z.infer<typeof ListMovementsOutput>;

export const SearchCasesOutput = z.strictObject({
  court: z.string(),
  total: z.number().int(),
  results: z.array(RecordOverview),
  nextCursor: z.string().nullable(),
  provenance: Provenance,
});
export type SearchCasesOutput = z.infer<typeof SearchCasesOutput>;

export const ListCourtsOutput = z.strictObject({
  courts: z.array(z.strictObject({ alias: z.string(), name: z.string(), segment: z.string() })),
});
export type ListCourtsOutput = z.infer<typeof ListCourtsOutput>;

export const FingerprintCasesOutput = z.strictObject({
  cases: z.array(
    z.strictObject({
      cnjNumber: z.string(),
      court: z.string(),
      found: z.boolean(),
      fingerprint: z.string().nullable(),
      instances: z.array(InstanceFingerprint),
      provenance: Provenance,
    }),
  ),
});
export type FingerprintCasesOutput = z.infer<typeof FingerprintCasesOutput>;

export const ReadCasesOutput = z.strictObject({
  cases: z.array(
    z.strictObject({
      cnjNumber: z.string(),
      court: z.string(),
      found: z.boolean(),
      records: z.array(InstanceRecord),
      provenance: Provenance,
      /** This case alone could not be read (its record passed the size limit): a failure, not "not found". */
      error: z.strictObject({ kind: z.string(), message: z.string() }).nullable(),
    }),
  ),
});
export type ReadCasesOutput = z.infer<typeof ReadCasesOutput>;

/**
 * What a failed tool call carries in its text content: what went wrong, whether the same call may
 * work later (`retryable`), and what to do next (`hint`).
 */
export const ToolErrorPayload = z.strictObject({
  error: z.strictObject({
    kind: z.string(),
    message: z.string(),
    retryable: z.boolean(),
    hint: z.string(),
  }),
});
export type ToolErrorPayload = z.infer<typeof ToolErrorPayload>;
