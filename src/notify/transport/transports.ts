import { createEmlTransport, type FileWriter } from "./eml.js";
import type { MailTransport } from "./mail-transport.js";
import { createSmtpTransport, DEFAULT_TIMEOUTS, type TransportTimeouts } from "./smtp.js";
import { parseSmtpUrl } from "./smtp-url.js";

/** SMTP when `smtpUrl` is set, otherwise `.eml` files in `outboxDir` (the demo's default). */
export function createTransport(options: {
  smtpUrl: string | null;
  outboxDir: string;
  timeouts?: Partial<TransportTimeouts>;
  /** Names this process in `.eml` temporary files and judges who left others behind. */
  writer?: FileWriter;
}): MailTransport {
  const smtpUrl = options.smtpUrl?.trim() ?? "";
  if (smtpUrl === "") return createEmlTransport(options.outboxDir, options.writer);
  return createSmtpTransport(parseSmtpUrl(smtpUrl), { ...DEFAULT_TIMEOUTS, ...options.timeouts });
}
