import { z } from "zod";
import { type Publication, type StoredPublication, sentOnOf } from "../../djen/publication.js";
import { publicationText } from "../../djen/publication-text.js";
import { answerDigest } from "../../proof/chain.js";
import { type Db, immediate } from "../../store/database.js";
import {
  type DjenSourceKind,
  getDjenSource,
  recordDjenSourceFailure,
  recordDjenSourceOk,
} from "../../store/djen-sources.js";
import {
  getPublication,
  insertPublication,
  markPublicationCancelled,
  notePublicationFound,
} from "../../store/publications.js";
import type { PublicationSource } from "./djen-gateway.js";

/*
 * What one DJEN source's answer writes, in one transaction: every publication not stored yet
 * (with its sanitized text and the raw item), a cancellation of one stored as published, and the
 * source's check. Committed before anything is mailed about it; a dry run writes nothing.
 */

/** Whether a stored publication was published (not cancelled) when first seen. */
const StoredActive = z.looseObject({ active: z.boolean().optional() });

/** What a sanitized text keeps: the whole plain text, however long the court made it. */
const STORED_TEXT_MAX = 1_000_000;

export interface SourceOutcome {
  kind: DjenSourceKind;
  key: string;
  ok: boolean;
  /** Its first complete answer: what it brought is recorded without mail. */
  baseline: boolean;
  /** Publications stored for the first time from this answer. */
  stored: Publication[];
  /** Stored publications this answer showed cancelled for the first time. */
  cancelled: Publication[];
  error: { kind: string; message: string } | null;
  /** A party's name (the radar): what its answer came to (record-party-hits.ts). */
  radar?: RadarCounts;
}

/** What the radar made of one party name's answer. */
export interface RadarCounts {
  /** Hits stored for the first time. */
  hits: number;
  /** Items that named no party asked under that name, or lay outside its courts or states. */
  dropped: number;
  /** Items in watched cases (theirs), cancelled, or without a case number (no lawsuit named). */
  skipped: number;
}

export interface RecordContext {
  db: Db;
  /** The sweep's run; null between sweeps (the daemon asking DJEN as sources come due). */
  runId: number | null;
  write: boolean;
  nowIso: string;
}

/** The normalized publication as stored: without its text and raw item, kept in their columns. */
function stored(publication: Publication): StoredPublication {
  const { text: _text, raw: _raw, ...rest } = publication;
  return rest;
}

export function recordSource(ctx: RecordContext, source: PublicationSource): SourceOutcome {
  const prior = getDjenSource(ctx.db, source.kind, source.key);
  // A source that never answered whole is at its baseline, even when this answer is partial.
  const pastBaseline = prior?.firstOkAt != null;
  const outcome: SourceOutcome = {
    kind: source.kind,
    key: source.key,
    ok: source.complete,
    baseline: source.complete && !pastBaseline,
    stored: [],
    cancelled: [],
    error:
      source.error === null ? null : { kind: source.error.kind, message: source.error.message },
  };
  const finder = `${source.kind}:${source.key}`;
  const write = (): void => {
    for (const publication of source.publications) {
      const known = getPublication(ctx.db, publication.id);
      if (known === undefined) {
        outcome.stored.push(publication);
        if (!ctx.write) continue;
        insertPublication(ctx.db, {
          djenId: publication.id,
          caseNumber: publication.caseNumber,
          court: publication.court,
          availableOn: publication.availableOn,
          sentOn: sentOnOf(publication.raw),
          kind: publication.kind,
          documentType: publication.documentType,
          courtUnit: publication.courtUnit,
          publication: stored(publication),
          text: publicationText(publication.text, { maxChars: STORED_TEXT_MAX }).text,
          raw: publication.raw,
          foundBy: finder,
          firstSeenAt: ctx.nowIso,
          runId: ctx.runId,
          baseline: !pastBaseline,
        });
        continue;
      }
      const wasPublished = StoredActive.safeParse(known.publication).data?.active !== false;
      if (!publication.active && wasPublished && known.cancelledAt === null) {
        outcome.cancelled.push(publication);
      }
      if (!ctx.write) continue;
      notePublicationFound(ctx.db, publication.id, finder, { runId: ctx.runId, pastBaseline });
      if (!publication.active && wasPublished) {
        markPublicationCancelled(ctx.db, publication.id, {
          at: ctx.nowIso,
          details: publication.cancellation ?? { reason: null, at: null },
        });
      }
    }
    if (!ctx.write) return;
    // What the answer held, for the record of watching: each item and whether it was published.
    const answered = answerDigest(
      source.publications.map((p) => `${p.id}:${p.active ? "published" : "cancelled"}`),
    );
    if (source.complete) {
      recordDjenSourceOk(ctx.db, source.kind, source.key, ctx.nowIso, answered);
    } else {
      recordDjenSourceFailure(
        ctx.db,
        source.kind,
        source.key,
        ctx.nowIso,
        source.error ?? { kind: "incomplete", message: "DJEN's answer was not read whole" },
        source.publications.length === 0 ? null : answered,
      );
    }
  };
  if (ctx.write) immediate(ctx.db, write);
  else write();
  return outcome;
}
