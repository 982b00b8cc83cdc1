import { z } from "zod";
import { addressProblem, normalizeEmailAddress } from "../email-address.js";
import { nameProblem, queryName } from "../radar/party-name.js";
import { formatTaxId, parseTaxId, type TaxId } from "../radar/tax-id.js";
import { describeValue } from "../yaml/issue-messages.js";
import type { PositionedError } from "../yaml/positioned-error.js";
import {
  errorAtPath,
  lineAt,
  nodeAt,
  type YamlPath,
  type YamlSource,
} from "../yaml/yaml-source.js";
import { collectChannels } from "./parse-channels.js";

/*
 * `parties:`: the firm's clients, whose names DJEN is asked for every working day so that a new
 * lawsuit naming one is heard of (the radar, docs/radar.md). Each name and alias is checked on
 * its own: one too short or too common to watch is refused with why, and so is a CPF/CNPJ with a
 * wrong check digit.
 */

export const PartyFile = z.strictObject({
  name: z.string(),
  // Any value: a number is told to be written in quotes (YAML drops its leading zeros).
  cpf_cnpj: z.unknown().optional(),
  aliases: z.array(z.string()).nullable().optional(),
  notify: z.array(z.string()).nullable().optional(),
  channels: z.array(z.string()).nullable().optional(),
  courts: z.array(z.string()).nullable().optional(),
  ufs: z.array(z.string()).nullable().optional(),
  later: z.enum(["none", "publications"]).nullable().optional(),
});
export type PartyFile = z.infer<typeof PartyFile>;

/** What the radar does with later items of a case it already told of. */
export type LaterItems = "none" | "publications";

export interface WatchedParty {
  /** Who the party is: "cnpj:<14>", "cpf:<11>", or "name:<the name as DJEN is asked>". */
  key: string;
  /** The name as the watchlist writes it. */
  name: string;
  document: TaxId | null;
  aliases: string[];
  /** What DJEN is asked (`nomeParte`): the name and each alias, each once, in file order. */
  queries: string[];
  /** defaults.notify followed by the party's own. */
  notify: string[];
  /** defaults.channels followed by the party's own. */
  channels: string[];
  /** DJEN's court acronyms (TJSP, TRF3); empty: every court. */
  courts: string[];
  /** States (SP, RJ); empty: every state. */
  ufs: string[];
  /** Later items of a case already told of: none (default), or mailed as its publications. */
  later: LaterItems;
  line: number;
}

const UFS = new Set(
  "AC AL AP AM BA CE DF ES GO MA MT MS MG PA PB PR PE PI RJ RN RS RO RR SC SP SE TO".split(" "),
);

/** Each party of the right shape, with its index, even when other parts of the file are not. */
export function wellShapedParties(
  raw: unknown,
  parsed: PartyFile[] | undefined,
): Array<[number, PartyFile]> {
  if (parsed !== undefined) return parsed.map((p, i) => [i, p]);
  if (
    raw === null ||
    typeof raw !== "object" ||
    !("parties" in raw) ||
    !Array.isArray(raw.parties)
  ) {
    return [];
  }
  const out: Array<[number, PartyFile]> = [];
  for (const [i, item] of (raw.parties as unknown[]).entries()) {
    const result = PartyFile.safeParse(item);
    if (result.success) out.push([i, result.data]);
  }
  return out;
}

function documentOf(
  source: YamlSource,
  at: YamlPath,
  value: unknown,
  errors: PositionedError[],
): TaxId | null | "invalid" {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") {
    errors.push(
      errorAtPath(
        source,
        at,
        `write the CPF/CNPJ in quotes ("${value}"): unquoted, YAML reads it as a number and drops its leading zeros`,
      ),
    );
    return "invalid";
  }
  if (typeof value !== "string") {
    errors.push(
      errorAtPath(
        source,
        at,
        `cpf_cnpj must be a CPF or CNPJ in quotes, got ${describeValue(value)}`,
      ),
    );
    return "invalid";
  }
  const parsed = parseTaxId(value);
  if (!parsed.ok) {
    errors.push(errorAtPath(source, at, parsed.error));
    return "invalid";
  }
  return parsed.value;
}

/**
 * The watched parties, each validated item by item; `defaults` are defaults.notify and
 * defaults.channels. A party told to nobody, a name or alias too short or too common, a bad
 * CPF/CNPJ and a party listed twice are errors at their own positions.
 */
/**
 * The queries a party is asked by (its name and each alias, compared without accents or
 * punctuation), each once; a bad alias or a repeated one is an error at its place.
 */
function partyNames(
  source: YamlSource,
  at: YamlPath,
  entry: PartyFile,
  errors: PositionedError[],
): { queries: string[]; aliases: string[]; valid: boolean } {
  const queries = [queryName(entry.name)];
  const aliases: string[] = [];
  let valid = true;
  for (const [i, alias] of (entry.aliases ?? []).entries()) {
    const aliasProblem = nameProblem(alias);
    if (aliasProblem !== null) {
      errors.push(errorAtPath(source, [...at, "aliases", i], aliasProblem));
      valid = false;
      continue;
    }
    const query = queryName(alias);
    if (queries.includes(query)) {
      errors.push(
        errorAtPath(
          source,
          [...at, "aliases", i],
          `"${alias.trim().slice(0, 80)}" is already this party's name or an alias (compared without accents or punctuation); keep it once`,
        ),
      );
      valid = false;
      continue;
    }
    queries.push(query);
    aliases.push(alias.trim());
  }
  return { queries, aliases, valid };
}

/** Adds a party's own addresses to `into` (compared in lower case, each once); false on a bad one. */
function collectNotify(
  source: YamlSource,
  path: YamlPath,
  list: readonly string[] | null | undefined,
  into: string[],
  errors: PositionedError[],
): boolean {
  let valid = true;
  const seen = new Set(into.map((a) => a.toLowerCase()));
  for (const [i, raw] of (list ?? []).entries()) {
    const address = normalizeEmailAddress(raw);
    if (address === null) {
      errors.push(errorAtPath(source, [...path, i], addressProblem(raw)));
      valid = false;
      continue;
    }
    if (!seen.has(address.toLowerCase())) {
      seen.add(address.toLowerCase());
      into.push(address);
    }
  }
  return valid;
}

/** A list of codes (courts, states) in upper case, each once; one `known` refuses is an error. */
function codeList(
  source: YamlSource,
  path: YamlPath,
  list: readonly string[] | null | undefined,
  known: (code: string) => boolean,
  problem: (raw: string) => string,
  errors: PositionedError[],
): { codes: string[]; valid: boolean } {
  const codes: string[] = [];
  let valid = true;
  for (const [i, raw] of (list ?? []).entries()) {
    const code = raw.trim().toUpperCase();
    if (!known(code)) {
      errors.push(errorAtPath(source, [...path, i], problem(raw)));
      valid = false;
    } else if (!codes.includes(code)) codes.push(code);
  }
  return { codes, valid };
}

/** The courts and states a party's radar is narrowed to (DJEN's codes), each once. */
function partyPlaces(
  source: YamlSource,
  at: YamlPath,
  entry: PartyFile,
  errors: PositionedError[],
): { courts: string[]; ufs: string[]; valid: boolean } {
  const courts = codeList(
    source,
    [...at, "courts"],
    entry.courts,
    (code) => /^[A-Z0-9]{2,12}$/u.test(code),
    (raw) => `"${raw.slice(0, 40)}" is not a court as DJEN names it, like TJSP, TRF3 or TRT2`,
    errors,
  );
  const ufs = codeList(
    source,
    [...at, "ufs"],
    entry.ufs,
    (code) => UFS.has(code),
    (raw) => `"${raw.slice(0, 40)}" is not a Brazilian state's code (SP, RJ, MG...)`,
    errors,
  );
  return { courts: courts.codes, ufs: ufs.codes, valid: courts.valid && ufs.valid };
}

export function parseParties(
  source: YamlSource,
  entries: ReadonlyArray<[number, PartyFile]>,
  defaults: { notify: readonly string[]; channels: readonly string[] },
  endpoints: readonly string[] | undefined,
  errors: PositionedError[],
): WatchedParty[] {
  const parties: WatchedParty[] = [];
  const firstLine = new Map<string, number>();
  for (const [index, entry] of entries) {
    const at: YamlPath = ["parties", index];
    const line = lineAt(source, nodeAt(source, at).node?.range?.[0] ?? 0);
    let valid = true;
    const problem = nameProblem(entry.name);
    if (problem !== null) {
      errors.push(errorAtPath(source, [...at, "name"], problem));
      valid = false;
    }
    const document = documentOf(source, [...at, "cpf_cnpj"], entry.cpf_cnpj, errors);
    if (document === "invalid") valid = false;
    const names = partyNames(source, at, entry, errors);
    if (!names.valid) valid = false;
    const { queries, aliases } = names;
    const notify = [...defaults.notify];
    if (!collectNotify(source, [...at, "notify"], entry.notify, notify, errors)) valid = false;
    const channels = [...defaults.channels];
    const before = errors.length;
    collectChannels(source, [...at, "channels"], entry.channels, channels, endpoints, errors);
    if (errors.length > before) valid = false;
    const places = partyPlaces(source, at, entry, errors);
    if (!places.valid) valid = false;
    if (notify.length === 0 && channels.length === 0) {
      errors.push(
        errorAtPath(
          source,
          [...at, "name"],
          "nobody would hear of this party's new lawsuits: add notify: (or channels:) to it, or addresses to defaults.notify",
          "key",
        ),
      );
      valid = false;
    }
    if (!valid || document === "invalid") continue;
    const key =
      document === null ? `name:${queries[0] ?? ""}` : `${document.kind}:${document.digits}`;
    const first = firstLine.get(key);
    if (first !== undefined) {
      const who = document === null ? `"${entry.name.trim().slice(0, 80)}"` : formatTaxId(document);
      errors.push(
        errorAtPath(
          source,
          [...at, "name"],
          `${who} is already watched on line ${first}; keep one entry (add the other names as aliases)`,
        ),
      );
      continue;
    }
    firstLine.set(key, line);
    parties.push({
      key,
      name: entry.name.trim(),
      document,
      aliases,
      queries,
      notify,
      channels,
      courts: places.courts,
      ufs: places.ufs,
      later: entry.later ?? "none",
      line,
    });
  }
  return parties;
}
