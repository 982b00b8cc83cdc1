import { request } from "node:http";
import { ackLinks } from "../../src/ack/ack-token.js";
import { ackHttpRoute } from "../../src/ack/http-route.js";
import { createHttpServer, type HttpServer, type Route } from "../../src/http/server.js";
import { createLogger } from "../../src/log.js";
import { drainOutbox } from "../../src/notify/outbox/drain.js";
import type { OutgoingMessage } from "../../src/notify/transport/mail-transport.js";
import type { EndpointPolicy } from "../../src/policy/alert-rules.js";
import { type MailPolicy, mailPolicy } from "../../src/policy/mail-policy.js";
import { acknowledgementById } from "../../src/store/acknowledgements.js";
import type { Db } from "../../src/store/database.js";
import type { OutboxRow } from "../../src/store/outbox.js";
import type { Clock } from "../../src/time/clock.js";
import { DOMAIN, FROM, LIST_ID } from "./outbox-store.js";

/** What the acknowledgement tests sign links with, and the public base URL they are under. */
export const ACK_SECRET = "0123456789abcdef0123456789abcdef-ack-secret";
export const ACK_BASE = "https://monitor.example.com";

/** The path of a row's acknowledgement link (/ack/<token>). */
export function ackPathOf(row: OutboxRow): string {
  const link = ackLinks(ACK_BASE, ACK_SECRET)(row);
  if (link === null) throw new Error("the row asks for no acknowledgement");
  return new URL(link).pathname;
}

/** One request to the daemon's HTTP server on loopback, under the public base URL's Host. */
export function callServer(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body = "",
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        headers: { host: "monitor.example.com", ...headers },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          text += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body === "" ? undefined : body);
  });
}

const silent = createLogger({ level: "silent" });

/**
 * The daemon's HTTP server on loopback with the /ack/ route (and `routes`), under the Host and
 * Origin rules the composition root sets for acknowledgement.publicBaseUrl (cli/mcp.ts).
 */
export async function startAckServer(options: {
  db: Db;
  clock: Clock;
  policy: () => MailPolicy | undefined;
  routes?: readonly Route[];
}): Promise<{ server: HttpServer; port: number }> {
  const server = createHttpServer({
    listen: { host: "127.0.0.1", port: 0 },
    token: null,
    allowedOrigins: [ACK_BASE],
    allowedHosts: ["monitor.example.com"],
    maxBodyBytes: 65_536,
    logger: silent,
  });
  server.route(
    ackHttpRoute({
      db: options.db,
      secret: ACK_SECRET,
      clock: options.clock,
      logger: silent,
      timeZone: "America/Sao_Paulo",
      domain: DOMAIN,
      policy: options.policy,
    }),
  );
  for (const route of options.routes ?? []) server.route(route);
  return { server, port: Number(new URL(await server.start()).port) };
}

/** Drains the e-mail outbox with acknowledgement links on, capturing what was sent. */
export async function drainMailCapture(db: Db, clock: Clock): Promise<OutgoingMessage[]> {
  const sent: OutgoingMessage[] = [];
  await drainOutbox({
    db,
    transport: {
      send: async (m) => {
        sent.push(m);
        return { response: "250 ok" };
      },
      close: () => undefined,
      describe: () => "capture",
    },
    from: FROM,
    listId: LIST_ID,
    domain: DOMAIN,
    clock,
    maxAttempts: 3,
    logger: silent,
    claimant: { holder: "me@host", holderIsDead: () => false },
    ackLink: ackLinks(ACK_BASE, ACK_SECRET),
  });
  return sent;
}

/** Who acknowledged the alert of a row, and when (nulls: nobody yet). */
export function acknowledgedOf(
  db: Db,
  row: Pick<OutboxRow, "ackId">,
): { at: string | null; by: string | null } {
  const ack = acknowledgementById(db, row.ackId ?? -1);
  return { at: ack?.acknowledgedAt ?? null, by: ack?.acknowledgedBy ?? null };
}

/** A per-watcher WhatsApp endpoint (no `to:`): each watcher's alert to that watcher's number. */
export const PER_WATCHER_ZAP: EndpointPolicy = {
  name: "zap",
  channel: "whatsapp",
  events: ["case.movement"],
  delivery: "instant",
  digestSchedule: null,
  quietHours: false,
  perWatcher: true,
};

/**
 * The policy of the channel tests: these watchers (address and WhatsApp number, or null), no
 * cases, São Paulo's clock, no quiet hours, these endpoints; acknowledgement links valid 24 h
 * unless `acknowledgement` is false.
 */
export function watchersPolicy(
  watchers: ReadonlyArray<readonly [address: string, whatsapp: string | null]>,
  options: {
    endpoints: readonly EndpointPolicy[];
    defaultDelivery?: "instant" | "digest";
    acknowledgement?: boolean;
  },
): MailPolicy {
  return mailPolicy(
    {
      cases: [],
      watchers: watchers.map(([address, whatsapp]) => ({
        address,
        delivery: null,
        digestSchedule: null,
        statusReport: null,
        whatsapp,
        line: 1,
      })),
    },
    {
      timezone: "America/Sao_Paulo",
      quietHours: null,
      urgentBypassesQuietHours: true,
      defaultDelivery: options.defaultDelivery ?? "instant",
      endpoints: [...options.endpoints],
      ...(options.acknowledgement === false ? {} : { acknowledgement: { validHours: 24 } }),
    },
  );
}
