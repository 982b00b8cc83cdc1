import { isMap, isScalar } from "yaml";
import { z } from "zod";
import { addressProblem, normalizeEmailAddress } from "../email-address.js";
import { E164, phoneNumberProblem } from "../phone-number.js";
import type { Delivery, WatcherSettings } from "../policy/alert-rules.js";
import { suggestName } from "../text.js";
import { cronProblem } from "../time/cron.js";
import { describeValue } from "../yaml/issue-messages.js";
import type { PositionedError } from "../yaml/positioned-error.js";
import {
  errorAtPath,
  lineAt,
  nodeAt,
  type YamlPath,
  type YamlSource,
} from "../yaml/yaml-source.js";

/**
 * `watchers:`: how each address gets its mail (delivery, digest schedule, status report, daily
 * receipt), and the WhatsApp number a per-watcher whatsapp endpoint sends their alerts to.
 */

/** One item of `watchers:`. Only the address is typed here; the rest is checked in parseWatchers. */
export const WatcherFile = z.strictObject({
  address: z.string(),
  delivery: z.unknown().optional(),
  digest_schedule: z.unknown().optional(),
  status_report: z.unknown().optional(),
  receipt: z.unknown().optional(),
  // Checked item by item in parse-oab.ts.
  oab: z.unknown().optional(),
  // Checked in parseWhatsApp: a number YAML read as one is refused with its fix.
  whatsapp: z.unknown().optional(),
});
export type WatcherFile = z.infer<typeof WatcherFile>;

/** A watchers item once its address is known to be text (null: missing or not text). */
export type WatcherEntry = Omit<WatcherFile, "address"> & { address: string | null };

const DELIVERIES = ["instant", "digest"] as const satisfies readonly Delivery[];

/** The part of an address before its last @, and the part after. */
function splitAddress(address: string): [string, string] {
  const at = address.lastIndexOf("@");
  return [address.slice(0, at), address.slice(at + 1)];
}

/**
 * A notified address that differs from `address` by a typo in one part only: comparing whole
 * addresses would offer ana@example.com for rui@example.com, as both share a long domain.
 */
function closeAddress(address: string, known: readonly string[]): string | undefined {
  const [local, domain] = splitAddress(address);
  const sameDomain = known.filter((k) => splitAddress(k)[1] === domain);
  const local2 = suggestName(
    local,
    sameDomain.map((k) => splitAddress(k)[0]),
  );
  if (local2 !== undefined) return sameDomain.find((k) => splitAddress(k)[0] === local2);
  const sameLocal = known.filter((k) => splitAddress(k)[0].toLowerCase() === local.toLowerCase());
  const domain2 = suggestName(
    domain,
    sameLocal.map((k) => splitAddress(k)[1]),
  );
  return domain2 === undefined ? undefined : sameLocal.find((k) => splitAddress(k)[1] === domain2);
}

function parseDelivery(
  source: YamlSource,
  at: YamlPath,
  value: unknown,
  errors: PositionedError[],
): Delivery | null | "invalid" {
  if (value === null || value === undefined) return null;
  const found = DELIVERIES.find((d) => d === value);
  if (found !== undefined) return found;
  const suggestion = typeof value === "string" ? suggestName(value, DELIVERIES) : undefined;
  const tail = suggestion === undefined ? "" : `; did you mean "${suggestion}"?`;
  errors.push(
    errorAtPath(
      source,
      [...at, "delivery"],
      `delivery must be instant or digest, got ${describeValue(value)}${tail}`,
    ),
  );
  return "invalid";
}

/** A watcher's `whatsapp:` number (E.164, as written), null when absent or refused. */
function parseWhatsApp(
  source: YamlSource,
  at: YamlPath,
  value: unknown,
  errors: PositionedError[],
): string | null {
  if (value === null || value === undefined) return null;
  const path = [...at, "whatsapp"];
  if (typeof value === "number") {
    errors.push(
      errorAtPath(
        source,
        path,
        `whatsapp: write the number in quotes, like "+5511987654321" (without them YAML reads it as a number and drops the +)`,
      ),
    );
    return null;
  }
  if (typeof value !== "string") {
    errors.push(
      errorAtPath(
        source,
        path,
        `whatsapp: expected a phone number in quotes, like "+5511987654321", got ${describeValue(value)}`,
      ),
    );
    return null;
  }
  const number = value.trim();
  if (!E164.test(number)) {
    errors.push(errorAtPath(source, path, `whatsapp: ${phoneNumberProblem(number)}`));
    return null;
  }
  return number;
}

function parseSchedule(
  source: YamlSource,
  path: YamlPath,
  value: unknown,
  example: string,
  errors: PositionedError[],
): string | null {
  if (value === null || value === undefined) return null;
  const key = String(path[path.length - 1]);
  const refuse = (problem: string): null => {
    errors.push(errorAtPath(source, path, problem));
    return null;
  };
  if (typeof value !== "string") {
    return refuse(
      `${key}: expected a cron expression in quotes, like ${example}, got ${describeValue(value)}`,
    );
  }
  const text = value.trim();
  if (text === "") {
    return refuse(`${key} is empty; remove the line, or write a cron expression like ${example}`);
  }
  const why = cronProblem(text);
  if (why !== null) {
    return refuse(
      `${key}: "${text}" is not a cron schedule: ${why}; write minute hour day-of-month month weekday, like ${example}`,
    );
  }
  return text;
}

/** The hour of a receipt given as `receipt: true`. */
export const DEFAULT_RECEIPT_AT = "18:00";

/** `receipt:` true (at 18:00), false, or "HH:MM" in the schedule's zone; null: none. */
function parseReceipt(
  source: YamlSource,
  path: YamlPath,
  value: unknown,
  errors: PositionedError[],
): string | null {
  if (value === null || value === undefined || value === false) return null;
  if (value === true) return DEFAULT_RECEIPT_AT;
  const text = typeof value === "string" ? value.trim() : null;
  const match = text === null ? null : /^(\d{1,2}):(\d{2})$/u.exec(text);
  const hour = Number(match?.[1]);
  const minute = Number(match?.[2]);
  if (match !== null && hour <= 23 && minute <= 59) {
    return `${String(hour).padStart(2, "0")}:${match[2]}`;
  }
  errors.push(
    errorAtPath(
      source,
      path,
      `receipt: expected true (a receipt at ${DEFAULT_RECEIPT_AT}), false, or a time of day in quotes like "19:30", got ${describeValue(value)}`,
    ),
  );
  return null;
}

/**
 * Each item of `watchers:` that is a mapping, with its index, even when other parts of the file
 * are malformed (`parsed` undefined); its address only if it is text.
 */
export function wellShapedWatchers(
  raw: unknown,
  parsed: { watchers?: readonly WatcherFile[] | null | undefined } | undefined,
): Array<[number, WatcherEntry]> {
  if (parsed) return (parsed.watchers ?? []).map((w, i) => [i, w]);
  if (raw === null || typeof raw !== "object" || !("watchers" in raw)) return [];
  if (!Array.isArray(raw.watchers)) return [];
  const out: Array<[number, WatcherEntry]> = [];
  for (const [i, item] of (raw.watchers as unknown[]).entries()) {
    if (item === null || typeof item !== "object" || Array.isArray(item)) continue;
    const fields = item as Record<string, unknown>;
    out.push([
      i,
      {
        address: typeof fields.address === "string" ? fields.address : null,
        delivery: fields.delivery,
        digest_schedule: fields.digest_schedule,
        status_report: fields.status_report,
        receipt: fields.receipt,
        oab: fields.oab,
        whatsapp: fields.whatsapp,
      },
    ]);
  }
  return out;
}

/** The keys written in the mapping at `path`, as text. */
function keysAt(source: YamlSource, path: YamlPath): string[] {
  const { node, depth } = nodeAt(source, path);
  if (depth !== path.length || !isMap(node)) return [];
  return node.items.flatMap((pair) => (isScalar(pair.key) ? [String(pair.key.value)] : []));
}

function isMisspeltDelivery(key: string): boolean {
  return key !== "delivery" && suggestName(key, ["delivery"]) === "delivery";
}

/**
 * The `watchers:` entries, in file order. `notified` is every address of every notify list: a
 * watcher nobody sends alerts to is almost always a typo of one who is.
 */
/** A digest_schedule on a watcher that is not delivered by digest is an error with its fix. */
function checkScheduleIsDigest(
  source: YamlSource,
  at: YamlPath,
  entry: WatcherEntry,
  delivery: ReturnType<typeof parseDelivery>,
  errors: PositionedError[],
): void {
  const hasSchedule = entry.digest_schedule !== null && entry.digest_schedule !== undefined;
  // A misspelt `delivery` key already has its own "did you mean" error, which is the fix.
  const deliveryMisspelt = delivery === null && keysAt(source, at).some(isMisspeltDelivery);
  if (hasSchedule && !deliveryMisspelt && (delivery === null || delivery === "instant")) {
    const fix =
      delivery === null
        ? "add delivery: digest to this entry or remove digest_schedule"
        : "this entry has delivery: instant; change it to delivery: digest or remove digest_schedule";
    errors.push(
      errorAtPath(
        source,
        [...at, "digest_schedule"],
        `digest_schedule only applies to a digest; ${fix}`,
        "key",
      ),
    );
  }
}

export function parseWatchers(
  source: YamlSource,
  entries: ReadonlyArray<readonly [number, WatcherEntry]>,
  notified: readonly string[],
  errors: PositionedError[],
): WatcherSettings[] {
  const known = new Set(notified.map((a) => a.toLowerCase()));
  const firstLine = new Map<string, number>();
  const out: WatcherSettings[] = [];
  for (const [index, entry] of entries) {
    const at: YamlPath = ["watchers", index];
    const line = lineAt(source, nodeAt(source, at).node?.range?.[0] ?? 0);
    const delivery = parseDelivery(source, at, entry.delivery, errors);
    const digestSchedule = parseSchedule(
      source,
      [...at, "digest_schedule"],
      entry.digest_schedule,
      '"0 18 * * 1-5" (18:00 on weekdays)',
      errors,
    );
    const statusReport = parseSchedule(
      source,
      [...at, "status_report"],
      entry.status_report,
      '"0 8 * * 1" (08:00 on Mondays)',
      errors,
    );
    const whatsapp = parseWhatsApp(source, at, entry.whatsapp, errors);
    const receipt = parseReceipt(source, [...at, "receipt"], entry.receipt, errors);
    checkScheduleIsDigest(source, at, entry, delivery, errors);

    if (entry.address === null) continue;
    const address = normalizeEmailAddress(entry.address);
    if (address === null) {
      errors.push(errorAtPath(source, [...at, "address"], addressProblem(entry.address)));
      continue;
    }
    const key = address.toLowerCase();
    const first = firstLine.get(key);
    if (first !== undefined) {
      errors.push(
        errorAtPath(
          source,
          [...at, "address"],
          `${address} is already listed under watchers on line ${first}; keep one entry per address`,
        ),
      );
      continue;
    }
    firstLine.set(key, line);
    if (!known.has(key)) {
      const suggestion = closeAddress(address, notified);
      const tail = suggestion === undefined ? "" : `; did you mean "${suggestion}"?`;
      errors.push(
        errorAtPath(
          source,
          [...at, "address"],
          `${address} does not receive alerts for any case; add it to a notify list, give it oab: registrations to follow, or remove this entry${tail}`,
        ),
      );
    }
    out.push({
      address,
      delivery: delivery === "invalid" ? null : delivery,
      digestSchedule,
      statusReport,
      ...(whatsapp === null ? {} : { whatsapp }),
      receipt,
      line,
    });
  }
  return out;
}
