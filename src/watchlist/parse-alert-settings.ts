import type { YamlPath } from "../yaml/yaml-source.js";

/*
 * The watchlist's alert-policy keys: `ignore`/`urgent` (defaults and cases), `muted`/`muted_until`
 * (cases) and `watchers`. The schemas only say which keys exist and what must be a list; the values
 * are checked here, item by item, so every bad item gets its own message at its own position and a
 * bad value never makes the rest of its case unreadable.
 */

const PER_CASE_KEYS = new Set(["muted", "muted_until"]);
const PER_WATCHER_KEYS = new Set([
  "delivery",
  "digest_schedule",
  "status_report",
  "whatsapp",
  "receipt",
]);

/** For issuesToErrors: keys written at the wrong level get told where they belong. */
export function alertKeyHint(path: YamlPath, key: string): string | undefined {
  const scope = path[0];
  const inScope =
    (scope === "defaults" && path.length === 1) || (scope === "cases" && path.length === 2);
  if (!inScope) return undefined;
  if (scope === "defaults" && PER_CASE_KEYS.has(key)) {
    return `muting is set per case; put ${key}: under the case in cases:`;
  }
  if (scope === "cases" && key === "oab") {
    return "OAB registrations are followed for everyone (under defaults:, told to defaults.notify) or per address (an entry under watchers: with address: and oab:), not per case";
  }
  if (PER_WATCHER_KEYS.has(key)) {
    return `${key} is set per address; add an entry under watchers: with address: and ${key}:`;
  }
  return undefined;
}
