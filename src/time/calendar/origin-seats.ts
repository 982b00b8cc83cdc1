import { z } from "zod";
import { loadCalendarTable } from "./calendar-data.js";
import { IBGE_UF, type Uf, ufOfMunicipality } from "./court-seat.js";
import seatsJson from "./origin-seats.json" with { type: "json" };

/*
 * The seat a CNJ number's origin segment names (origin-seats.json): used where DataJud gives no
 * codigoMunicipioIBGE (a publication found through DJEN alone, a record without a seat), since the
 * seat decides the municipal days and, in a federal region of several states, the state's.
 */

const Seat = z
  .strictObject({
    segment: z.string().regex(/^\d$/u),
    tribunal: z.string().regex(/^\d{2}$/u),
    origin: z.string().regex(/^\d{4}$/u),
    court: z.string().regex(/^[a-z0-9-]+$/u),
    unit: z.string().min(1),
    municipality: z.strictObject({
      ibge: z.number().int().min(1_000_000).max(9_999_999),
      name: z.string().min(1),
    }),
    uf: z.enum(Object.keys(IBGE_UF) as [Uf, ...Uf[]]),
    source: z.string().min(1),
    url: z.string().url().nullable(),
  })
  .refine((seat) => ufOfMunicipality(seat.municipality.ibge) === seat.uf, {
    message: "the IBGE code is not of that state",
  });

const SeatsFile = z.strictObject({ about: z.string(), seats: z.array(Seat) });

export type OriginSeat = z.infer<typeof Seat>;

/** The seats of an origin-seats.json, checked: a damaged file stops the process naming where. */
export function parseOriginSeats(json: unknown): readonly OriginSeat[] {
  const { seats } = loadCalendarTable("origin-seats.json", SeatsFile, json);
  const seen = new Set<string>();
  for (const seat of seats) {
    const key = `${seat.segment}.${seat.tribunal}.${seat.origin}`;
    if (seen.has(key)) {
      throw new Error(`src/time/calendar/origin-seats.json: ${key} is listed twice`);
    }
    seen.add(key);
  }
  return seats;
}

export const ORIGIN_SEATS: readonly OriginSeat[] = parseOriginSeats(seatsJson);

const BY_KEY: ReadonlyMap<string, OriginSeat> = new Map(
  ORIGIN_SEATS.map((seat) => [`${seat.segment}.${seat.tribunal}.${seat.origin}`, seat]),
);

/**
 * The seat of a case number's origin (`NNNNNNN-DD.AAAA.J.TR.OOOO`, with or without punctuation),
 * or null when the number is malformed or its origin is not in the table.
 */
export function seatOfCaseNumber(caseNumber: string | null | undefined): OriginSeat | null {
  if (caseNumber === null || caseNumber === undefined) return null;
  const digits = caseNumber.replace(/[.\-\s]/gu, "");
  if (!/^\d{20}$/u.test(digits)) return null;
  const key = `${digits.slice(13, 14)}.${digits.slice(14, 16)}.${digits.slice(16, 20)}`;
  return BY_KEY.get(key) ?? null;
}
