import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "../log.js";
import { acknowledgementById } from "../store/acknowledgements.js";
import type { OutboxRow } from "../store/outbox.js";
import { isoNow } from "../time/clock.js";
import { acknowledge, type RecordDeps, whoOfRow } from "./record.js";

/*
 * What the two reply webhooks share (issue 40; telegram-replies.ts, whatsapp-replies.ts): the
 * raw body, read within a bound (a signature is checked on those bytes), and the acknowledgement
 * of the alerts a reply "ciente" answers, as their rows' readers, the way the link records it.
 */

/** Longer bodies are refused: a reply update is a few kilobytes. */
export const REPLY_BODY_MAX = 256 * 1024;

export interface ReplyRouteDeps extends RecordDeps {
  logger: Logger;
}

/** The body's bytes, or null once it passes `max` (the rest is not read). */
export function readRawBody(req: IncomingMessage, max = REPLY_BODY_MAX): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.removeAllListeners("data");
        req.resume();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(size > max ? null : Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

export function answer(res: ServerResponse, status: number, text: string): void {
  const body = Buffer.from(text, "utf8");
  res.writeHead(status, {
    "content-type": "text/plain; charset=utf-8",
    "cache-control": "no-store",
    "content-length": String(body.length),
  });
  res.end(body);
}

/**
 * Acknowledges the alert of each row (the message a reply answers: one row, or a chat digest's
 * several) as that row's reader; an alert acknowledged already, or whose acknowledgement
 * expired, stays as it is. Returns how many were recorded now.
 */
export function acknowledgeRows(
  deps: ReplyRouteDeps,
  rows: readonly OutboxRow[],
  via: "telegram" | "whatsapp",
): number {
  const now = isoNow(deps.clock);
  let recorded = 0;
  for (const row of rows) {
    const ack = row.ackId === null ? null : acknowledgementById(deps.db, row.ackId);
    if (ack === null || ack.acknowledgedAt !== null || ack.expiresAt <= now) continue;
    if (acknowledge(deps, ack, { who: whoOfRow(row), at: now, via })) {
      recorded++;
      deps.logger.info(
        { acknowledgement: ack.id, outboxId: row.id, via },
        "alert acknowledged by reply",
      );
    }
  }
  return recorded;
}
