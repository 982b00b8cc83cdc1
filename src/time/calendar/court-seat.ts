/*
 * Which branch of the judiciary a DataJud court alias belongs to, which states it sits in, and
 * the state of a seat from its IBGE municipality code (whose first two digits are the state's).
 * Kept here rather than read from datajud/courts.ts: time/ is pure and imports nothing of ours.
 */

export type Uf =
  | "ac"
  | "al"
  | "am"
  | "ap"
  | "ba"
  | "ce"
  | "df"
  | "es"
  | "go"
  | "ma"
  | "mg"
  | "ms"
  | "mt"
  | "pa"
  | "pb"
  | "pe"
  | "pi"
  | "pr"
  | "rj"
  | "rn"
  | "ro"
  | "rr"
  | "rs"
  | "sc"
  | "se"
  | "sp"
  | "to";

/** IBGE state codes (the first two digits of every municipality code of the state). */
export const IBGE_UF: Readonly<Record<Uf, number>> = {
  ro: 11,
  ac: 12,
  am: 13,
  rr: 14,
  pa: 15,
  ap: 16,
  to: 17,
  ma: 21,
  pi: 22,
  ce: 23,
  rn: 24,
  pb: 25,
  pe: 26,
  al: 27,
  se: 28,
  ba: 29,
  mg: 31,
  es: 32,
  rj: 33,
  sp: 35,
  pr: 41,
  sc: 42,
  rs: 43,
  ms: 50,
  mt: 51,
  go: 52,
  df: 53,
};

const UF_BY_IBGE: ReadonlyMap<number, Uf> = new Map(
  (Object.entries(IBGE_UF) as Array<[Uf, number]>).map(([uf, code]) => [code, uf]),
);

/** The state of an IBGE municipality code (seven digits), or null if it names none. */
export function ufOfMunicipality(code: number): Uf | null {
  if (!Number.isInteger(code) || code < 1_000_000 || code > 9_999_999) return null;
  return UF_BY_IBGE.get(Math.floor(code / 100_000)) ?? null;
}

/**
 * `union`: the courts of the Union (federal, labour, electoral, military and the superior courts),
 * whose own holidays are those of Lei 5.010/1966 art. 62; `state`: the states' courts (TJ, TJM).
 */
export type Branch = "state" | "state-military" | "federal" | "labor" | "electoral" | "superior";

export interface CourtSeat {
  /** The alias, lower case. */
  court: string;
  branch: Branch | null;
  /** The states the court sits in (one for most, several for some TRFs and TRTs, none superior). */
  states: readonly Uf[];
  /** The seat's municipality (IBGE), when known. */
  municipality: number | null;
  /** The seat's state: from the municipality, or the court's only state. */
  uf: Uf | null;
}

const ALL_UF = Object.keys(IBGE_UF) as Uf[];

/** Regions after Lei 14.226/2021 created the TRF6 (Minas Gerais) out of the TRF1. */
const TRF_STATES: Readonly<Record<number, readonly Uf[]>> = {
  1: ["ac", "am", "ap", "ba", "df", "go", "ma", "mt", "pa", "pi", "ro", "rr", "to"],
  2: ["rj", "es"],
  3: ["sp", "ms"],
  4: ["rs", "pr", "sc"],
  5: ["pe", "al", "ce", "pb", "rn", "se"],
  6: ["mg"],
};

const TRT_STATES: Readonly<Record<number, readonly Uf[]>> = {
  1: ["rj"],
  2: ["sp"],
  3: ["mg"],
  4: ["rs"],
  5: ["ba"],
  6: ["pe"],
  7: ["ce"],
  8: ["pa", "ap"],
  9: ["pr"],
  10: ["df", "to"],
  11: ["am", "rr"],
  12: ["sc"],
  13: ["pb"],
  14: ["ro", "ac"],
  15: ["sp"],
  16: ["ma"],
  17: ["es"],
  18: ["go"],
  19: ["al"],
  20: ["se"],
  21: ["rn"],
  22: ["pi"],
  23: ["mt"],
  24: ["ms"],
};

const SUPERIOR = new Set(["stf", "stj", "tst", "tse", "stm"]);

function asUf(text: string): Uf | null {
  const uf = text === "dft" ? "df" : text;
  return (ALL_UF as readonly string[]).includes(uf) ? (uf as Uf) : null;
}

function branchOf(court: string): { branch: Branch; states: readonly Uf[] } | null {
  if (SUPERIOR.has(court)) return { branch: "superior", states: [] };
  let match = /^tjm(mg|rs|sp)$/.exec(court);
  if (match?.[1] !== undefined) return { branch: "state-military", states: [match[1] as Uf] };
  match = /^tj([a-z]{2,3})$/.exec(court);
  const stateUf = match?.[1] === undefined ? null : asUf(match[1]);
  if (stateUf !== null) return { branch: "state", states: [stateUf] };
  match = /^tre-([a-z]{2,3})$/.exec(court);
  const electoralUf = match?.[1] === undefined ? null : asUf(match[1]);
  if (electoralUf !== null) return { branch: "electoral", states: [electoralUf] };
  match = /^trf(\d)$/.exec(court);
  const trf = match?.[1] === undefined ? undefined : TRF_STATES[Number(match[1])];
  if (trf !== undefined) return { branch: "federal", states: trf };
  match = /^trt(\d{1,2})$/.exec(court);
  const trt = match?.[1] === undefined ? undefined : TRT_STATES[Number(match[1])];
  if (trt !== undefined) return { branch: "labor", states: trt };
  return null;
}

/**
 * The seat of a court: `court` is a DataJud alias (`tjsp`, `trf3`, `tre-sp`; `api_publica_` and
 * case ignored); `municipality` the IBGE code of the unit's seat (0 or absent: unknown). A seat
 * outside the court's states is not believed: its state is then unknown.
 */
export function courtSeat(court: string, municipality?: number): CourtSeat {
  const alias = court
    .trim()
    .toLowerCase()
    .replace(/^api_publica_/, "");
  const known = branchOf(alias);
  const states = known?.states ?? [];
  const seatUf =
    municipality === undefined || municipality === 0 ? null : ufOfMunicipality(municipality);
  const seatBelongs = seatUf !== null && states.includes(seatUf);
  const onlyState = states.length === 1 ? (states[0] ?? null) : null;
  return {
    court: alias,
    branch: known?.branch ?? null,
    states,
    municipality: seatBelongs ? (municipality ?? null) : null,
    uf: seatBelongs ? seatUf : onlyState,
  };
}
