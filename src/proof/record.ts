import type { KeyObject } from "node:crypto";
import { z } from "zod";
import { type ChainBreak, type LedgerEntry, verifyChain } from "./chain.js";
import { keyFingerprint, publicKeyText, signFields, verifyFields } from "./signature.js";

/*
 * The exported record of one subject (`datajud-monitor proof CNJ`): its entries in order, where
 * the chain starts, and a signed head. `proof verify` reads it back with nothing but this file:
 * every hash recomputed, every link followed, the anchor and the head checked against the key
 * the file names.
 */

export const PROOF_FORMAT = "datajud-monitor-proof/1";

const Hash = z.string().regex(/^[0-9a-f]{64}$/u, "a SHA-256 in hex");

export const LedgerEntrySchema = z.strictObject({
  seq: z.number().int().positive(),
  subject: z.string().min(1),
  at: z.string().min(1),
  kind: z.string().min(1),
  source: z.string().min(1),
  query: z.string(),
  outcome: z.string().min(1),
  answerHash: z.string().nullable(),
  detail: z.string(),
  prevHash: Hash.nullable(),
  hash: Hash,
});

/** Where retention pruned a subject's oldest entries: the last pruned hash, signed when pruned. */
export const AnchorSchema = z.strictObject({
  hash: Hash,
  entries: z.number().int().nonnegative(),
  firstAt: z.string().nullable(),
  lastAt: z.string(),
  madeAt: z.string(),
  publicKey: z.string().min(1),
  signature: z.string().min(1),
});
export type Anchor = z.infer<typeof AnchorSchema>;

export const ProofRecordSchema = z.strictObject({
  format: z.literal(PROOF_FORMAT),
  subject: z.string().min(1),
  caseNumber: z.string().nullable(),
  label: z.string().nullable(),
  exportedAt: z.string(),
  since: z.string().nullable(),
  /** The hash the first entry points at: null from the first entry ever, else an anchor's or an earlier entry's. */
  startsAfter: Hash.nullable(),
  anchor: AnchorSchema.nullable(),
  entries: z.array(LedgerEntrySchema),
  head: z.strictObject({
    hash: Hash.nullable(),
    entries: z.number().int().nonnegative(),
    publicKey: z.string().min(1),
    signature: z.string().min(1),
  }),
});
export type ProofRecord = z.infer<typeof ProofRecordSchema>;

export function anchorFields(subject: string, anchor: Omit<Anchor, "publicKey" | "signature">) {
  return [
    "anchor",
    subject,
    anchor.hash,
    anchor.entries,
    anchor.firstAt,
    anchor.lastAt,
    anchor.madeAt,
  ] as const;
}

function headFields(record: Omit<ProofRecord, "head">, hash: string | null, entries: number) {
  return [
    PROOF_FORMAT,
    record.subject,
    record.caseNumber,
    record.label,
    record.exportedAt,
    record.since,
    record.startsAfter,
    hash,
    entries,
  ] as const;
}

export function signAnchor(
  subject: string,
  anchor: Omit<Anchor, "publicKey" | "signature">,
  key: KeyObject,
): Anchor {
  return {
    ...anchor,
    publicKey: publicKeyText(key),
    signature: signFields(key, anchorFields(subject, anchor)),
  };
}

export interface RecordInput {
  subject: string;
  caseNumber: string | null;
  label: string | null;
  exportedAt: string;
  since: string | null;
  anchor: Anchor | null;
  /** The subject's entries from `since` on (or all kept), oldest first. */
  entries: readonly LedgerEntry[];
}

export function buildProofRecord(input: RecordInput, key: KeyObject): ProofRecord {
  const first = input.entries[0];
  const startsAfter =
    first !== undefined
      ? first.prevHash
      : input.since === null
        ? (input.anchor?.hash ?? null)
        : null;
  const body: Omit<ProofRecord, "head"> = {
    format: PROOF_FORMAT,
    subject: input.subject,
    caseNumber: input.caseNumber,
    label: input.label,
    exportedAt: input.exportedAt,
    since: input.since,
    startsAfter,
    anchor: input.anchor,
    entries: [...input.entries],
  };
  const last = input.entries.at(-1);
  const headHash = last?.hash ?? startsAfter;
  return {
    ...body,
    head: {
      hash: headHash,
      entries: input.entries.length,
      publicKey: publicKeyText(key),
      signature: signFields(key, headFields(body, headHash, input.entries.length)),
    },
  };
}

export type Verdict =
  | { intact: true; entries: number; firstAt: string | null; lastAt: string | null; key: string }
  | { intact: false; problem: ChainBreak | { seq: null; at: null; why: string }; key: string };

/** What `proof verify` decides of a parsed record. */
export function verifyProofRecord(record: ProofRecord): Verdict {
  const key = keyFingerprint(record.head.publicKey);
  const fail = (why: string): Verdict => ({
    intact: false,
    problem: { seq: null, at: null, why },
    key,
  });
  if (record.anchor !== null) {
    if (
      !verifyFields(
        record.anchor.publicKey,
        anchorFields(record.subject, record.anchor),
        record.anchor.signature,
      )
    ) {
      return fail("the anchor of the pruned entries is not signed by the key it names");
    }
  }
  if (record.since === null && record.startsAfter !== (record.anchor?.hash ?? null)) {
    return fail(
      record.anchor === null
        ? "the record says it is whole but its first entry points at an earlier one"
        : "the first entry does not follow the anchor of the pruned entries",
    );
  }
  const broken = verifyChain(record.entries, record.startsAfter);
  if (broken !== null) return { intact: false, problem: broken, key };
  const last = record.entries.at(-1);
  const headHash = last?.hash ?? record.startsAfter;
  if (record.head.hash !== headHash || record.head.entries !== record.entries.length) {
    return fail("the head does not name the last entry: entries were added or removed at the end");
  }
  const { head: _head, ...body } = record;
  if (
    !verifyFields(
      record.head.publicKey,
      headFields(body, headHash, record.entries.length),
      record.head.signature,
    )
  ) {
    return fail("the head's signature does not match: the file was changed after it was exported");
  }
  return {
    intact: true,
    entries: record.entries.length,
    firstAt: record.entries[0]?.at ?? null,
    lastAt: last?.at ?? null,
    key,
  };
}
