import { randomUUID } from "node:crypto";
import { scrubSecrets } from "../config/secrets.js";
import { normalizeEmailAddress } from "../email-address.js";
import type { Logger } from "../log.js";
import { deliverOutboxRow, type RowSendResult } from "../notify/outbox/drain.js";
import { mailIdentity } from "../notify/outbox/message-ids.js";
import { testMessage } from "../notify/outbox/messages.js";
import { dedupeKey, type Endpoint, queueMessage } from "../notify/outbox/queue.js";
import { sampleAlertContent } from "../notify/render/sample-alert.js";
import { MailError, type MailTransport } from "../notify/transport/mail-transport.js";
import { createTransport } from "../notify/transport/transports.js";
import { closeDatabase, type Db, openDatabase } from "../store/database.js";
import { thisProcessClaimant } from "../store/lease.js";
import { outboxIdByDedupeKey } from "../store/outbox.js";
import type { System } from "../system.js";
import { dateNow } from "../time/clock.js";
import { loadWatchlist } from "../watchlist/parse-watchlist.js";
import { formatPositionedError } from "../yaml/positioned-error.js";
import { type Command, EXIT, programOf, systemOf, UsageError } from "./command.js";
import { loadRuntime } from "./runtime.js";

export interface SendTestEmailInput {
  db: Db;
  transport: MailTransport;
  to: string;
  from: string;
  domain: string;
  listId: string;
  /** The process's clock and identity: the send's time and who claims the row. */
  system: System;
  /** Makes this run's outbox key (and so its Message-ID) unique. */
  nonce: string;
  maxAttempts: number;
  logger: Logger;
}

/**
 * Queues the sample alert as a `test` row and sends that row alone, now: it goes through the same
 * outbox, renderer and transport as real alerts, and stays recorded like them. A failed test is
 * not retried later.
 */
export async function sendTestEmail(input: SendTestEmailInput): Promise<RowSendResult> {
  const now = dateNow(input.system.clock);
  const message = testMessage(sampleAlertContent(now), now, input.nonce);
  const endpoint: Endpoint = { channel: "email", address: input.to };
  queueMessage({ db: input.db, domain: input.domain, at: now }, message, [endpoint]);
  const id = outboxIdByDedupeKey(input.db, dedupeKey(message.key, endpoint));
  if (id === undefined) {
    return { ok: false, error: "the test message could not be queued", code: "invalid" };
  }
  return deliverOutboxRow(
    {
      db: input.db,
      transport: input.transport,
      from: input.from,
      listId: input.listId,
      domain: input.domain,
      clock: input.system.clock,
      claimant: thisProcessClaimant(input.system),
      maxAttempts: input.maxAttempts,
      logger: input.logger,
    },
    id,
  );
}

type Recipient = { ok: true; to: string; source: string } | { ok: false; problem: string };

async function chooseRecipient(
  flag: unknown,
  admin: string | null,
  watchlistPath: string,
): Promise<Recipient> {
  if (typeof flag === "string") {
    const to = normalizeEmailAddress(flag);
    if (to === null) throw new UsageError("--to must be one plain address, like ana@example.com");
    return { ok: true, to, source: "--to" };
  }
  if (admin !== null) return { ok: true, to: admin.trim(), source: "mail.admin" };
  const loaded = await loadWatchlist(watchlistPath);
  if (!loaded.ok) {
    const first = loaded.errors[0];
    return {
      ok: false,
      problem: first === undefined ? "the watchlist cannot be read" : formatPositionedError(first),
    };
  }
  const { defaults, cases } = loaded.watchlist;
  const to = [...defaults.notify, ...cases.flatMap((c) => c.notify)][0];
  return to === undefined
    ? { ok: false, problem: `${watchlistPath} lists no notify address` }
    : { ok: true, to, source: "the watchlist" };
}

export const testEmailCommand: Command = {
  name: "test-email",
  summary: "Send one sample alert through the configured mail transport",
  usage: "datajud-monitor test-email [--to ADDR]",
  details: [
    "--to ADDR   send it here (default: mail.admin, else the watchlist's first notify address)",
    "",
    "The sample is a recorded TJDFT case that just got a sentence, rendered like a real alert.",
    "It goes through SMTP_URL when that is set, else into an .eml file in the outbox directory.",
    "",
    "Exit codes: 0 sent, 1 the transport failed, 2 bad config or no recipient.",
  ],
  options: { to: { type: "string" } },
  async run(args, io) {
    const runtime = loadRuntime(io, "test-email");
    if (!runtime) return EXIT.usage;
    const { config, logger, secrets } = runtime;
    const recipient = await chooseRecipient(
      args.values.to,
      config.mail.admin,
      config.paths.watchlist,
    );
    if (!recipient.ok) {
      io.stderr.write(
        `${programOf(io)} test-email: no recipient: pass --to ADDR, set mail.admin in the config, or add a notify address to the watchlist (${recipient.problem})\n`,
      );
      return EXIT.usage;
    }

    let transport: MailTransport;
    try {
      transport = createTransport({
        smtpUrl: config.mail.smtpUrl,
        outboxDir: config.paths.outboxDir,
        writer: thisProcessClaimant(systemOf(io)),
      });
    } catch (error) {
      if (!(error instanceof MailError)) throw error;
      io.stderr.write(`${programOf(io)} test-email: ${scrubSecrets(error.message, secrets)}\n`);
      return EXIT.usage;
    }
    const db = openDatabase(config.paths.db);
    try {
      const { domain, listId } = mailIdentity(config.mail.from, config.paths.watchlist);
      const delivery = await sendTestEmail({
        db,
        transport,
        to: recipient.to,
        from: config.mail.from,
        domain,
        listId,
        system: systemOf(io),
        nonce: randomUUID(),
        maxAttempts: config.mail.maxAttempts,
        logger,
      });
      const where = transport.describe();
      if (!delivery.ok) {
        io.stderr.write(
          `${programOf(io)} test-email: sending to ${recipient.to} via ${where} failed: ${scrubSecrets(delivery.error, secrets)}\n`,
        );
        return EXIT.failures;
      }
      const outcome =
        delivery.path !== null
          ? `written to ${delivery.path}`
          : `accepted by ${where}: ${scrubSecrets(delivery.response ?? "no reply text", secrets)}`;
      io.stdout.write(
        `test e-mail to ${recipient.to} (from ${recipient.source}) ${outcome}\nMessage-ID: ${delivery.messageId}\n`,
      );
      return EXIT.ok;
    } finally {
      transport.close();
      closeDatabase(db);
    }
  },
};
