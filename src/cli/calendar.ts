import { randomBytes } from "node:crypto";
import { calendarFeed } from "../calendar/feed.js";
import { newFeedToken } from "../calendar/feed-token.js";
import { CALENDAR_PATH } from "../calendar/http-route.js";
import { addressProblem, normalizeEmailAddress } from "../email-address.js";
import { hostForUrl } from "../http/listen-address.js";
import {
  insertCalendarToken,
  listCalendarTokens,
  revokeCalendarToken,
} from "../store/calendar-tokens.js";
import { closeDatabase, immediate } from "../store/database.js";
import { parseIsoDate } from "../time/calendar-date.js";
import { dateNow, isoNow } from "../time/clock.js";
import { calendarBook } from "../time/court-calendar.js";
import { type Command, EXIT, programOf, systemOf, UsageError } from "./command.js";
import { loadRuntime, openRecordedDatabase, type Runtime } from "./runtime.js";

function dayOption(name: string, value: unknown): string | null {
  if (value === undefined) return null;
  const text = String(value);
  if (parseIsoDate(text) !== text) {
    throw new UsageError(`--${name} must be a date like 2026-01-31, not "${text}"`);
  }
  return text;
}

function watcherOption(value: unknown): string | null {
  if (value === undefined) return null;
  const address = normalizeEmailAddress(String(value));
  if (address === null) throw new UsageError(`--watcher: ${addressProblem(String(value))}`);
  return address.toLowerCase();
}

export const calendarCommand: Command = {
  name: "calendar",
  summary:
    "The last days and sessions the monitor estimated, as an iCalendar feed (Outlook, Google Calendar)",
  usage:
    "datajud-monitor calendar [--watcher ADDRESS] [--since YYYY-MM-DD] [--until YYYY-MM-DD] > prazos.ics",
  details: [
    "--watcher ADDRESS  only what ADDRESS follows: the publications of the cases it watches and of",
    "                   the OAB registrations it follows (default: everything someone follows)",
    "--since DATE       events on or after DATE (default: calendarFeed.pastDays before today)",
    "--until DATE       events on or before DATE (default: no end)",
    "Each last day is an all-day event (an estimate: the rule, counting start and publication are in",
    "its description); each session a pauta announces is timed at the court's clock. Cancelled",
    "publications stay, marked cancelled. The daemon serves the same feed per watcher at a private",
    "address: see calendar-token.",
    "Exit codes: 0 written (also with no events), 2 a bad date or address, bad config, or no database yet.",
  ],
  options: {
    watcher: { type: "string" },
    since: { type: "string" },
    until: { type: "string" },
  },
  async run(args, io) {
    const watcher = watcherOption(args.values.watcher);
    const since = dayOption("since", args.values.since);
    const until = dayOption("until", args.values.until);
    if (since !== null && until !== null && until < since) {
      throw new UsageError(`--until ${until} is before --since ${since}`);
    }
    const runtime = loadRuntime(io, "calendar");
    if (!runtime) return EXIT.usage;
    const db = openRecordedDatabase(io, runtime, "calendar");
    if (db === null) return EXIT.usage;
    try {
      const feed = calendarFeed(db, { watcher, since, until }, runtime.config.calendarFeed, {
        now: dateNow(systemOf(io).clock),
        calendars: calendarBook(runtime.config.calendar.closures),
      });
      io.stdout.write(feed.ics);
      if (feed.events === 0) {
        io.stderr.write(
          `${programOf(io)} calendar: no events${watcher === null ? "" : ` for ${watcher}`}: no estimated last day or session in that period${watcher === null ? "" : " (is it the address the watchlist notifies?)"}\n`,
        );
      }
      return EXIT.ok;
    } finally {
      closeDatabase(db);
    }
  },
};

/** Where the daemon serves a token's feed, as far as this configuration tells. */
function feedAddress(runtime: Runtime, token: string, baseUrl: string | null): string {
  const path = `${CALENDAR_PATH}${token}.ics`;
  if (baseUrl !== null) return `${baseUrl.replace(/\/+$/u, "")}${path}`;
  const listen = runtime.config.http.listen;
  return listen === null ? path : `http://${hostForUrl(listen.host)}:${listen.port}${path}`;
}

function baseUrlOption(value: unknown): string | null {
  if (value === undefined) return null;
  const text = String(value);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--base-url must be a URL like https://agenda.example.com, not "${text}"`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new UsageError(`--base-url must be an https URL, not "${text}"`);
  }
  return url.href;
}

function servingProblems(runtime: Runtime): string[] {
  const problems: string[] = [];
  if (!runtime.config.calendarFeed.serve) problems.push("calendarFeed.serve is false");
  if (runtime.config.http.listen === null) problems.push("http.listen is not set");
  return problems;
}

export const calendarTokenCommand: Command = {
  name: "calendar-token",
  summary: "Private calendar feed addresses: create one for a watcher, list them, revoke one",
  usage:
    "datajud-monitor calendar-token create --watcher ADDRESS [--label TEXT] [--base-url URL] | list | revoke ID",
  details: [
    "create   a new address for ADDRESS's feed, printed once: whoever has it reads that watcher's",
    "         deadlines, so hand it over like a password (only its hash is stored)",
    '         --label TEXT  what tells it apart in the list ("Ana, Outlook")',
    "         --base-url    the public https address of the daemon (a reverse proxy's), to print",
    "                       the whole URL a calendar client subscribes to",
    "list     every address made: id, watcher, label, created, revoked (never the token)",
    "revoke   ID stops that address at once (the client then gets 404)",
    "The daemon serves the addresses when calendarFeed.serve is true and http.listen is set.",
    "Exit codes: 0 done, 1 no active address with that ID, 2 bad usage or config, or no database yet.",
  ],
  options: {
    watcher: { type: "string" },
    label: { type: "string" },
    "base-url": { type: "string" },
  },
  allowPositionals: true,
  async run(args, io) {
    const [action, ...rest] = args.positionals;
    if (action !== "create" && action !== "list" && action !== "revoke") {
      throw new UsageError(
        action === undefined
          ? "say what to do: create, list or revoke"
          : `unknown action "${action}"`,
      );
    }
    const idText = action === "revoke" ? rest.shift() : undefined;
    if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
    const id = idText === undefined ? null : Number(idText);
    if (action === "revoke" && (id === null || !Number.isInteger(id) || id < 1)) {
      throw new UsageError("revoke needs the ID that calendar-token list shows");
    }
    const watcher = watcherOption(args.values.watcher);
    if (action === "create" && watcher === null)
      throw new UsageError("create needs --watcher ADDRESS");
    const baseUrl = baseUrlOption(args.values["base-url"]);
    const label = args.values.label === undefined ? null : String(args.values.label).trim() || null;
    const runtime = loadRuntime(io, "calendar-token");
    if (!runtime) return EXIT.usage;
    const db = openRecordedDatabase(io, runtime, "calendar-token");
    if (db === null) return EXIT.usage;
    const now = isoNow(systemOf(io).clock);
    try {
      if (action === "list") {
        for (const t of listCalendarTokens(db)) {
          const state = t.revokedAt === null ? "active" : `revoked ${t.revokedAt}`;
          io.stdout.write(
            `${t.id}\t${t.recipient}\t${t.label ?? "-"}\tcreated ${t.createdAt}\t${state}\n`,
          );
        }
        return EXIT.ok;
      }
      if (action === "revoke") {
        const revoked = immediate(db, () => revokeCalendarToken(db, id ?? 0, now));
        if (!revoked) {
          io.stderr.write(
            `${programOf(io)} calendar-token: no active address with id ${id}; see calendar-token list\n`,
          );
          return EXIT.failures;
        }
        io.stdout.write(`revoked calendar address ${id}\n`);
        return EXIT.ok;
      }
      const { token, hash } = newFeedToken(randomBytes);
      const created = immediate(db, () =>
        insertCalendarToken(db, { hash, recipient: watcher ?? "", label, at: now }),
      );
      io.stdout.write(`${feedAddress(runtime, token, baseUrl)}\n`);
      io.stderr.write(
        `calendar address ${created} for ${watcher}: shown once, keep it like a password (revoke: datajud-monitor calendar-token revoke ${created})\n`,
      );
      const problems = servingProblems(runtime);
      if (problems.length > 0) {
        io.stderr.write(`the daemon does not serve it yet: ${problems.join(", ")}\n`);
      }
      return EXIT.ok;
    } finally {
      closeDatabase(db);
    }
  },
};
