import { z } from "zod";
import { suggestName } from "../text.js";
import type { CnjNumber } from "./cnj-number.js";
import courtsJson from "./data/courts.json" with { type: "json" };
import { DataJudError, invalidInput, quoteInput } from "./errors.js";

/** The 91 indices of DataJud's public API (`api_publica_<alias>`, data/courts.json) and how CNJ numbers map to them. */

export const SEGMENTS = ["superior", "federal", "state", "labor", "electoral", "military"] as const;

export type Segment = (typeof SEGMENTS)[number];

export interface Court {
  alias: string;
  name: string;
  segment: Segment;
}

const Source = { source: z.string().min(1), url: z.string().url().nullable() };

const CourtsFile = z.strictObject({
  about: z.string(),
  ...Source,
  numbering: z.strictObject(Source),
  courts: z.array(
    z.strictObject({
      alias: z.string().regex(/^[a-z][a-z0-9-]+$/u),
      name: z.string().min(1),
      segment: z.enum(SEGMENTS),
      /** The justice segment (J) of the court's own numbers (Res. CNJ 65/2008 art. 1 § 4). */
      j: z.string().regex(/^\d$/u),
      /** The court code (TR, § 5); null: every TR of the segment is asked of this index. */
      tr: z
        .string()
        .regex(/^\d\d$/u)
        .nullable(),
    }),
  ),
  successors: z.array(
    z.strictObject({
      court: z.string().min(1),
      successor: z.string().min(1),
      note: z.string().min(1),
      ...Source,
    }),
  ),
});

/** The table of a courts.json, checked: a damaged file stops the process naming the place. */
export function parseCourts(json: unknown): z.infer<typeof CourtsFile> {
  const parsed = CourtsFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `src/datajud/data/courts.json is damaged at ${issue?.path.join(".") || "?"}: ${issue?.message ?? "invalid"}`,
    );
  }
  const table = parsed.data;
  const seen = new Set<string>();
  for (const { alias, j, tr } of table.courts) {
    for (const key of [alias, `${j}.${tr ?? "*"}`]) {
      if (seen.has(key)) throw new Error(`src/datajud/data/courts.json: ${key} is listed twice`);
      seen.add(key);
    }
  }
  for (const { court, successor } of table.successors) {
    const unknown = [court, successor].find((alias) => !seen.has(alias));
    if (unknown !== undefined) {
      throw new Error(`src/datajud/data/courts.json: successor court "${unknown}" is not an index`);
    }
  }
  return table;
}

const TABLE = parseCourts(courtsJson);

const INDEX_PREFIX = "api_publica_";

export const COURTS: readonly Court[] = TABLE.courts.map(({ alias, name, segment }) => ({
  alias,
  name,
  segment,
}));

/** The index of a number's own court by its `J.TR` (`J.*`: any TR of the segment). */
const ALIAS_BY_CODE: ReadonlyMap<string, string> = new Map(
  TABLE.courts.map((c) => [`${c.j}.${c.tr ?? "*"}`, c.alias]),
);

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

/** The index a number's own court keeps it in; throws DataJudError invalid_input / unsupported_court. */
export function courtAliasForNumber(cnj: CnjNumber): string {
  const alias =
    ALIAS_BY_CODE.get(`${cnj.segment}.${cnj.tribunal}`) ?? ALIAS_BY_CODE.get(`${cnj.segment}.*`);
  if (alias !== undefined) return alias;
  throw noIndexFor(cnj);
}

/** Why a number's own court has no index: it is not in DataJud's public API, or no such court. */
function noIndexFor(cnj: CnjNumber): DataJudError {
  switch (cnj.segment) {
    case "1":
      return unsupported(
        cnj,
        "STF (segment 1) is not in DataJud's public API; look the case up on the STF portal (portal.stf.jus.br)",
      );
    case "2":
      return unsupported(
        cnj,
        "CNJ's own cases (segment 2) are not in DataJud's public API; look them up on CNJ's portal",
      );
    case "4":
      return cnj.tribunal === "90"
        ? unsupported(cnj, "the Conselho da Justiça Federal (TR 90) is not in DataJud's public API")
        : badTribunal(cnj, "federal justice (segment 4)", "01 to 06");
    case "5":
      return cnj.tribunal === "90"
        ? unsupported(
            cnj,
            "the Conselho Superior da Justiça do Trabalho (TR 90) is not in DataJud's public API",
          )
        : badTribunal(cnj, "labor justice (segment 5)", "00 (TST) or 01 to 24");
    case "6":
      return badTribunal(cnj, "electoral justice (segment 6)", "00 (TSE) or 01 to 27");
    case "8":
      return badTribunal(cnj, "state justice (segment 8)", "01 to 27");
    case "9": {
      const stateCourt = ALIAS_BY_CODE.get(`8.${cnj.tribunal}`);
      return stateCourt === undefined
        ? badTribunal(cnj, "state military justice (segment 9)", "01 to 27")
        : unsupported(
            cnj,
            `DataJud's public API has state military courts only for MG (13), RS (21) and SP (26), not TR ${cnj.tribunal}; if the state's court of justice holds the case, pass court "${stateCourt}"`,
          );
    }
    default:
      return unknownSegment(cnj);
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
 * Courts that took over part of another court's cases (data/courts.json). A number keeps the court
 * code it was filed with, so such a case lives in the successor's index under the old court's
 * number.
 */
export const SUCCESSOR_INDICES: readonly SuccessorIndex[] = TABLE.successors.map(
  ({ court, successor, note }) => ({ court, successor, note }),
);

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
