import { createHash } from "node:crypto";
import { basename, extname } from "node:path";
import { stripAccents } from "../../text.js";

/**
 * Message-ID, In-Reply-To, References and List-Id values. Only hashes and our own validated domain
 * go into them, never a label, a DataJud string or an address, so nothing a user or a court typed
 * can reach a header.
 */

const DOMAIN =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** `<local@domain>` with nothing a header parser could split on. */
const MESSAGE_ID = /^<[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,200}@[A-Za-z0-9.-]{1,253}>$/;

function hash(parts: readonly string[], length: number): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, length);
}

/** Throws when `domain` is not a plain host name: it comes from configuration, so say so early. */
export function assertMessageIdDomain(domain: string): string {
  if (!DOMAIN.test(domain)) {
    throw new TypeError(
      `"${domain.replace(/[^\x20-\x7e]/g, "?")}" is not a host name usable in Message-ID (letters, digits, "-" and ".")`,
    );
  }
  return domain.toLowerCase();
}

/** The domain part of `monitor@example.com` or `Monitor <monitor@example.com>`; null if none. */
export function domainFromAddress(address: string): string | null {
  const match = /@([^\s<>@]+?)>?\s*$/.exec(address.trim());
  const domain = match?.[1];
  return domain !== undefined && DOMAIN.test(domain) ? domain.toLowerCase() : null;
}

/** What a case is known by across database rebuilds: its 20 digits and court alias. */
export function caseThreadKey(caseNumber: string, court: string): string {
  return `${caseNumber.replace(/\D/g, "")}.${court.trim().toLowerCase()}`;
}

/**
 * The synthetic message every alert about one case to one watcher replies to. It is never sent
 * itself: like issue-tracker notifications, even the first alert points at it, so clients that
 * thread by References group them from the start.
 */
export function threadId(caseKey: string, watcher: string, domain: string): string {
  const host = assertMessageIdDomain(domain);
  return `<case.${hash([caseKey, watcher.trim().toLowerCase()], 32)}@${host}>`;
}

/** Derived from the outbox row's unique key, so a resend after a crash repeats the same id. */
export function alertMessageId(dedupeKey: string, domain: string): string {
  const host = assertMessageIdDomain(domain);
  return `<alert.${hash([dedupeKey], 32)}@${host}>`;
}

export type GroupKind = "digest" | "admin";

/**
 * One message standing for several outbox rows (a digest, an operator alert). Hashed from the
 * rows' unique keys rather than their ids, so a rebuilt database cannot reuse it for other mail.
 */
export function groupMessageId(
  kind: GroupKind,
  dedupeKeys: readonly string[],
  domain: string,
): string {
  const host = assertMessageIdDomain(domain);
  return `<${kind}.${hash([kind, ...[...dedupeKeys].sort()], 32)}@${host}>`;
}

/** The group a row was claimed into by an earlier drain, or null. */
export function groupOfMessageId(value: string | null, kind: GroupKind): string | null {
  if (value === null || !value.startsWith(`<${kind}.`)) return null;
  return isSafeMessageId(value) ? value : null;
}

export function isSafeMessageId(value: string): boolean {
  return MESSAGE_ID.test(value);
}

/**
 * The List-Id identifier (RFC 2919) of one watchlist, e.g. `escritorio.example.com`: the name is
 * reduced to letters, digits and "-", and replaced by a hash when nothing readable is left.
 */
export function watchlistListId(watchlistName: string, domain: string): string {
  const host = assertMessageIdDomain(domain);
  const slug = stripAccents(watchlistName)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
  return `${slug === "" ? `watchlist-${hash([watchlistName], 8)}` : slug}.${host}`;
}

/**
 * The domain of our Message-IDs (from the From address, `localhost` when it has none usable) and
 * the watchlist's List-Id, as every sender of this process must compute them.
 */
export function mailIdentity(
  from: string,
  watchlistPath: string,
): { domain: string; listId: string } {
  const domain = domainFromAddress(from) ?? "localhost";
  return {
    domain,
    listId: watchlistListId(basename(watchlistPath, extname(watchlistPath)), domain),
  };
}
