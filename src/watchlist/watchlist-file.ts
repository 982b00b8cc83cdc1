import { z } from "zod";
import { MovementRuleListFile } from "./parse-ignore-urgent.js";
import { OabListFile } from "./parse-oab.js";
import { PartyFile } from "./parse-parties.js";
import { WatcherFile } from "./parse-watchers.js";

/*
 * The file's shape. Every object is strict so a misspelt key is an error instead of a silently
 * ignored setting; new per-case or default keys go into these objects and nowhere else.
 */
const AddressList = z.array(z.string()).nullable().optional();
/** Endpoint names (parse-channels.ts). */
const ChannelList = z.array(z.string()).nullable().optional();

export const WatchlistDefaultsFile = z.strictObject({
  notify: AddressList,
  channels: ChannelList,
  ignore: MovementRuleListFile,
  urgent: MovementRuleListFile,
  oab: OabListFile,
  // Checked in parse-escalation.ts, key by key at its own position.
  escalation: z.unknown().optional(),
});
export type WatchlistDefaultsFile = z.infer<typeof WatchlistDefaultsFile>;

/** Longest label: it is every alert's subject and title; a longer one is a mistake or an attack. */
export const LABEL_MAX = 200;

export const WatchlistCaseFile = z.strictObject({
  number: z.string(),
  label: z
    .string()
    .max(LABEL_MAX, `a label is at most ${LABEL_MAX} characters; shorten it`)
    .nullable()
    .optional(),
  court: z.string().nullable().optional(),
  notify: AddressList,
  channels: ChannelList,
  ignore: MovementRuleListFile,
  urgent: MovementRuleListFile,
  muted: z.boolean().nullable().optional(),
  // Any value: parse-alert-settings.ts says what is wrong with one that is not a date.
  muted_until: z.unknown().optional(),
  // A case's own chain, or false: parse-escalation.ts.
  escalation: z.unknown().optional(),
});
export type WatchlistCaseFile = z.infer<typeof WatchlistCaseFile>;

export const WatchlistFile = z.strictObject({
  defaults: WatchlistDefaultsFile.nullable().optional(),
  cases: z.array(WatchlistCaseFile).nullable().optional(),
  watchers: z.array(WatcherFile).nullable().optional(),
  parties: z.array(PartyFile).nullable().optional(),
});
export type WatchlistFile = z.infer<typeof WatchlistFile>;
