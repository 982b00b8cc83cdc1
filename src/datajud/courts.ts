import { suggestName } from "../text.js";
import type { CnjNumber } from "./cnj-number.js";
import { DataJudError, invalidInput, quoteInput } from "./errors.js";

/** The 91 indices of DataJud's public API (`api_publica_<alias>`) and how CNJ numbers map to them. */

export type Segment = "superior" | "federal" | "state" | "labor" | "electoral" | "military";

export const SEGMENTS: readonly Segment[] = [
  "superior",
  "federal",
  "state",
  "labor",
  "electoral",
  "military",
];

export interface Court {
  alias: string;
  name: string;
  segment: Segment;
}

const INDEX_PREFIX = "api_publica_";

/**
 * TR codes of segments 6 (electoral) and 8 (state) in CNJ's order, which is not alphabetical by
 * state code: 03 is AP before 04 AM, 11 MT before 12 MS, 21 RS before 22 RO.
 */
const STATES = [
  { tr: "01", uf: "ac", of: "do Acre" },
  { tr: "02", uf: "al", of: "de Alagoas" },
  { tr: "03", uf: "ap", of: "do Amapá" },
  { tr: "04", uf: "am", of: "do Amazonas" },
  { tr: "05", uf: "ba", of: "da Bahia" },
  { tr: "06", uf: "ce", of: "do Ceará" },
  { tr: "07", uf: "df", of: "do Distrito Federal e dos Territórios" },
  { tr: "08", uf: "es", of: "do Espírito Santo" },
  { tr: "09", uf: "go", of: "de Goiás" },
  { tr: "10", uf: "ma", of: "do Maranhão" },
  { tr: "11", uf: "mt", of: "de Mato Grosso" },
  { tr: "12", uf: "ms", of: "de Mato Grosso do Sul" },
  { tr: "13", uf: "mg", of: "de Minas Gerais" },
  { tr: "14", uf: "pa", of: "do Pará" },
  { tr: "15", uf: "pb", of: "da Paraíba" },
  { tr: "16", uf: "pr", of: "do Paraná" },
  { tr: "17", uf: "pe", of: "de Pernambuco" },
  { tr: "18", uf: "pi", of: "do Piauí" },
  { tr: "19", uf: "rj", of: "do Rio de Janeiro" },
  { tr: "20", uf: "rn", of: "do Rio Grande do Norte" },
  { tr: "21", uf: "rs", of: "do Rio Grande do Sul" },
  { tr: "22", uf: "ro", of: "de Rondônia" },
  { tr: "23", uf: "rr", of: "de Roraima" },
  { tr: "24", uf: "sc", of: "de Santa Catarina" },
  { tr: "25", uf: "se", of: "de Sergipe" },
  { tr: "26", uf: "sp", of: "de São Paulo" },
  { tr: "27", uf: "to", of: "do Tocantins" },
] as const;

type State = (typeof STATES)[number];

/** The Federal District's courts are the only ones whose alias is not the state code. */
function stateAlias(state: State): string {
  return state.uf === "df" ? "tjdft" : `tj${state.uf}`;
}

function electoralAlias(state: State): string {
  return state.uf === "df" ? "tre-dft" : `tre-${state.uf}`;
}

const MILITARY_BY_TR: Readonly<Record<string, string>> = {
  "13": "tjmmg",
  "21": "tjmrs",
  "26": "tjmsp",
};

function byAlias(a: Court, b: Court): number {
  return a.alias.localeCompare(b.alias);
}

function regional(n: number): string {
  return `${n}ª Região`;
}

export const COURTS: readonly Court[] = [
  { alias: "tst", name: "Tribunal Superior do Trabalho", segment: "superior" },
  { alias: "tse", name: "Tribunal Superior Eleitoral", segment: "superior" },
  { alias: "stj", name: "Superior Tribunal de Justiça", segment: "superior" },
  { alias: "stm", name: "Superior Tribunal Militar", segment: "superior" },
  ...Array.from(
    { length: 6 },
    (_, i): Court => ({
      alias: `trf${i + 1}`,
      name: `Tribunal Regional Federal da ${regional(i + 1)}`,
      segment: "federal",
    }),
  ),
  ...STATES.map(
    (s): Court => ({ alias: stateAlias(s), name: `Tribunal de Justiça ${s.of}`, segment: "state" }),
  ).sort(byAlias),
  ...Array.from(
    { length: 24 },
    (_, i): Court => ({
      alias: `trt${i + 1}`,
      name: `Tribunal Regional do Trabalho da ${regional(i + 1)}`,
      segment: "labor",
    }),
  ),
  ...STATES.map(
    (s): Court => ({
      alias: electoralAlias(s),
      name: `Tribunal Regional Eleitoral ${s.uf === "df" ? "do Distrito Federal" : s.of}`,
      segment: "electoral",
    }),
  ).sort(byAlias),
  { alias: "tjmmg", name: "Tribunal de Justiça Militar de Minas Gerais", segment: "military" },
  { alias: "tjmrs", name: "Tribunal de Justiça Militar do Rio Grande do Sul", segment: "military" },
  { alias: "tjmsp", name: "Tribunal de Justiça Militar de São Paulo", segment: "military" },
];

const COURT_BY_ALIAS: ReadonlyMap<string, Court> = new Map(COURTS.map((c) => [c.alias, c]));

/** Case-insensitive; also accepts the index name (`api_publica_tjsp`). */
export function findCourt(alias: string): Court | undefined {
  let key = alias.trim().toLowerCase();
  if (key.startsWith(INDEX_PREFIX)) key = key.slice(INDEX_PREFIX.length);
  return COURT_BY_ALIAS.get(key);
}

/**
 * Why `input` names no court, with the closest alias when it looks like a typo ("tjps" -> "tjsp"),
 * as the watchlist's validation says it.
 */
export function unknownCourtMessage(input: string): string {
  const key = input.trim().toLowerCase().replace(INDEX_PREFIX, "");
  if (key === "stf") {
    return `${quoteInput(input)}: the STF is not in DataJud's public API; follow its cases on portal.stf.jus.br`;
  }
  const suggestion = suggestName(
    key,
    COURTS.map((c) => c.alias),
  );
  const base = `${quoteInput(input)} is not a DataJud court alias (like "tjsp", "stj" or "trt2")`;
  return suggestion === undefined
    ? `${base}; docs/watchlist.md ("Court aliases") and the list_courts tool of \`monitor mcp\` list the valid ones`
    : `${base}; did you mean "${suggestion}"?`;
}

export function indexName(alias: string): string {
  return `${INDEX_PREFIX}${alias}`;
}

function unsupported(cnj: CnjNumber, message: string): DataJudError {
  return new DataJudError("unsupported_court", `"${cnj.formatted}": ${message}`, {
    retryable: false,
  });
}

function badTribunal(cnj: CnjNumber, what: string, range: string): DataJudError {
  return invalidInput(
    `"${cnj.formatted}": court code (TR) ${cnj.tribunal} does not exist in ${what}, it must be ${range}; check the number`,
  );
}

function stateOf(tribunal: string): State | undefined {
  return STATES.find((s) => s.tr === tribunal);
}

/** The index a number's own court keeps it in; throws DataJudError invalid_input / unsupported_court. */
export function courtAliasForNumber(cnj: CnjNumber): string {
  const tr = Number(cnj.tribunal);
  switch (cnj.segment) {
    case "1":
      throw unsupported(
        cnj,
        "STF (segment 1) is not in DataJud's public API; look the case up on the STF portal (portal.stf.jus.br)",
      );
    case "2":
      throw unsupported(
        cnj,
        "CNJ's own cases (segment 2) are not in DataJud's public API; look them up on CNJ's portal",
      );
    case "3":
      return "stj";
    case "4":
      if (cnj.tribunal === "90") {
        throw unsupported(
          cnj,
          "the Conselho da Justiça Federal (TR 90) is not in DataJud's public API",
        );
      }
      if (tr >= 1 && tr <= 6) return `trf${tr}`;
      throw badTribunal(cnj, "federal justice (segment 4)", "01 to 06");
    case "5":
      if (tr === 0) return "tst";
      if (cnj.tribunal === "90") {
        throw unsupported(
          cnj,
          "the Conselho Superior da Justiça do Trabalho (TR 90) is not in DataJud's public API",
        );
      }
      if (tr >= 1 && tr <= 24) return `trt${tr}`;
      throw badTribunal(cnj, "labor justice (segment 5)", "00 (TST) or 01 to 24");
    case "6": {
      if (tr === 0) return "tse";
      const state = stateOf(cnj.tribunal);
      if (state) return electoralAlias(state);
      throw badTribunal(cnj, "electoral justice (segment 6)", "00 (TSE) or 01 to 27");
    }
    case "7":
      // The federal military justice has one index: STM holds its circumscriptions' cases too.
      return "stm";
    case "8": {
      const state = stateOf(cnj.tribunal);
      if (state) return stateAlias(state);
      throw badTribunal(cnj, "state justice (segment 8)", "01 to 27");
    }
    case "9": {
      const military = MILITARY_BY_TR[cnj.tribunal];
      if (military) return military;
      const state = stateOf(cnj.tribunal);
      if (state) {
        throw unsupported(
          cnj,
          `DataJud's public API has state military courts only for MG (13), RS (21) and SP (26), not TR ${cnj.tribunal}; if the state's court of justice holds the case, pass court "${stateAlias(state)}"`,
        );
      }
      throw badTribunal(cnj, "state military justice (segment 9)", "01 to 27");
    }
    default:
      throw unknownSegment(cnj);
  }
}

function unknownSegment(cnj: CnjNumber): DataJudError {
  return invalidInput(
    `"${cnj.formatted}": justice segment (J) ${cnj.segment} does not exist; check the number`,
  );
}

/**
 * The alias to read a number from. An explicit court wins, because superior courts keep the origin
 * number: an STJ record of a TJSP case is read with court "stj", not the court the number names.
 */
export function resolveCourt(cnj: CnjNumber, explicitCourt?: string): string {
  if (explicitCourt === undefined) return courtAliasForNumber(cnj);
  const court = findCourt(explicitCourt);
  if (!court) throw invalidInput(unknownCourtMessage(explicitCourt));
  return court.alias;
}

export interface SuccessorIndex {
  /** The court the number names. */
  court: string;
  /** The court that took over some of its cases; they keep their old numbers. */
  successor: string;
  /** For the lawyer, in Portuguese: what moved, and when. */
  note: string;
}

/**
 * Courts that took over part of another court's cases. A number keeps the court code it was filed
 * with, so such a case lives in the successor's index under the old court's number. The next court
 * split is one line here.
 */
export const SUCCESSOR_INDICES: readonly SuccessorIndex[] = [
  // Lei 14.226/2021: TRF6 was installed in August 2022 with Minas Gerais, until then TRF1's.
  {
    court: "trf1",
    successor: "trf6",
    note: "o TRF6 assumiu em 2022 os processos federais de Minas Gerais, antes do TRF1, e eles mantêm o número 4.01",
  },
];

/**
 * The indices to ask for a number read from `court`, in order: the court itself and, when it is
 * the number's own court, the courts that took over its cases. An explicit other court (an STJ
 * record of a TJSP number) is asked alone.
 */
export function lookupIndices(cnj: CnjNumber, court: string): string[] {
  let own: string;
  try {
    own = courtAliasForNumber(cnj);
  } catch {
    return [court];
  }
  if (court !== own) return [court];
  return [court, ...SUCCESSOR_INDICES.filter((s) => s.court === court).map((s) => s.successor)];
}

/** Where the case was last found is asked first, when it is still one of the candidates. */
export function preferIndex(indices: readonly string[], foundIn: string | null): string[] {
  if (foundIn === null || !indices.includes(foundIn)) return [...indices];
  return [foundIn, ...indices.filter((i) => i !== foundIn)];
}

/** Why a case of `court` was read from `index`, when a successor court holds it; else null. */
export function successorNote(court: string, index: string): string | null {
  const alias = findCourt(index)?.alias;
  return SUCCESSOR_INDICES.find((s) => s.court === court && s.successor === alias)?.note ?? null;
}

/** The segment a number belongs to, with the two that DataJud's public API does not serve. */
export function segmentOfNumber(cnj: CnjNumber): Segment | "supreme" | "cnj" {
  switch (cnj.segment) {
    case "1":
      return "supreme";
    case "2":
      return "cnj";
    case "3":
    case "7":
      return "superior";
    case "4":
      return "federal";
    case "5":
      return cnj.tribunal === "00" ? "superior" : "labor";
    case "6":
      return cnj.tribunal === "00" ? "superior" : "electoral";
    case "8":
      return "state";
    case "9":
      return "military";
    default:
      throw unknownSegment(cnj);
  }
}
