import type { SendMailOptions } from "nodemailer";
import { MonitorError } from "../../errors.js";

/*
 * What every transport takes and how it fails, and the header check both run before anything
 * leaves.
 */

export interface OutgoingMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  /** Threading; absent on mail that belongs to no case thread (digests, operator alerts). */
  inReplyTo?: string;
  references?: string;
  headers: Record<string, string>;
}

export interface SendResult {
  /** The server's final reply (it usually names the queue id); null when nothing answered. */
  response: string | null;
  /** The file written, for the `.eml` transport. */
  path?: string;
}

export interface MailTransport {
  send(message: OutgoingMessage): Promise<SendResult>;
  close(): void;
  /** Where mail goes, for logs and `monitor status`; never the password. */
  describe(): string;
}

export type MailErrorCode =
  /** SMTP_URL cannot be used as given. */
  | "config"
  /** No server to talk to: connection, TLS, greeting, authentication, timeout. */
  | "connection"
  /** The server refused this message or its recipient. */
  | "rejected"
  /** A header value would have broken the message; a bug upstream, never sent. */
  | "header"
  /** The `.eml` file could not be written. */
  | "file";

export class MailError extends MonitorError<MailErrorCode> {
  override readonly name = "MailError";
  /** True when nothing else would get through either, so a drain stops instead of trying each row. */
  readonly transportDown: boolean;
  readonly responseCode: number | undefined;

  constructor(
    code: MailErrorCode,
    message: string,
    options: { transportDown?: boolean; responseCode?: number } = {},
  ) {
    super(code, message);
    this.transportDown = options.transportDown ?? (code === "connection" || code === "file");
    this.responseCode = options.responseCode;
  }
}

const HEADER_NAME = /^[A-Za-z0-9-]{1,76}$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const UNSAFE_HEADER_VALUE = /[\r\n\u0000]/;

/** Refuses a message whose header values could break it; a bug upstream, never sent. */
export function checkHeaders(message: OutgoingMessage): void {
  const values: Array<[string, string]> = [
    ["From", message.from],
    ["To", message.to],
    ["Subject", message.subject],
    ["Message-ID", message.messageId],
    ...Object.entries(message.headers),
  ];
  if (message.inReplyTo !== undefined) values.push(["In-Reply-To", message.inReplyTo]);
  if (message.references !== undefined) values.push(["References", message.references]);
  for (const [name, value] of values) {
    if (!HEADER_NAME.test(name) || UNSAFE_HEADER_VALUE.test(value)) {
      throw new MailError(
        "header",
        `refusing to send: header ${name.replace(/[^\w-]/g, "?")} is unsafe`,
        {
          transportDown: false,
        },
      );
    }
  }
}

/** nodemailer's options for a message, file and URL access off. */
export function mailOptions(message: OutgoingMessage): SendMailOptions {
  return {
    from: message.from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    messageId: message.messageId,
    ...(message.inReplyTo === undefined ? {} : { inReplyTo: message.inReplyTo }),
    ...(message.references === undefined ? {} : { references: message.references }),
    headers: message.headers,
    // Nothing we render points at files or URLs; make sure nothing can.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}
