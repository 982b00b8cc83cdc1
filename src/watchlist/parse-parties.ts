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
    const queries = [queryName(entry.name)];
    const aliases: string[] = [];
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
    const notify = [...defaults.notify];
    const seen = new Set(notify.map((a) => a.toLowerCase()));
    for (const [i, raw] of (entry.notify ?? []).entries()) {
      const address = normalizeEmailAddress(raw);
      if (address === null) {
        errors.push(errorAtPath(source, [...at, "notify", i], addressProblem(raw)));
        valid = false;
        continue;
      }
      if (!seen.has(address.toLowerCase())) {
        seen.add(address.toLowerCase());
        notify.push(address);
      }
    }
    const channels = [...defaults.channels];
    const before = errors.length;
    collectChannels(source, [...at, "channels"], entry.channels, channels, endpoints, errors);
    if (errors.length > before) valid = false;
    const courts: string[] = [];
    for (const [i, raw] of (entry.courts ?? []).entries()) {
      const court = raw.trim().toUpperCase();
      if (!/^[A-Z0-9]{2,12}$/u.test(court)) {
        errors.push(
          errorAtPath(
            source,
            [...at, "courts", i],
            `"${raw.slice(0, 40)}" is not a court as DJEN names it, like TJSP, TRF3 or TRT2`,
          ),
        );
        valid = false;
      } else if (!courts.includes(court)) courts.push(court);
    }
    const ufs: string[] = [];
    for (const [i, raw] of (entry.ufs ?? []).entries()) {
      const uf = raw.trim().toUpperCase();
      if (!UFS.has(uf)) {
        errors.push(
          errorAtPath(
            source,
            [...at, "ufs", i],
            `"${raw.slice(0, 40)}" is not a Brazilian state's code (SP, RJ, MG...)`,
          ),
        );
        valid = false;
      } else if (!ufs.includes(uf)) ufs.push(uf);
    }
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
      courts,
      ufs,
      later: entry.later ?? "none",
      line,
    });
  }
  return parties;
}
