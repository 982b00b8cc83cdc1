import { z } from "zod";
import { formatWallClock, wallClockInstant } from "../datajud/dates.js";
import { Movement } from "../datajud/instance-record.js";
import { type MovementKind, movementKind } from "../datajud/tpu-hints.js";
import { type PublicationEstimate, publicationEstimate } from "./datajud-publication.js";
import {
  complementReading,
  HEARING_SITUATION_PT,
  HEARING_UPSET,
  hearingName,
  hearingSituation,
  isHearing,
  movementTitle,
  type ReadingContext,
} from "./movement-reading.js";

/*
 * What a correction of a known movement means to a lawyer: what it was and what it is now, and
 * whether it is urgent. A hearing cancelled, moved or brought forward is; so is a date a deadline
 * may count from (a publication, an intimação, a citação) moved. Pure.
 */

export interface Correction {
  instance: string;
  /** amended: other complements at the same code and time; redated: the same act at another time. */
  kind: "amended" | "redated";
  before: Movement;
  after: Movement;
}

const StoredCorrection = z.object({
  instance: z.string(),
  kind: z.enum(["amended", "redated"]),
  before: Movement,
  after: Movement,
});

const CorrectionsOfChange = z.object({ corrections: z.array(z.unknown()).catch([]) });

/**
 * The corrections a stored change reported (its `details.corrections`), read leniently: a change
 * written before corrections were reported has none, and an entry that cannot be read is left out.
 */
export function correctionsOfChange(details: unknown): Correction[] {
  const parsed = CorrectionsOfChange.safeParse(details);
  if (!parsed.success) return [];
  return parsed.data.corrections.flatMap((c) => {
    const one = StoredCorrection.safeParse(c);
    return one.success ? [one.data] : [];
  });
}

export interface CorrectionReading {
  /** One line, in Portuguese: "Audiência de conciliação: designada → cancelada". */
  headline: string;
  /** Why this cannot wait, in Portuguese; null when it can. */
  urgent: string | null;
  /** Each form as one line: date, name, complements. */
  before: string;
  after: string;
  /** For a gazette movement re-dated: the dates a deadline may count from, before and after. */
  counting: { before: PublicationEstimate; after: PublicationEstimate } | null;
}

/** Kinds whose date a deadline may count from. */
const COUNTING_KINDS: ReadonlySet<MovementKind> = new Set([
  "publication",
  "intimation",
  "citation",
]);

function kindOf(m: Movement): MovementKind {
  return movementKind(
    m.code,
    m.name,
    m.complements.map((c) => [c.description, c.name, c.value].join(" ")),
  );
}

function when(m: Movement): string {
  return m.dateTime === null ? "sem data" : formatWallClock(m.dateTime);
}

/** "18/12/2017 15:57 · Audiência de conciliação designada · situação da audiência: designada". */
export function formLine(m: Movement, context: ReadingContext = {}): string {
  const complements = m.complements.flatMap((c) => complementReading(c) ?? []);
  return [
    when(m),
    movementTitle(m, context),
    ...(complements.length > 0 ? [complements.join("; ")] : []),
  ].join(" · ");
}

function complementsChanged(before: Movement, after: Movement): string {
  const was = new Set(before.complements.flatMap((c) => complementReading(c) ?? []));
  const now = new Set(after.complements.flatMap((c) => complementReading(c) ?? []));
  const gone = [...was].filter((c) => !now.has(c));
  const came = [...now].filter((c) => !was.has(c));
  const side = (items: readonly string[]): string =>
    items.length === 0 ? "nada" : items.join("; ");
  return `${side(gone)} → ${side(came)}`;
}

function direction(before: Movement, after: Movement): "earlier" | "later" | null {
  const a = wallClockInstant(before.dateTime ?? "");
  const b = wallClockInstant(after.dateTime ?? "");
  if (Number.isNaN(a) || Number.isNaN(b) || a === b) return null;
  return b < a ? "earlier" : "later";
}

function hearingUrgency(c: Correction): string | null {
  if (!isHearing(c.after)) return null;
  if (c.kind === "redated") {
    const moved = direction(c.before, c.after);
    const how =
      moved === "earlier" ? "para antes" : moved === "later" ? "para depois" : "para outra data";
    return `o DataJud passou a registrar a audiência ${how} (${when(c.before)} → ${when(c.after)}): confira no processo se a audiência mudou de data`;
  }
  const was = hearingSituation(c.before);
  const now = hearingSituation(c.after);
  if (now === null || now === was || !HEARING_UPSET.has(now)) return null;
  return `audiência ${HEARING_SITUATION_PT[now]}: já não vale a data de que o aviso anterior tratava`;
}

/**
 * How long after the later of its two dates a corrected counting date may still matter: the
 * longest period the monitor names is 30 days (embargos à execução fiscal, Lei 6.830/1980 art.
 * 16), counted in dias úteis at worst, doubled for the Fazenda or the Defensoria (CPC arts. 183
 * and 186): 60 dias úteis, under 90 calendar days, plus the year-end recess (20/12 to 20/01, CPC
 * art. 220) and holidays. 180 days leaves a wide margin: inside it a correction stays urgent.
 */
export const COUNTING_STILL_MATTERS_DAYS = 180;

function stillMatters(c: Correction, now: Date | null): boolean {
  if (now === null) return true;
  const latest = Math.max(
    wallClockInstant(c.before.dateTime ?? ""),
    wallClockInstant(c.after.dateTime ?? ""),
  );
  if (Number.isNaN(latest)) return true;
  return now.getTime() - latest <= COUNTING_STILL_MATTERS_DAYS * 86_400_000;
}

function countingUrgency(c: Correction, now: Date | null): string | null {
  if (c.kind !== "redated" || !COUNTING_KINDS.has(kindOf(c.after))) return null;
  if (!stillMatters(c, now)) return null;
  return `mudou a data de que um prazo pode contar (${when(c.before)} → ${when(c.after)}): refaça a contagem`;
}

/**
 * A correction read in its instance's words. Given `now`, a moved counting date is urgent only
 * while a period counted from it could still be running (COUNTING_STILL_MATTERS_DAYS); without
 * it, as before, always.
 */
export function readCorrection(
  c: Correction,
  context: ReadingContext = {},
  now: Date | null = null,
): CorrectionReading {
  const title = movementTitle(c.after, context);
  let headline: string;
  if (c.kind === "redated") {
    headline = `${title}: data corrigida de ${when(c.before)} para ${when(c.after)}`;
  } else {
    const was = isHearing(c.after) ? hearingSituation(c.before) : null;
    const now = isHearing(c.after) ? hearingSituation(c.after) : null;
    headline =
      was !== null && now !== null && was !== now
        ? `${hearingName(c.after)}: ${HEARING_SITUATION_PT[was]} → ${HEARING_SITUATION_PT[now]}`
        : `${title}: ${complementsChanged(c.before, c.after)}`;
  }
  const before = publicationEstimate(c.before);
  const after = publicationEstimate(c.after);
  return {
    headline,
    urgent: hearingUrgency(c) ?? countingUrgency(c, now),
    before: formLine(c.before, context),
    after: formLine(c.after, context),
    counting: c.kind === "redated" && before !== null && after !== null ? { before, after } : null,
  };
}
