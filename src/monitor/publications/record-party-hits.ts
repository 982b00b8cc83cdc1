import type { Publication, StoredPublication } from "../../djen/publication.js";
import { publicationText } from "../../djen/publication-text.js";
import { statesOfCase } from "../../radar/case-state.js";
import { classifyItem } from "../../radar/classify.js";
import { immediate } from "../../store/database.js";
import {
  getDjenSource,
  recordDjenSourceFailure,
  recordDjenSourceOk,
} from "../../store/djen-sources.js";
import { insertPartyHit } from "../../store/party-hits.js";
import type { WatchedParty } from "../../watchlist/parse-watchlist.js";
import type { PublicationSource } from "./djen-gateway.js";
import type { RadarCounts, RecordContext, SourceOutcome } from "./record-publications.js";

/*
 * What one party name's DJEN answer writes, in one transaction: each item in a case the
 * watchlist does not hold is read again for every party asked under that name (DJEN's name search
 * is loose), and what names one (confirmado, provável, possível homônimo) is stored as that
 * party's hit; the rest is dropped. Then the source's check. Nothing is mailed from here: the
 * report phase decides which hit is a new lawsuit (report-party-hits.ts).
 */

/** What the radar reads an answer against: the watched parties and the watched case numbers. */
export interface RadarTargets {
  parties: readonly WatchedParty[];
  /** The 20 digits of every case of the watchlist: their items are theirs, not the radar's. */
  watched: ReadonlySet<string>;
}

const STORED_TEXT_MAX = 1_000_000;

function stored(publication: Publication): StoredPublication {
  const { text: _text, raw: _raw, ...rest } = publication;
  return rest;
}

/** Whether `party` looks at this item at all: its courts and states, when it names some. */
function inReach(party: WatchedParty, publication: Publication, caseNumber: string): boolean {
  if (party.courts.length > 0 && !party.courts.includes(publication.court)) return false;
  if (party.ufs.length === 0) return true;
  const states = statesOfCase(caseNumber);
  // A federal region or a superior court spans states: never set aside by ufs.
  return states === null || states.some((uf) => party.ufs.includes(uf));
}

export function recordPartySource(
  ctx: RecordContext,
  source: PublicationSource,
  radar: RadarTargets,
): SourceOutcome & { radar: RadarCounts } {
  const prior = getDjenSource(ctx.db, "party", source.key);
  const pastBaseline = prior?.firstOkAt != null;
  const counts: RadarCounts = { hits: 0, dropped: 0, skipped: 0 };
  const outcome: SourceOutcome & { radar: RadarCounts } = {
    kind: "party",
    key: source.key,
    ok: source.complete,
    baseline: source.complete && !pastBaseline,
    stored: [],
    cancelled: [],
    error:
      source.error === null ? null : { kind: source.error.kind, message: source.error.message },
    radar: counts,
  };
  const parties = radar.parties.filter((p) => p.queries.includes(source.key));
  const write = (): void => {
    for (const publication of source.publications) {
      const caseNumber = publication.caseNumber;
      // A cancelled item is no news of a lawsuit; one without a number names none.
      if (caseNumber === null || radar.watched.has(caseNumber) || !publication.active) {
        counts.skipped += 1;
        continue;
      }
      const text = publicationText(publication.text, { maxChars: STORED_TEXT_MAX }).text;
      let named = false;
      for (const party of parties) {
        if (!inReach(party, publication, caseNumber)) continue;
        const match = classifyItem(
          { text, recipients: publication.recipients },
          { name: party.name, names: [party.name, ...party.aliases], document: party.document },
        );
        if (match === null) continue;
        named = true;
        if (!ctx.write) continue;
        const inserted = insertPartyHit(ctx.db, {
          partyKey: party.key,
          partyName: party.name,
          djenId: publication.id,
          caseNumber,
          court: publication.court,
          availableOn: publication.availableOn,
          kind: publication.kind,
          confidence: match.confidence,
          reason: match.reason,
          recipient: match.recipient,
          side: match.side,
          foundBy: source.key,
          publication: stored(publication),
          text,
          firstSeenAt: ctx.nowIso,
          runId: ctx.runId,
          baseline: !pastBaseline,
        });
        if (inserted) counts.hits += 1;
      }
      if (!named) counts.dropped += 1;
    }
    if (!ctx.write) return;
    if (source.complete) recordDjenSourceOk(ctx.db, "party", source.key, ctx.nowIso);
    else {
      recordDjenSourceFailure(
        ctx.db,
        "party",
        source.key,
        ctx.nowIso,
        source.error ?? { kind: "incomplete", message: "DJEN's answer was not read whole" },
      );
    }
  };
  if (ctx.write) immediate(ctx.db, write);
  else write();
  return outcome;
}
