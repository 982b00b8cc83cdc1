import { courtSeat, type Uf } from "./calendar/court-seat.js";
import { SAO_PAULO_ZONE } from "./zoned-time.js";

/*
 * The time zone of a court's wall clock: the times DataJud and DJEN give (a session "às 14h") are
 * read where the court sits. Brazil has had no daylight saving time since Decreto 9.772/2019, so
 * these zones differ only by their fixed offsets: -02 (Fernando de Noronha), -03, -04 (Amazonas,
 * Roraima, Rondônia, Mato Grosso, Mato Grosso do Sul), -05 (Acre, western Amazonas).
 */

/** Each state's zone in the IANA database (zone.tab: the zone of the state's capital). */
const UF_ZONE: Readonly<Record<Uf, string>> = {
  ac: "America/Rio_Branco",
  al: "America/Maceio",
  am: "America/Manaus",
  ap: "America/Belem",
  ba: "America/Bahia",
  ce: "America/Fortaleza",
  df: "America/Sao_Paulo",
  es: "America/Sao_Paulo",
  go: "America/Sao_Paulo",
  ma: "America/Fortaleza",
  mg: "America/Sao_Paulo",
  ms: "America/Campo_Grande",
  mt: "America/Cuiaba",
  pa: "America/Belem",
  pb: "America/Fortaleza",
  pe: "America/Recife",
  pi: "America/Fortaleza",
  pr: "America/Sao_Paulo",
  rj: "America/Sao_Paulo",
  rn: "America/Fortaleza",
  ro: "America/Porto_Velho",
  rr: "America/Boa_Vista",
  rs: "America/Sao_Paulo",
  sc: "America/Sao_Paulo",
  se: "America/Maceio",
  sp: "America/Sao_Paulo",
  to: "America/Araguaina",
};

/**
 * Where a court that sits in several states has its headquarters: its sessions of judgment are
 * held there. TRT14 (Rondônia and Acre) is the one whose states keep different clocks.
 */
const HEADQUARTERS: Readonly<Record<string, Uf>> = {
  trf1: "df",
  trf2: "rj",
  trf3: "sp",
  trf4: "rs",
  trf5: "pe",
  trt8: "pa",
  trt10: "df",
  trt11: "am",
  trt14: "ro",
};

/**
 * The zone of the court `court` (a DataJud alias) at the unit's seat `municipality` (IBGE code,
 * when known): the seat's state, else the court's only state, else its headquarters. A seat in a
 * state's second zone (western Amazonas, Fernando de Noronha) is read with the capital's.
 */
export function courtTimeZone(court: string, municipality?: number | null): string {
  const seat = courtSeat(court, municipality ?? undefined);
  const uf = seat.uf ?? HEADQUARTERS[seat.court] ?? null;
  // Brasília's clock: the superior courts', and any court we cannot place.
  return uf === null ? SAO_PAULO_ZONE : UF_ZONE[uf];
}
