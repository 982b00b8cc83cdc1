import ipaddr from "ipaddr.js";
import { z } from "zod";
import { isEmailAddress } from "../email-address.js";
import { parseListenAddress } from "../http/listen-address.js";
import { E164, phoneNumberProblem } from "../phone-number.js";
import { courtSeat, ufOfMunicipality } from "../time/calendar/court-seat.js";
import { parseIsoDate } from "../time/calendar-date.js";
import { cronProblem } from "../time/cron.js";
import { isTimeZone } from "../time/zoned-time.js";

/*
 * Settings as they are written in YAML (camelCase, grouped by the part of the monitor they steer).
 * config/default.yaml documents each one for users; the bounds here say what is refused and why.
 */

function wholeNumber(min: number, max: number, unit: string, maxReason?: string): z.ZodNumber {
  const suffix = unit === "" ? "" : ` ${unit}`;
  return z
    .number()
    .int()
    .min(min, { error: `must be at least ${min}${suffix}` })
    .max(max, { error: `must be at most ${max}${suffix}${maxReason ? `, ${maxReason}` : ""}` });
}

function urlOf(input: string, protocols: readonly string[]): boolean {
  try {
    const url = new URL(input);
    return protocols.includes(url.protocol) && url.hostname !== "";
  } catch {
    return false;
  }
}

/**
 * A URL's text fit for a message: whatever stands before its host's `@` (user and password, as a
 * proxy's URL carries them) and its query (where tokens go) replaced by `***`, whether it parses
 * or not: a malformed URL is where a message would quote it.
 */
export function maskUrlCredentials(text: string): string {
  const scheme = text.indexOf("//");
  const start = scheme === -1 ? 0 : scheme + 2;
  const rest = text.slice(start);
  const authorityEnd = rest.search(/[/?#]/u);
  const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
  const at = authority.lastIndexOf("@");
  let masked = at === -1 ? rest : `***@${rest.slice(at + 1)}`;
  const query = masked.indexOf("?");
  if (query !== -1) masked = `${masked.slice(0, query)}?***`;
  return `${text.slice(0, start)}${masked}`;
}

/**
 * A URL that is itself a credential (an SMTP URL with its password, a heartbeat's or a webhook's
 * capability URL): its value is never shown in a message, valid or not.
 */
export function credentialUrl(protocols: readonly string[], example: string): z.ZodString {
  const names = protocols.map((p) => `${p}//`).join(" or ");
  return z.string().refine((value) => urlOf(value, protocols), {
    error: `is not an ${names} URL, like ${example} (the value is not shown: it may hold a credential)`,
  });
}

const Cron5 = z.string().superRefine((value, ctx) => {
  const problem = cronProblem(value);
  if (problem !== null) {
    ctx.addIssue({
      code: "custom",
      message: `"${value}" is not a cron schedule: ${problem}; the default "0 7,12,17 * * 1-5" is 07:00, 12:00 and 17:00 on weekdays`,
    });
  }
});

const TimeZone = z.string().refine(isTimeZone, {
  error: (issue) =>
    `${JSON.stringify(issue.input)} is not an IANA time zone; use a name like "America/Sao_Paulo" or "America/Manaus"`,
});

const HttpUrl = z.string().refine((value) => urlOf(value, ["http:", "https:"]), {
  error: (issue) =>
    `${JSON.stringify(maskUrlCredentials(String(issue.input)))} is not an http(s) URL, like https://api-publica.datajud.cnj.jus.br`,
});

const MAILBOX = /^(?:[^<>]*<\s*[^\s@<>]+@[^\s@<>]+\s*>|[^\s@<>]+@[^\s@<>]+)$/u;

const Mailbox = z.string().refine((v) => MAILBOX.test(v.trim()), {
  error: (issue) =>
    `${JSON.stringify(issue.input)} is not a sender address; write "name <address>" or just the address`,
});

const Address = z.string().refine(isEmailAddress, {
  error: (issue) =>
    `${JSON.stringify(issue.input)} is not an e-mail address (like admin@example.com)`,
});

const NonEmpty = z.string().trim().min(1, { error: "must not be empty" });

const CLOCK_TIME = /^(?:[01]?\d|2[0-3]):[0-5]\d$/u;

const ClockTime = z.string().refine((v) => CLOCK_TIME.test(v.trim()), {
  error: (issue) =>
    `${JSON.stringify(issue.input)} is not a time of day; write it as HH:MM on a 24-hour clock, like "22:00" or "07:00"`,
});

/** Local times in schedule.timezone; a start after the end spans midnight. */
const QuietHours = z
  .strictObject({
    start: ClockTime.describe("When the window begins, HH:MM."),
    end: ClockTime.describe("When it ends, HH:MM; before `start`, the window spans midnight."),
  })
  .refine((q) => q.start.trim().padStart(5, "0") !== q.end.trim().padStart(5, "0"), {
    error:
      "start and end are the same time, which is no window at all; use null for no quiet hours",
  });

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export const MAIL_MODES = ["instant", "digest"] as const;

const TERMS_OF_USE = "the limit DataJud's terms of use set for every user (clause 3.13)";

const scheduleShape = {
  cron: Cron5,
  timezone: TimeZone,
  startJitterSeconds: wholeNumber(0, 3600, "seconds"),
  fullRereadDays: wholeNumber(1, 365, "days"),
};

const datajudShape = {
  baseUrl: HttpUrl,
  requestsPerMinute: wholeNumber(1, 120, "requests per minute", TERMS_OF_USE),
  // Most requests in flight at once; halved on overload, grown back when quiet.
  concurrency: wholeNumber(
    1,
    16,
    "requests at once",
    "DataJud is one public cluster shared by every user",
  ),
  timeoutMs: wholeNumber(100, 3_600_000, "ms"),
  totalTimeoutMs: wholeNumber(100, 86_400_000, "ms"),
  maxAttempts: wholeNumber(1, 10, "attempts"),
  batchSize: wholeNumber(1, 1000, "numbers per request"),
  // Largest DataJud answer read; a longer one is refused unread.
  maxResponseMb: wholeNumber(1, 1024, "MiB"),
  // Percent of requestsPerMinute the MCP tools may use while a sweep runs (all when none does).
  mcpSharePercent: wholeNumber(0, 100, "percent"),
};

const djenShape = {
  // false: no DJEN client is built and no DJEN tool is served.
  enabled: z.boolean(),
  baseUrl: HttpUrl,
  requestsPerMinute: wholeNumber(
    1,
    60,
    "requests per minute",
    "DJEN answers bursts with 429 and 500 and treats working around its limit as abuse",
  ),
  timeoutMs: wholeNumber(100, 600_000, "ms"),
  totalTimeoutMs: wholeNumber(100, 3_600_000, "ms"),
  maxAttempts: wholeNumber(1, 10, "attempts"),
  // Tool calls in flight at once; every request still passes the requestsPerMinute limiter.
  concurrency: wholeNumber(1, 8, "calls at once"),
  // A longer answer is a failed check, not read.
  maxResponseMb: wholeNumber(1, 256, "MiB"),
  // Days of disponibilização a sweep asks for, today included (São Paulo dates).
  windowDays: wholeNumber(1, 31, "days"),
  // How long one sweep waits for DJEN; 0: no limit.
  maxMinutesPerSweep: wholeNumber(0, 1440, "minutes"),
  // Hours between complete looks at a case number, an OAB registration, a watched party's name
  // (the radar), on working days; 0: every sweep.
  caseEveryHours: wholeNumber(0, 168, "hours"),
  oabEveryHours: wholeNumber(0, 168, "hours"),
  partyEveryHours: wholeNumber(1, 168, "hours"),
};

const monitorShape = {
  notFoundThreshold: wholeNumber(1, 100, "checks"),
  notifyOnBaseline: z.boolean(),
  checkRetentionDays: wholeNumber(0, 3650, "days"),
  // Days the record of watching keeps each entry; older ones become a signed anchor. 0: all.
  proofRetentionDays: wholeNumber(0, 3650, "days"),
  staleAfterDays: wholeNumber(1, 3650, "days"),
  // Requested after every finished sweep (`/fail` appended when it failed); null: off. A
  // capability URL: whoever has it can ping the check.
  heartbeatUrl: credentialUrl(["http:", "https:"], "https://hc-ping.com/<uuid>").nullable(),
};

const summarizerShape = {
  baseUrl: HttpUrl.nullable(),
  model: NonEmpty,
  maxIterations: wholeNumber(1, 50, "iterations"),
  maxOutputTokens: wholeNumber(256, 128_000, "tokens"),
  // One model call's limit; the first unanswered call sends the sweep's rest to the rules.
  callTimeoutMs: wholeNumber(5_000, 120_000, "ms"),
  runTokenBudget: wholeNumber(0, 1_000_000_000, "tokens"),
  dailyTokenBudget: wholeNumber(0, 1_000_000_000, "tokens"),
};

const mailShape = {
  from: Mailbox,
  // The delivery of watchers the watchlist does not give one.
  mode: z.enum(MAIL_MODES),
  admin: Address.nullable(),
  maxAttempts: wholeNumber(1, 100, "attempts"),
  quietHours: QuietHours.nullable(),
  urgentBypassesQuietHours: z.boolean(),
  healthAfterFailedSweeps: wholeNumber(1, 100, "sweeps"),
};

const logShape = {
  level: z.enum(LOG_LEVELS),
};

const pathsShape = {
  watchlist: NonEmpty,
  db: NonEmpty.nullable(),
  outboxDir: NonEmpty.nullable(),
};

const Listen = z.string().superRefine((value, ctx) => {
  const parsed = parseListenAddress(value);
  if (!parsed.ok) ctx.addIssue({ code: "custom", message: parsed.error });
});

const BrowserOrigin = z.string().refine(
  (value) => {
    try {
      const url = new URL(value);
      return (
        (url.protocol === "http:" || url.protocol === "https:") &&
        url.origin === value.trim().replace(/\/$/u, "")
      );
    } catch {
      return false;
    }
  },
  {
    error: (issue) =>
      `${JSON.stringify(issue.input)} is not an origin; write scheme, host and port only, like "https://mcp.example.com"`,
  },
);

const HostName = z
  .string()
  .refine(
    (value) => /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/iu.test(value),
    {
      error: (issue) =>
        `${JSON.stringify(issue.input)} is not a host name; write the name alone, like mcp.example.com (no scheme, port or path)`,
    },
  );

const httpShape = {
  listen: Listen.nullable(),
  allowedOrigins: z.array(BrowserOrigin),
  // Host names requests may be addressed to besides the listen address (DNS rebinding).
  allowedHosts: z.array(HostName),
  maxBodyBytes: wholeNumber(1024, 16_777_216, "bytes"),
};

/** Alert kinds an endpoint may take (the webhook event types, schemas/webhook-event.v1.json). */
export const EVENT_TYPES = [
  "case.movement",
  "case.correction",
  "publication.published",
  "publication.cancelled",
  "publication.reestimated",
  "party.match",
  "publication.missing",
  "case.checked",
  "operator.alert",
  "alert.acknowledged",
  "alert.escalated",
] as const;

/**
 * What a webhook gets unless its `events` say otherwise: every type but case.checked, one event
 * per watched case per day, which an endpoint has to ask for (nobody gets that flood unasked).
 */
export const DEFAULT_WEBHOOK_EVENTS: ReadonlyArray<(typeof EVENT_TYPES)[number]> =
  EVENT_TYPES.filter((t) => t !== "case.checked");

const VariableName = z.string().regex(/^[A-Z][A-Z0-9_]{0,63}$/u, {
  error: (issue) =>
    `${JSON.stringify(issue.input)} is not an environment variable name; give the NAME of the variable that holds the value (like SLACK_WEBHOOK_URL): URLs, tokens and secrets are never written in a config file`,
});

const Events = z.array(z.enum(EVENT_TYPES)).min(1, { error: "list at least one event type" });

/**
 * Each endpoint names the variables its secrets are read from (X, X_FILE or a credential). A
 * chat channel is read by people: it may take a digest, and follows quiet hours unless told not.
 */
const chatTiming = {
  delivery: z
    .enum(MAIL_MODES)
    .optional()
    .describe("`instant` (the default): one message per alert; `digest`: one listing those due."),
  digestSchedule: Cron5.optional().describe(
    "When a digest goes, a cron in schedule.timezone; default: after every sweep.",
  ),
  quietHours: z
    .boolean()
    .optional()
    .describe("`true` (the default): held by mail.quietHours like e-mail; `false`: never held."),
  events: Events.optional().describe(
    "The event types it gets; default: all but case.checked (one per case per day: list it to get it) for a webhook, and also but operator.alert and alert.acknowledged for a chat.",
  ),
};

const urlVariable = VariableName.describe(
  "The environment variable holding the endpoint's URL (or NAME_FILE, or a credential).",
);

// The E.164 rule lives in phone-number.ts, shared with the watchlist's `whatsapp:`.
export { E164 };

const apiBase = HttpUrl.optional().describe(
  "The API server: Telegram's Bot API (default https://api.telegram.org) or WhatsApp's Graph API, without the version (default https://graph.facebook.com). Another (a self-hosted Bot API server, a proxy) is held to the same public-address rules.",
);

/** A WhatsApp message template Meta approved: its name and language. */
const WhatsAppTemplate = z.strictObject({
  name: z
    .string()
    .trim()
    .regex(/^[a-z0-9_]{1,512}$/u, {
      error: (issue) =>
        `${JSON.stringify(issue.input)} is not a WhatsApp template name; Meta's names are lower-case letters, digits and underscores, like alerta_processo`,
    }),
  language: z
    .string()
    .trim()
    .regex(/^[a-z]{2,3}(?:_[A-Z]{2})?$/u, {
      error: (issue) =>
        `${JSON.stringify(issue.input)} is not a WhatsApp template language code; write it as Meta does, like pt_BR`,
    }),
});

export const EndpointFile = z.discriminatedUnion("channel", [
  z.strictObject({
    channel: z
      .literal("webhook")
      .describe("Where the alerts go: webhook, slack, teams, telegram, whatsapp."),
    urlVariable,
    secretVariable: VariableName.describe(
      "The variable holding its Standard Webhooks secret, `whsec_` and base64.",
    ),
    events: chatTiming.events,
  }),
  z.strictObject({ channel: z.literal("slack"), urlVariable, ...chatTiming }),
  z.strictObject({ channel: z.literal("teams"), urlVariable, ...chatTiming }),
  z.strictObject({
    channel: z.literal("telegram"),
    tokenVariable: VariableName.describe("The variable holding the Telegram bot's token."),
    chatId: z
      .union([z.string().trim().min(1), z.number().int()])
      .describe('The chat, group or channel the bot posts to, like "-1001234567890".'),
    apiBase,
    ...chatTiming,
  }),
  z.strictObject({
    channel: z.literal("whatsapp"),
    tokenVariable: VariableName.describe(
      "The variable holding the WhatsApp Business Cloud API access token (a system user's permanent token).",
    ),
    phoneNumberId: z
      .union([
        z
          .string()
          .trim()
          .regex(/^\d{1,30}$/u),
        z.number().int().nonnegative(),
      ])
      .describe(
        "The Cloud API's id of the firm's sending number (digits), from Meta's WhatsApp Manager.",
      ),
    to: z
      .string()
      .trim()
      .regex(E164, { error: (issue) => phoneNumberProblem(String(issue.input)) })
      .optional()
      .describe(
        "The lawyer's WhatsApp number, in E.164 form, like \"+5511987654321\". Without it, the endpoint sends each watcher's alerts to the number of their `whatsapp:` in the watchlist.",
      ),
    template: WhatsAppTemplate.describe(
      "The approved template (docs/channels.md has one to submit) and its language, like pt_BR.",
    ),
    ackTemplate: WhatsAppTemplate.optional().describe(
      "For urgent alerts that ask to be acknowledged (acknowledgement.publicBaseUrl): a template like `template` with a URL button whose dynamic suffix is the link's token (docs/channels.md). Without it, such an alert's {{3}} is its acknowledgement link.",
    ),
    apiBase,
    ...chatTiming,
  }),
]);
export type EndpointFile = z.infer<typeof EndpointFile>;

/** The name a watchlist routes to; "webhook" is the firm-wide WEBHOOK_URL. */
export const ENDPOINT_NAME = /^[a-z0-9][a-z0-9-]{0,39}$/u;

const EndpointName = z.string().regex(ENDPOINT_NAME, {
  error: (issue) =>
    `${JSON.stringify(issue.input)} is not an endpoint name; use lower-case letters, digits and dashes, like equipe-slack`,
});

/**
 * The widest private-network exception: a /8 of IPv4 (10.0.0.0/8), a /7 of IPv6 (fc00::/7, every
 * unique local address). A wider rule (0.0.0.0/0, ::/0, 0.0.0.0/1, ::ffff:0:0/96) is no exception
 * but the end of the guard: a webhook could be pointed at any address, the cloud's metadata
 * service included.
 */
const WIDEST_PREFIX = { ipv4: 8, ipv6: 7 } as const;

/** Why a network is too wide an exception, or null. */
export function wideNetworkProblem(text: string): string | null {
  const [address, bits] = ipaddr.parseCIDR(text);
  const mapped = address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress();
  const family = address.kind() === "ipv4" || mapped ? "IPv4" : "IPv6";
  const prefix = mapped ? bits - 96 : bits;
  const widest = family === "IPv4" ? WIDEST_PREFIX.ipv4 : WIDEST_PREFIX.ipv6;
  if (prefix >= widest) return null;
  const share = prefix <= 0 ? "all" : prefix === 1 ? "half" : `1/${2 ** prefix}`;
  return `${JSON.stringify(text)} covers ${share} of the ${family} address space: it would let webhooks and chats reach any address (the cloud's metadata service included); list only the private networks your receivers are on, like 10.20.0.0/16 or fd00:1234::/48 (at most a /${widest})`;
}

const Cidr = z.string().superRefine((v, ctx) => {
  const text = v.trim();
  if (!ipaddr.isValidCIDR(text)) {
    ctx.addIssue({
      code: "custom",
      message: `${JSON.stringify(v)} is not a network in CIDR form, like 10.20.0.0/16 or fd00::/8`,
    });
    return;
  }
  const problem = wideNetworkProblem(text);
  if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
});

const notifyShape = {
  endpoints: z.record(EndpointName, EndpointFile),
  maxAttempts: wholeNumber(1, 100, "attempts"),
  timeoutMs: wholeNumber(1000, 120_000, "ms"),
  maxResponseKb: wholeNumber(1, 1024, "KiB"),
  allowedPrivateNetworks: z.array(Cidr),
};

const IsoDateText = z.string().refine((v) => parseIsoDate(v.trim()) !== null, {
  error: (issue) =>
    `${JSON.stringify(issue.input)} is not a date; write YYYY-MM-DD, like "2026-03-10"`,
});

const CourtAlias = z.string().refine((v) => courtSeat(v).branch !== null, {
  error: (issue) =>
    `${JSON.stringify(issue.input)} is not a court this calendar knows; use the DataJud alias, like "tjsp", "trf3", "trt2", "tre-sp", "tjmsp" or "stj"`,
});

const IbgeCode = z
  .number()
  .int()
  .refine((code) => ufOfMunicipality(code) !== null, {
    error: (issue) =>
      `${JSON.stringify(issue.input)} is not an IBGE municipality code (seven digits, like 3550308 for São Paulo; DataJud's orgaoJulgador.codigoMunicipioIBGE)`,
  });

/** Longest closure one entry may span: a longer one is more likely a typo in a year. */
const MAX_CLOSURE_DAYS = 366;

/**
 * A day or run of days a court closed, suspended its deadlines or opened late, that the operator
 * learned of (a portaria, an outage, a ponto facultativo): the calendar of every estimate for
 * that court uses it on the next sweep.
 */
const CalendarClosure = z
  .strictObject({
    court: CourtAlias.describe("The court's DataJud alias, like tjsp, trf3, trt2, tre-sp, stj."),
    from: IsoDateText.describe("The first day, YYYY-MM-DD."),
    to: IsoDateText.optional().describe("The last day, included; omitted: `from` alone."),
    effect: z
      .enum(["closed", "suspended", "late-opening"])
      .describe(
        "`closed`: no expediente (CPC art. 216); `suspended`: deadlines do not run; `late-opening`: opened late, closed early or the system was down (CPC art. 224 §1).",
      ),
    reason: NonEmpty.describe("What happened, in the words the lawyer reads."),
    source: NonEmpty.describe("The act, as the court numbered it (Portaria TJSP nº 1.234/2026)."),
    url: HttpUrl.nullable().optional().describe("Where the act is published."),
    municipalities: z
      .array(IbgeCode)
      .optional()
      .describe("IBGE codes of the seats it concerns; omitted: the whole court."),
  })
  .superRefine((entry, ctx) => {
    const from = entry.from.trim();
    const to = (entry.to ?? entry.from).trim();
    if (parseIsoDate(from) === null || parseIsoDate(to) === null) return;
    if (to < from) {
      ctx.addIssue({
        code: "custom",
        path: ["to"],
        message: `${to} is before from (${from}); a closure runs from its first day to its last`,
      });
    } else if ((Date.parse(to) - Date.parse(from)) / 86_400_000 >= MAX_CLOSURE_DAYS) {
      ctx.addIssue({
        code: "custom",
        path: ["to"],
        message: `${from} to ${to} is more than a year; write one entry per closure (a typo in the year?)`,
      });
    }
    const seat = courtSeat(entry.court);
    for (const [i, code] of (entry.municipalities ?? []).entries()) {
      const uf = ufOfMunicipality(code);
      if (seat.branch !== null && uf !== null && !seat.states.includes(uf)) {
        ctx.addIssue({
          code: "custom",
          path: ["municipalities", i],
          message: `${code} is in ${uf.toUpperCase()}, where ${seat.court} has no seat; list only the court's own municipalities, or none for the whole court`,
        });
      }
    }
  });

const DAY_MS = 86_400_000;

/**
 * Each court's closures added up, overlapping days once: more than a year of a court closed is a
 * typo in a year, even when each entry alone is shorter (two overlapping entries made 17 months).
 * Said at the last entry of that court.
 */
function closuresPerCourt(
  entries: ReadonlyArray<{ court: string; from: string; to?: string | undefined }>,
  ctx: z.RefinementCtx,
): void {
  const byCourt = new Map<string, Array<{ i: number; from: number; to: number }>>();
  for (const [i, entry] of entries.entries()) {
    const from = parseIsoDate(entry.from.trim());
    const to = parseIsoDate((entry.to ?? entry.from).trim());
    if (from === null || to === null) continue;
    const court = entry.court.trim().toLowerCase();
    const spans = byCourt.get(court) ?? [];
    spans.push({
      i,
      from: Date.parse(entry.from.trim()),
      to: Date.parse((entry.to ?? entry.from).trim()),
    });
    byCourt.set(court, spans);
  }
  for (const [court, spans] of byCourt) {
    const sorted = [...spans].filter((s) => s.to >= s.from).sort((a, b) => a.from - b.from);
    let days = 0;
    let end = Number.NEGATIVE_INFINITY;
    for (const span of sorted) {
      const start = Math.max(span.from, end + DAY_MS);
      if (span.to >= start) days += (span.to - start) / DAY_MS + 1;
      end = Math.max(end, span.to);
    }
    if (days <= MAX_CLOSURE_DAYS) continue;
    const last = Math.max(...spans.map((s) => s.i));
    const first = new Date(Math.min(...sorted.map((s) => s.from))).toISOString().slice(0, 10);
    const until = new Date(end).toISOString().slice(0, 10);
    ctx.addIssue({
      code: "custom",
      path: [last, "to"],
      message: `the closures of ${court} add up to ${Math.round(days)} days between ${first} and ${until} (overlapping days counted once): no court closes for more than a year; check the years of its entries`,
    });
  }
}

const calendarShape = {
  closures: z.array(CalendarClosure).superRefine(closuresPerCourt),
};

/** The calendar feed (`datajud-monitor calendar`, the daemon's /calendar/<token>.ics). */
const calendarFeedShape = {
  // The daemon serves /calendar/<token>.ics on http.listen.
  serve: z.boolean(),
  // Court business days before a last day to remind it (0: the day itself).
  reminderBusinessDays: z
    .array(wholeNumber(0, 20, "business days"))
    .max(5, { error: "at most 5 reminders per last day" }),
  // On the clock of the calendar that shows the reminder.
  reminderTime: ClockTime,
  // Events older than this many days are left out.
  pastDays: wholeNumber(0, 366, "days"),
  maxEvents: wholeNumber(10, 10_000, "events"),
  refreshMinutes: wholeNumber(5, 1440, "minutes"),
  // How long a session or hearing with a start time lasts in the feed (DJEN gives no end).
  sessionMinutes: wholeNumber(5, 720, "minutes"),
};

/**
 * Acknowledgement links of urgent alerts (issue 40): on only with a public base URL and
 * ACK_SECRET, both.
 */
const acknowledgementShape = {
  publicBaseUrl: HttpUrl.nullable().describe(
    "The address people reach the daemon's HTTP server at (a reverse proxy's, like https://monitor.example.com): links are <publicBaseUrl>/ack/<token>. Null: no alert asks for an acknowledgement.",
  ),
  validHours: wholeNumber(1, 24 * 90, "hours").describe(
    "How long an alert's acknowledgement link works after it was queued.",
  ),
};

/** Signs acknowledgement links: long enough that a link cannot be forged by guessing. */
const AckSecret = z
  .string()
  .min(32, { error: "must be at least 32 characters; generate one with `openssl rand -hex 32`" })
  .refine((v) => !/\s/u.test(v), { error: "must not contain spaces or line breaks" });

const Secret = z.string().min(1, { error: "must not be empty" });

/**
 * TELEGRAM_WEBHOOK_SECRET, the secret_token given to setWebhook: Telegram takes 1-256 of A-Z,
 * a-z, 0-9, _ and - (core.telegram.org/bots/api#setwebhook); at least 32, as it is the only
 * thing that tells Telegram's requests from anyone's.
 */
const TelegramWebhookSecret = z.string().regex(/^[A-Za-z0-9_-]{32,256}$/u, {
  error:
    "must be 32 to 256 of A-Z, a-z, 0-9, _ and - (what Telegram's setWebhook takes); generate one with `openssl rand -hex 32`",
});

/** WHATSAPP_VERIFY_TOKEN: chosen by the firm, typed into Meta's webhook settings. */
const VerifyToken = z
  .string()
  .min(16, { error: "must be at least 16 characters; generate one with `openssl rand -hex 32`" })
  .refine((v) => /^[A-Za-z0-9._~-]+$/u.test(v), {
    error: "must be letters, digits and . _ ~ - only (it travels in a URL's query)",
  });

/**
 * MCP_HTTP_TOKEN, required of every /mcp request: compared with what every HTTP client sends; a
 * short one could be guessed.
 */
const HttpToken = z
  .string()
  .min(16, { error: "must be at least 16 characters; generate one with `openssl rand -hex 32`" })
  .refine((v) => !/\s/u.test(v), { error: "must not contain spaces or line breaks" });

// An SMTP URL usually carries the password.
const SmtpUrl = credentialUrl(["smtp:", "smtps:"], "smtps://user:password@mail.example.com:465");

/** Every setting, resolved from all layers; secrets come only from the environment. */
export const ConfigSettings = z.strictObject({
  schedule: z.strictObject(scheduleShape),
  datajud: z.strictObject({ ...datajudShape, apiKey: Secret.nullable() }),
  djen: z.strictObject(djenShape),
  monitor: z.strictObject(monitorShape),
  summarizer: z.strictObject({ ...summarizerShape, apiKey: Secret.nullable() }),
  mail: z.strictObject({ ...mailShape, smtpUrl: SmtpUrl.nullable() }),
  log: z.strictObject(logShape),
  paths: z.strictObject(pathsShape),
  http: z.strictObject({ ...httpShape, token: HttpToken.nullable() }),
  notify: z.strictObject({
    ...notifyShape,
    webhookUrl: credentialUrl(
      ["http:", "https:"],
      "https://sistema.example.com/webhooks/datajud",
    ).nullable(),
    webhookSecret: Secret.nullable(),
  }),
  calendar: z.strictObject(calendarShape),
  calendarFeed: z.strictObject(calendarFeedShape),
  acknowledgement: z.strictObject({
    ...acknowledgementShape,
    secret: AckSecret.nullable(),
    telegramSecret: TelegramWebhookSecret.nullable(),
    whatsappAppSecret: Secret.nullable(),
    whatsappVerifyToken: VerifyToken.nullable(),
  }),
});
export type ConfigSettings = z.infer<typeof ConfigSettings>;

/** A config file: any subset of the settings, no secrets, no unknown keys. */
export const ConfigFile = z.strictObject({
  schedule: z.strictObject(scheduleShape).partial().nullable().optional(),
  datajud: z.strictObject(datajudShape).partial().nullable().optional(),
  djen: z.strictObject(djenShape).partial().nullable().optional(),
  monitor: z.strictObject(monitorShape).partial().nullable().optional(),
  summarizer: z.strictObject(summarizerShape).partial().nullable().optional(),
  mail: z.strictObject(mailShape).partial().nullable().optional(),
  log: z.strictObject(logShape).partial().nullable().optional(),
  paths: z.strictObject(pathsShape).partial().nullable().optional(),
  http: z.strictObject(httpShape).partial().nullable().optional(),
  notify: z.strictObject(notifyShape).partial().nullable().optional(),
  calendar: z.strictObject(calendarShape).partial().nullable().optional(),
  calendarFeed: z.strictObject(calendarFeedShape).partial().nullable().optional(),
  acknowledgement: z.strictObject(acknowledgementShape).partial().nullable().optional(),
});
export type ConfigFile = z.infer<typeof ConfigFile>;

export interface EnvSetting {
  /** Variable names, the first one set wins (MONITOR_LOG_LEVEL before LOG_LEVEL). */
  names: readonly string[];
  /** Dotted path in ConfigSettings. */
  setting: string;
  secret: boolean;
}

/** The environment table of DESIGN.md; each also as NAME_FILE and as a systemd credential. */
export const ENV_SETTINGS = [
  { names: ["MONITOR_WATCHLIST"], setting: "paths.watchlist", secret: false },
  { names: ["MONITOR_DB"], setting: "paths.db", secret: false },
  { names: ["MONITOR_OUTBOX_DIR"], setting: "paths.outboxDir", secret: false },
  { names: ["DATAJUD_BASE_URL"], setting: "datajud.baseUrl", secret: false },
  { names: ["DATAJUD_API_KEY"], setting: "datajud.apiKey", secret: true },
  { names: ["DATAJUD_REQUESTS_PER_MINUTE"], setting: "datajud.requestsPerMinute", secret: false },
  { names: ["DATAJUD_CONCURRENCY"], setting: "datajud.concurrency", secret: false },
  { names: ["DATAJUD_TIMEOUT_MS"], setting: "datajud.timeoutMs", secret: false },
  { names: ["DATAJUD_TOTAL_TIMEOUT_MS"], setting: "datajud.totalTimeoutMs", secret: false },
  { names: ["DATAJUD_MAX_ATTEMPTS"], setting: "datajud.maxAttempts", secret: false },
  { names: ["DJEN_ENABLED"], setting: "djen.enabled", secret: false },
  { names: ["DJEN_BASE_URL"], setting: "djen.baseUrl", secret: false },
  { names: ["DJEN_REQUESTS_PER_MINUTE"], setting: "djen.requestsPerMinute", secret: false },
  { names: ["DJEN_TIMEOUT_MS"], setting: "djen.timeoutMs", secret: false },
  { names: ["DJEN_TOTAL_TIMEOUT_MS"], setting: "djen.totalTimeoutMs", secret: false },
  { names: ["DJEN_MAX_ATTEMPTS"], setting: "djen.maxAttempts", secret: false },
  { names: ["DJEN_CONCURRENCY"], setting: "djen.concurrency", secret: false },
  { names: ["DJEN_MAX_MINUTES_PER_SWEEP"], setting: "djen.maxMinutesPerSweep", secret: false },
  { names: ["DJEN_CASE_EVERY_HOURS"], setting: "djen.caseEveryHours", secret: false },
  { names: ["DJEN_OAB_EVERY_HOURS"], setting: "djen.oabEveryHours", secret: false },
  { names: ["DJEN_PARTY_EVERY_HOURS"], setting: "djen.partyEveryHours", secret: false },
  { names: ["ANTHROPIC_API_KEY"], setting: "summarizer.apiKey", secret: true },
  { names: ["ANTHROPIC_BASE_URL"], setting: "summarizer.baseUrl", secret: false },
  { names: ["ANTHROPIC_MODEL"], setting: "summarizer.model", secret: false },
  { names: ["AGENT_MAX_ITERATIONS"], setting: "summarizer.maxIterations", secret: false },
  { names: ["SMTP_URL"], setting: "mail.smtpUrl", secret: true },
  { names: ["MAIL_FROM"], setting: "mail.from", secret: false },
  { names: ["MONITOR_LOG_LEVEL", "LOG_LEVEL"], setting: "log.level", secret: false },
  { names: ["MCP_HTTP_TOKEN"], setting: "http.token", secret: true },
  // A capability URL (whoever has it can ping the check): kept out of logs like a secret.
  { names: ["MONITOR_HEARTBEAT_URL"], setting: "monitor.heartbeatUrl", secret: true },
  // The firm-wide webhook: every alert event, signed with the secret.
  { names: ["WEBHOOK_URL"], setting: "notify.webhookUrl", secret: true },
  { names: ["WEBHOOK_SECRET"], setting: "notify.webhookSecret", secret: true },
  // Signs urgent alerts' acknowledgement links; not the calendar feed's tokens.
  { names: ["ACK_SECRET"], setting: "acknowledgement.secret", secret: true },
  // Replies "ciente" (optional): Telegram's webhook secret token; Meta's app secret and the
  // webhook's verify token.
  { names: ["TELEGRAM_WEBHOOK_SECRET"], setting: "acknowledgement.telegramSecret", secret: true },
  { names: ["WHATSAPP_APP_SECRET"], setting: "acknowledgement.whatsappAppSecret", secret: true },
  {
    names: ["WHATSAPP_VERIFY_TOKEN"],
    setting: "acknowledgement.whatsappVerifyToken",
    secret: true,
  },
] as const satisfies readonly EnvSetting[];

/** Settings that exist only in the environment, for the hint on a config file that has them. */
export const ENV_ONLY_SETTINGS: Readonly<Record<string, string>> = {
  "datajud.apiKey": "DATAJUD_API_KEY",
  "summarizer.apiKey": "ANTHROPIC_API_KEY",
  "mail.smtpUrl": "SMTP_URL",
  "http.token": "MCP_HTTP_TOKEN",
  "notify.webhookUrl": "WEBHOOK_URL",
  "notify.webhookSecret": "WEBHOOK_SECRET",
  "acknowledgement.secret": "ACK_SECRET",
  "acknowledgement.telegramSecret": "TELEGRAM_WEBHOOK_SECRET",
  "acknowledgement.whatsappAppSecret": "WHATSAPP_APP_SECRET",
  "acknowledgement.whatsappVerifyToken": "WHATSAPP_VERIFY_TOKEN",
};
