import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  answerDigest,
  entryHash,
  type LedgerEntry,
  type UnsealedEntry,
  verifyChain,
} from "../../../src/proof/chain.js";
import { buildProofRecord, signAnchor, verifyProofRecord } from "../../../src/proof/record.js";

const { privateKey } = generateKeyPairSync("ed25519");

function chain(subject: string, outcomes: readonly string[], after: string | null = null) {
  const entries: LedgerEntry[] = [];
  let prev = after;
  outcomes.forEach((outcome, i) => {
    const raw: UnsealedEntry = {
      seq: i + 1,
      subject,
      at: `2026-12-0${i + 1}T10:00:00.000Z`,
      kind: "datajud_check",
      source: "datajud",
      query: "TJSP",
      outcome,
      answerHash: `fp-${i}`,
      detail: JSON.stringify({ run: i + 1 }),
    };
    const hash = entryHash(raw, prev);
    entries.push({ ...raw, prevHash: prev, hash });
    prev = hash;
  });
  return entries;
}

describe("the record of watching's chain", () => {
  it("holds as written, and names the first entry that does not", () => {
    const entries = chain("10000000020268260100", ["baseline", "unchanged", "failed", "unchanged"]);
    expect(verifyChain(entries, null)).toBeNull();

    const edited = entries.map((e) => (e.seq === 3 ? { ...e, outcome: "unchanged" } : e));
    expect(verifyChain(edited, null)).toMatchObject({
      seq: 3,
      why: expect.stringMatching(/changed after/),
    });

    const removed = entries.filter((e) => e.seq !== 2);
    expect(verifyChain(removed, null)).toMatchObject({
      seq: 3,
      why: expect.stringMatching(/removed/),
    });

    // A whole chain re-hashed without the entry would still have to start where the export says.
    expect(verifyChain(entries.slice(1), null)).toMatchObject({ seq: 2 });
  });

  it("hashes fields in a fixed order, so moving text between fields changes the hash", () => {
    const [a] = chain("s", ["ok"]);
    if (a === undefined) throw new Error("no entry");
    const moved = { ...a, source: `${a.source}x`, query: a.query.slice(1) };
    expect(entryHash(moved, null)).not.toBe(a.hash);
  });

  it("digests an answer's items in any order to the same value", () => {
    expect(answerDigest(["b:published", "a:cancelled"])).toBe(
      answerDigest(["a:cancelled", "b:published"]),
    );
    expect(answerDigest([])).not.toBe(answerDigest(["a:published"]));
  });
});

describe("an exported record", () => {
  const base = {
    subject: "10000000020268260100",
    caseNumber: "1000000-00.2026.8.26.0100",
    label: null,
    exportedAt: "2026-12-06T10:00:00.000Z",
    since: null,
    anchor: null,
  };

  it("verifies whole, and fails when an entry, the head or the end is changed", () => {
    const record = buildProofRecord(
      { ...base, entries: chain(base.subject, ["baseline", "unchanged"]) },
      privateKey,
    );
    expect(verifyProofRecord(record)).toMatchObject({ intact: true, entries: 2 });

    const entry = record.entries[1];
    if (entry === undefined) throw new Error("no entry");
    expect(
      verifyProofRecord({
        ...record,
        entries: [record.entries[0] as LedgerEntry, { ...entry, outcome: "changed" }],
      }),
    ).toMatchObject({ intact: false, problem: { seq: 2 } });
    // The last entry dropped: the chain before it holds, the signed head does not.
    expect(verifyProofRecord({ ...record, entries: record.entries.slice(0, 1) })).toMatchObject({
      intact: false,
      problem: { why: expect.stringMatching(/at the end/) },
    });
    expect(verifyProofRecord({ ...record, label: "outro cliente" })).toMatchObject({
      intact: false,
      problem: { why: expect.stringMatching(/signature/) },
    });
  });

  it("starts at a signed anchor after retention, and refuses a forged one", () => {
    const pruned = chain(base.subject, ["baseline", "unchanged", "unchanged"]);
    const last = pruned.at(-1) as LedgerEntry;
    const anchor = signAnchor(
      base.subject,
      {
        hash: last.hash,
        entries: 3,
        firstAt: pruned[0]?.at ?? null,
        lastAt: last.at,
        madeAt: "2026-12-05T03:17:00.000Z",
      },
      privateKey,
    );
    const kept = chain(base.subject, ["changed"], last.hash);
    const record = buildProofRecord({ ...base, anchor, entries: kept }, privateKey);
    expect(record.startsAfter).toBe(last.hash);
    expect(verifyProofRecord(record)).toMatchObject({ intact: true, entries: 1 });
    expect(verifyProofRecord({ ...record, anchor: { ...anchor, entries: 1 } })).toMatchObject({
      intact: false,
      problem: { why: expect.stringMatching(/anchor/) },
    });
  });
});
