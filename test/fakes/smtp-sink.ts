import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerSession } from "smtp-server";

/**
 * An SMTP server on 127.0.0.1 that keeps every message it accepts, raw. It can refuse the next
 * messages (4xx/5xx after DATA) or the next connections (as an outage would), and can run a hook
 * after a message arrived but before the client hears "250".
 */

export interface ReceivedMessage {
  from: string | null;
  to: string[];
  raw: Buffer;
  /** The user the client logged in as, null without AUTH. */
  user: string | null;
}

export interface SmtpSinkOptions {
  /** Require AUTH with these credentials. */
  auth?: { user: string; pass: string };
  /** Runs once a message was stored and before the reply; may delay or kill the sender. */
  beforeReply?: (message: ReceivedMessage) => void | Promise<void>;
  /**
   * Runs right after "250" was written for a message: a sender killed here may or may not have
   * read it, which is the window a crash test aims at.
   */
  afterReply?: (message: ReceivedMessage) => void;
}

export interface SmtpSink {
  port: number;
  /** Everything accepted, in order (refused messages are not kept). */
  messages: ReceivedMessage[];
  /** Messages refused so far. */
  refused: number;
  /** `smtp://[user:pass@]127.0.0.1:port` */
  url(credentials?: { user: string; pass: string }): string;
  /** Answer the next `count` messages after DATA with `code` (451 by default). */
  refuseNext(count: number, code?: number): void;
  /** Greet the next `count` connections with `code` (421 by default) and hang up. */
  refuseConnections(count: number, code?: number): void;
  waitForMessages(count: number, timeoutMs?: number): Promise<ReceivedMessage[]>;
  close(): Promise<void>;
}

function smtpError(message: string, responseCode: number): Error {
  return Object.assign(new Error(message), { responseCode });
}

export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const messages: ReceivedMessage[] = [];
  let refuseMessages = 0;
  let refuseMessageCode = 451;
  let refuseConnects = 0;
  let refuseConnectCode = 421;
  const state = { refused: 0 };
  const auth = options.auth;

  const server = new SMTPServer({
    // No STARTTLS on offer, so the client speaks plain text to loopback and needs no certificate.
    hideSTARTTLS: true,
    allowInsecureAuth: true,
    authOptional: auth === undefined,
    disableReverseLookup: true,
    logger: false,
    onConnect(_session, callback) {
      if (refuseConnects > 0) {
        refuseConnects--;
        callback(smtpError("Service not available, try later", refuseConnectCode));
        return;
      }
      callback();
    },
    onAuth(login, _session, callback) {
      if (auth !== undefined && login.username === auth.user && login.password === auth.pass) {
        callback(null, { user: login.username });
        return;
      }
      callback(smtpError("Invalid username or password", 535));
    },
    onData(stream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (refuseMessages > 0) {
          refuseMessages--;
          state.refused++;
          callback(smtpError("Try again later", refuseMessageCode));
          return;
        }
        const message: ReceivedMessage = {
          from: session.envelope.mailFrom === false ? null : session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
          user: typeof session.user === "string" ? session.user : null,
        };
        messages.push(message);
        Promise.resolve(options.beforeReply?.(message)).then(
          () => {
            callback();
            options.afterReply?.(message);
          },
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;

  return {
    port,
    messages,
    get refused() {
      return state.refused;
    },
    url(credentials) {
      const who =
        credentials === undefined
          ? ""
          : `${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.pass)}@`;
      return `smtp://${who}127.0.0.1:${port}`;
    },
    refuseNext(count, code = 451) {
      refuseMessages = count;
      refuseMessageCode = code;
    },
    refuseConnections(count, code = 421) {
      refuseConnects = count;
      refuseConnectCode = code;
    },
    async waitForMessages(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > deadline) {
          throw new Error(`expected ${count} messages, got ${messages.length}`);
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      return messages;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
