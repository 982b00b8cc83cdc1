import { isMap, isSeq } from "yaml";
import { type CnjNumber, parseCnjNumber } from "../datajud/cnj-number.js";
import { resolveCourt } from "../datajud/courts.js";
import { isDataJudError } from "../datajud/errors.js";
import { addressProblem, normalizeEmailAddress } from "../email-address.js";
import type { CaseAlertPolicy, MovementRule, WatcherSettings } from "../policy/alert-rules.js";
import type { EscalationChain } from "../policy/escalation.js";
import { readUserFile, type UserFileRead } from "../user-file.js";
import { issuesToErrors } from "../yaml/issue-messages.js";
import { comparePositionedErrors, type PositionedError } from "../yaml/positioned-error.js";
import { decodeUtf8 } from "../yaml/utf8.js";
import {
  errorAtPath,
  lineAt,
  nodeAt,
  parseYamlSource,
  plainValue,
  type YamlPath,
  type YamlSource,
} from "../yaml/yaml-source.js";
import { alertKeyHint } from "./parse-alert-settings.js";
import { collectChannels } from "./parse-channels.js";
import { parseEscalation } from "./parse-escalation.js";
import { parseScopeRules, type ScopeRules } from "./parse-ignore-urgent.js";
import { parseCasePolicy } from "./parse-muting.js";
import { mergeOabs, parseOabList, type WatchedOab } from "./parse-oab.js";
import { parseParties, type WatchedParty, wellShapedParties } from "./parse-parties.js";
import { parseWatchers, wellShapedWatchers } from "./parse-watchers.js";
import { WatchlistCaseFile, WatchlistDefaultsFile, WatchlistFile } from "./watchlist-file.js";
import { watchlistWarnings } from "./watchlist-warnings.js";

export type {
  CaseAlertPolicy,
  Delivery,
  MovementRule,
  WatcherSettings,
} from "../policy/alert-rules.js";
export type { PositionedError } from "../yaml/positioned-error.js";
export type { WatchedOab } from "./parse-oab.js";
export type { WatchedParty } from "./parse-parties.js";
export {
  LABEL_MAX,
  WatchlistCaseFile,
  WatchlistDefaultsFile,
  WatchlistFile,
} from "./watchlist-file.js";

/**
 * Largest watchlist file read: 10,000 cases with labels, notify lists and rules take about 1 MiB,
 * and parsing YAML costs many times the file's size in memory.
 */
export const WATCHLIST_MAX_BYTES = 4 * 2 ** 20;

export interface WatchedCase {
  /** NNNNNNN-DD.AAAA.J.TR.OOOO */
  number: string;
  digits: string;
  /** The resolved DataJud alias: the explicit `court`, else the number's own court. */
  court: string;
  label: string | null;
  /** defaults.notify followed by the case's own, deduplicated, domains lower-cased. */
  notify: string[];
  /** defaults.channels followed by the case's own: webhook and chat endpoints, by name. */
  channels: string[];
  /** defaults.ignore/urgent followed by the case's own, and whether the case is muted. */
  policy: CaseAlertPolicy;
  /** Who is told when an urgent alert is not acknowledged: the case's own or the defaults'; absent or null: nobody. */
  escalation?: EscalationChain | null;
  /** Where the case starts in the file. */
  line: number;
}

export interface Watchlist {
  file: string;
  defaults: {
    notify: string[];
    channels: string[];
    ignore: MovementRule[];
    urgent: MovementRule[];
    /** `defaults.escalation`: the chain of every case without its own (and of publications outside the watchlist). */
    escalation?: EscalationChain | null;
  };
  cases: WatchedCase[];
  /** How listed addresses want their mail, in file order; unlisted ones get the configuration's. */
  watchers: WatcherSettings[];
  /** OAB registrations whose DJEN publications are looked for, and who hears of them. */
  oab: WatchedOab[];
  /** The firm's clients whose names DJEN is asked for, for new lawsuits (docs/radar.md). */
  parties?: WatchedParty[];
}

export type WatchlistResult =
  /** `warnings`: valid but most likely a mistake (watchlist-warnings.ts); `validate` shows them. */
  | {
      ok: true;
      watchlist: Watchlist;
      warnings: PositionedError[];
      /** The text it was read from: what the database keeps as the last good copy. */
      text: string;
    }
  | { ok: false; errors: PositionedError[] };

/** Adds valid addresses to `into` (first spelling wins) and reports the others. */
function collectAddresses(
  source: YamlSource,
  path: YamlPath,
  list: readonly string[] | null | undefined,
  into: string[],
  errors: PositionedError[],
): void {
  const seen = new Set(into.map((a) => a.toLowerCase()));
  for (const [i, raw] of (list ?? []).entries()) {
    const address = normalizeEmailAddress(raw);
    if (address === null) {
      errors.push(errorAtPath(source, [...path, i], addressProblem(raw)));
      continue;
    }
    const key = address.toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      into.push(address);
    }
  }
}

function courtProblem(explicit: string, error: string): string {
  if (explicit.trim().toLowerCase() === "stf") {
    return `court "${explicit}": the STF is not in DataJud's public API; follow this case on portal.stf.jus.br and remove it from the watchlist`;
  }
  return error;
}

function resolveCaseCourt(
  source: YamlSource,
  at: YamlPath,
  cnj: CnjNumber,
  explicit: string | undefined,
  errors: PositionedError[],
): string | null {
  try {
    return resolveCourt(cnj, explicit);
  } catch (error) {
    if (!isDataJudError(error)) throw error;
    if (explicit === undefined) {
      errors.push(errorAtPath(source, [...at, "number"], error.message));
    } else {
      errors.push(errorAtPath(source, [...at, "court"], courtProblem(explicit, error.message)));
    }
    return null;
  }
}

function caseLine(source: YamlSource, index: number): number {
  const found = nodeAt(source, ["cases", index]);
  return lineAt(source, found.node?.range?.[0] ?? 0);
}

function blankToNull(value: string | null | undefined): string | null {
  const text = value?.trim() ?? "";
  return text === "" ? null : text;
}

/** A case as far as it can be read; `number` is null when it is missing or not text. */
type CaseEntry = Omit<WatchlistCaseFile, "number"> & { number: string | null };

/** Each case that has the right shape, with its index, even when other parts of the file do not. */
function wellShapedCases(
  raw: unknown,
  parsed: WatchlistFile | undefined,
): Array<[number, CaseEntry]> {
  if (parsed) return (parsed.cases ?? []).map((c, i) => [i, c]);
  if (raw === null || typeof raw !== "object" || !("cases" in raw) || !Array.isArray(raw.cases)) {
    return [];
  }
  const out: Array<[number, CaseEntry]> = [];
  for (const [i, item] of (raw.cases as unknown[]).entries()) {
    const result = WatchlistCaseFile.safeParse(item);
    if (result.success) out.push([i, result.data]);
    else {
      const salvaged = salvageCase(item);
      if (salvaged) out.push([i, salvaged]);
    }
  }
  return out;
}

function textItems(value: unknown): string[] | null {
  return Array.isArray(value) ? value.filter((a): a is string => typeof a === "string") : null;
}

function listOrNull(value: unknown): unknown[] | null {
  return Array.isArray(value) ? value : null;
}

/**
 * The parts of a malformed case that can still be checked, so a typo elsewhere hides nothing.
 * A part of the wrong type is left out: the schema has already reported it.
 */
function salvageCase(item: unknown): CaseEntry | null {
  if (item === null || typeof item !== "object" || Array.isArray(item)) return null;
  const fields = item as Record<string, unknown>;
  return {
    number: typeof fields.number === "string" ? fields.number : null,
    court: typeof fields.court === "string" ? fields.court : null,
    label: null,
    notify: textItems(fields.notify),
    channels: textItems(fields.channels),
    ignore: listOrNull(fields.ignore),
    urgent: listOrNull(fields.urgent),
    muted: typeof fields.muted === "boolean" ? fields.muted : null,
    muted_until: fields.muted_until,
    escalation: fields.escalation,
  };
}

function wellShapedDefaults(
  raw: unknown,
  parsed: WatchlistFile | undefined,
): WatchlistDefaultsFile {
  if (parsed) return parsed.defaults ?? {};
  if (raw === null || typeof raw !== "object" || !("defaults" in raw)) return {};
  const result = WatchlistDefaultsFile.safeParse(raw.defaults);
  if (result.success) return result.data;
  if (raw.defaults === null || typeof raw.defaults !== "object") return {};
  const fields = raw.defaults as Record<string, unknown>;
  return {
    notify: textItems(fields.notify),
    channels: textItems(fields.channels),
    ignore: listOrNull(fields.ignore),
    urgent: listOrNull(fields.urgent),
    oab: listOrNull(fields.oab),
    escalation: fields.escalation,
  };
}

/**
 * `defaults.oab` (told to defaults.notify) and each watcher's `oab` (told to that address), and
 * the addresses of watchers that follow a registration: they need no case of their own.
 */
function parseWatchedOabs(
  source: YamlSource,
  defaultsEntry: WatchlistDefaultsFile,
  defaults: readonly string[],
  watcherEntries: ReturnType<typeof wellShapedWatchers>,
  errors: PositionedError[],
): { oab: WatchedOab[]; followers: string[] } {
  const entries: Array<Parameters<typeof mergeOabs>[0][number]> = [];
  const fromDefaults = parseOabList(source, ["defaults", "oab"], defaultsEntry.oab, errors);
  if (fromDefaults.length > 0 && defaults.length === 0) {
    errors.push(
      errorAtPath(
        source,
        ["defaults", "oab"],
        "defaults.oab tells defaults.notify of what DJEN publishes for these registrations, and defaults.notify is empty: add addresses to defaults.notify, or list the registrations under watchers: with the address to tell",
        "key",
      ),
    );
  }
  for (const found of fromDefaults) entries.push({ ...found, notify: defaults });
  const followers: string[] = [];
  for (const [index, entry] of watcherEntries) {
    const found = parseOabList(source, ["watchers", index, "oab"], entry.oab, errors);
    const address = entry.address === null ? null : normalizeEmailAddress(entry.address);
    if (found.length === 0 || address === null) continue;
    followers.push(address);
    for (const f of found) entries.push({ ...f, notify: [address] });
  }
  return { oab: mergeOabs(entries), followers };
}

function checkRoot(source: YamlSource): PositionedError | null {
  const root: unknown = source.doc.contents;
  if (root === null || isMap(root)) return null;
  const message = isSeq(root)
    ? "the list of cases must be under a `cases:` key: write `cases:` on the first line and indent the list below it"
    : "the watchlist must be a mapping with a `cases:` key (see watchlist.example.yaml)";
  return errorAtPath(source, [], message);
}

export interface WatchlistOptions {
  /** The configured endpoint names: a `channels:` item naming another is then an error. */
  endpoints?: readonly string[];
  /** Of those, the WhatsApp endpoints without `to:`: an escalation step naming one is an error. */
  perWatcherEndpoints?: readonly string[];
  /**
   * Whether acknowledgement links are on: false makes an `escalation:` an error (validate, the
   * daemon's start and reloads, run-once); undefined: not checked.
   */
  acknowledgement?: boolean;
}

/** Validates a watchlist and collects every error in it, each at its line and column. */
/** The watchlist file read as far as YAML and its shape: what the rest is checked from. */
interface WatchlistTree {
  source: YamlSource;
  /** The plain value of the document (an empty one: `{}`). */
  raw: unknown;
  /** The whole file checked by the schema; undefined when it is not (entries are then read one by one). */
  parsed: WatchlistFile | undefined;
  /** The text as decoded. */
  content: string;
}

/**
 * Size, UTF-8, YAML syntax, a mapping at the root and the schema's shape. Errors of the shape and
 * of the encoding are added to `errors` and reading goes on; any other ends it with the errors to
 * give (`stop`).
 */
function readWatchlistTree(
  text: string | Uint8Array,
  file: string,
  errors: PositionedError[],
): WatchlistTree | { stop: PositionedError[] } {
  const size = typeof text === "string" ? Buffer.byteLength(text) : text.byteLength;
  if (size > WATCHLIST_MAX_BYTES) {
    const mib = (size / 2 ** 20).toFixed(1);
    const message = `the watchlist is ${mib} MiB; at most ${WATCHLIST_MAX_BYTES / 2 ** 20} MiB is read (10,000 cases take about 1 MiB): look for a pasted blob or split the watchlist`;
    return { stop: [{ file, line: 1, col: 1, message }] };
  }
  let content: string;
  if (typeof text === "string") {
    content = text;
  } else {
    const decoded = decodeUtf8(text, file);
    content = decoded.text;
    if (decoded.error) errors.push(decoded.error);
  }
  const { source, errors: syntax } = parseYamlSource(content, file);
  if (syntax.length > 0) {
    // After a syntax error the tree is a guess; checking its shape would only add noise.
    return { stop: [...errors, ...syntax].sort(comparePositionedErrors) };
  }
  const rootError = checkRoot(source);
  if (rootError) return { stop: [...errors, rootError] };
  const plain = plainValue(source, 1000);
  if (!plain.ok) return { stop: [...errors, plain.error] };
  const raw: unknown = plain.value ?? {};
  const shape = WatchlistFile.safeParse(raw);
  if (!shape.success) {
    errors.push(
      ...issuesToErrors(source, WatchlistFile, shape.error.issues, {
        unknownKeyHint: alertKeyHint,
      }),
    );
  }
  return { source, raw, parsed: shape.success ? shape.data : undefined, content };
}

/** What every case starts from: the defaults' addresses, channels and rules. */
interface CaseDefaults {
  notify: string[];
  channels: string[];
  rules: ScopeRules;
  escalation: EscalationChain | null;
}

/** Every address some notify list names, by its lower case, as first written. */
type Notified = Map<string, string>;

function noteAddresses(notified: Notified, addresses: readonly string[]): void {
  for (const address of addresses) {
    if (!notified.has(address.toLowerCase())) notified.set(address.toLowerCase(), address);
  }
}

/**
 * The watchers an escalation chain names: they are told of alerts (their steps), so their
 * `watchers:` settings (a WhatsApp number, above all) are theirs to give.
 */
function chainWatchers(chain: EscalationChain | null): string[] {
  return (chain?.chain ?? []).flatMap((t) => (t.kind === "watcher" ? [t.address] : []));
}

/**
 * The watched cases, each once per number and court; a refused case's addresses still count as
 * named (its watchers' settings are checked all the same).
 */
function parseCases(
  tree: WatchlistTree,
  defaults: CaseDefaults,
  options: WatchlistOptions,
  notified: Notified,
  errors: PositionedError[],
): WatchedCase[] {
  const { source } = tree;
  const cases: WatchedCase[] = [];
  const firstLine = new Map<string, number>();
  for (const [index, entry] of wellShapedCases(tree.raw, tree.parsed)) {
    const at: YamlPath = ["cases", index];
    const line = caseLine(source, index);
    const notify = [...defaults.notify];
    collectAddresses(source, [...at, "notify"], entry.notify, notify, errors);
    noteAddresses(notified, notify);
    const channels = [...defaults.channels];
    const where: YamlPath = [...at, "channels"];
    collectChannels(source, where, entry.channels, channels, options.endpoints, errors);
    const policy = parseCasePolicy(source, at, entry, defaults.rules, errors);
    const own = parseEscalation(source, [...at, "escalation"], entry.escalation, options, errors);
    const escalation = own === undefined ? defaults.escalation : own === "off" ? null : own;
    noteAddresses(notified, chainWatchers(escalation));
    if (entry.number === null) continue;
    const cnj = parseCnjNumber(entry.number);
    if (!cnj.ok) {
      errors.push(errorAtPath(source, [...at, "number"], cnj.error));
      continue;
    }
    const explicit = blankToNull(entry.court) ?? undefined;
    const court = resolveCaseCourt(source, at, cnj.value, explicit, errors);
    if (court === null) continue;
    const identity = `${cnj.value.digits}|${court}`;
    const first = firstLine.get(identity);
    if (first !== undefined) {
      errors.push(
        errorAtPath(
          source,
          [...at, "number"],
          `${cnj.value.formatted} (${court}) is already listed on line ${first}; remove one of them (to follow another court's record of the same number, give it a different court:)`,
        ),
      );
      continue;
    }
    firstLine.set(identity, line);
    cases.push({
      number: cnj.value.formatted,
      digits: cnj.value.digits,
      court,
      label: blankToNull(entry.label),
      notify,
      channels,
      policy,
      ...(escalation === null ? {} : { escalation }),
      line,
    });
  }
  return cases;
}

export function parseWatchlist(
  text: string | Uint8Array,
  file: string,
  options: WatchlistOptions = {},
): WatchlistResult {
  const errors: PositionedError[] = [];
  const tree = readWatchlistTree(text, file, errors);
  if ("stop" in tree) return { ok: false, errors: tree.stop };
  const { source, raw, parsed } = tree;
  const defaultsEntry = wellShapedDefaults(raw, parsed);
  const defaults = parseDefaults(source, defaultsEntry, options, errors);
  const notified: Notified = new Map();
  noteAddresses(notified, defaults.notify);
  noteAddresses(notified, chainWatchers(defaults.escalation));
  const cases = parseCases(tree, defaults, options, notified, errors);
  const audience = parseAudience(tree, defaultsEntry, defaults, options, notified, errors);

  if (errors.length > 0) return { ok: false, errors: errors.sort(comparePositionedErrors) };
  return {
    ok: true,
    watchlist: {
      file,
      defaults: {
        notify: defaults.notify,
        channels: defaults.channels,
        ...defaults.rules,
        ...(defaults.escalation === null ? {} : { escalation: defaults.escalation }),
      },
      cases,
      ...audience,
    },
    warnings:
      parsed === undefined ? [] : watchlistWarnings(source, parsed).sort(comparePositionedErrors),
    text: tree.content,
  };
}

/** The defaults: block, what every case starts from. */
function parseDefaults(
  source: YamlSource,
  entry: WatchlistDefaultsFile,
  options: WatchlistOptions,
  errors: PositionedError[],
): CaseDefaults {
  const notify: string[] = [];
  collectAddresses(source, ["defaults", "notify"], entry.notify, notify, errors);
  const channels: string[] = [];
  collectChannels(
    source,
    ["defaults", "channels"],
    entry.channels,
    channels,
    options.endpoints,
    errors,
  );
  const rules = parseScopeRules(source, ["defaults"], entry, errors);
  const escalation = parseEscalation(
    source,
    ["defaults", "escalation"],
    entry.escalation,
    options,
    errors,
  );
  return {
    notify,
    channels,
    rules,
    // `false` under defaults is as good as absent: nothing escalates unless a case says so.
    escalation: typeof escalation === "object" ? escalation : null,
  };
}

/**
 * Who else is watched and told: the OAB registrations and their followers, the parties of the
 * radar, and the watchers' own settings for every address some notify list names.
 */
function parseAudience(
  tree: WatchlistTree,
  defaultsEntry: WatchlistDefaultsFile,
  defaults: CaseDefaults,
  options: WatchlistOptions,
  notified: Notified,
  errors: PositionedError[],
): Pick<Watchlist, "watchers" | "oab" | "parties"> {
  const { source, raw, parsed } = tree;
  const watcherEntries = wellShapedWatchers(raw, parsed);
  const { oab, followers } = parseWatchedOabs(
    source,
    defaultsEntry,
    defaults.notify,
    watcherEntries,
    errors,
  );
  noteAddresses(notified, followers);
  const parties = parseParties(
    source,
    wellShapedParties(raw, parsed === undefined ? undefined : (parsed.parties ?? [])),
    { notify: defaults.notify, channels: defaults.channels },
    options.endpoints,
    errors,
  );
  noteAddresses(
    notified,
    parties.flatMap((p) => p.notify),
  );
  const watchers = parseWatchers(source, watcherEntries, [...notified.values()], errors);
  return { watchers, oab, parties };
}

function readProblem(read: Exclude<UserFileRead, { ok: true }>, path: string): string {
  switch (read.problem) {
    case "missing":
      return `the watchlist ${path} does not exist; create it (copy watchlist.example.yaml to ${path} and list your cases) or point MONITOR_WATCHLIST at yours`;
    case "not_a_file":
      return `${read.detail}; MONITOR_WATCHLIST must name a YAML file`;
    case "too_large":
      return `the watchlist is too large: ${read.detail} (10,000 cases take about 1 MiB): look for a pasted blob or split the watchlist`;
    case "unreadable":
      return read.detail === "permission denied"
        ? "the watchlist cannot be read (permission denied); let the monitor's user read it"
        : `the watchlist cannot be read (${read.detail})`;
  }
}

export async function loadWatchlist(
  path: string,
  options: WatchlistOptions = {},
): Promise<WatchlistResult> {
  const read = readUserFile(path, WATCHLIST_MAX_BYTES);
  if (!read.ok) {
    return {
      ok: false,
      errors: [{ file: path, line: 1, col: 1, message: readProblem(read, path) }],
    };
  }
  return parseWatchlist(read.bytes, path, options);
}
