import {
  chmodSync,
  closeSync,
  fchmodSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { createTransport as createNodemailer } from "nodemailer";
import { checkHeaders, MailError, type MailTransport, mailOptions } from "./mail-transport.js";

/** A name that cannot leave the directory and is the same for a resend of the same message. */
function emlFileName(messageId: string): string {
  const name = messageId
    .replace(/^<|>$/g, "")
    .replace(/[^A-Za-z0-9._@-]/g, "_")
    .replace(/^\.+/, "")
    .slice(0, 200);
  return `${name === "" ? "message" : name}.eml`;
}

function ensurePrivateDir(dir: string): void {
  // mkdir returns the first directory it created; only a directory we made gets its mode forced.
  // chmod as well: the umask may have taken bits off.
  if (mkdirSync(dir, { recursive: true, mode: 0o700 }) !== undefined) chmodSync(dir, 0o700);
}

/**
 * Who writes `.eml` files: its name goes into each temporary file, so a later process can tell a
 * temporary file a killed writer left behind (removed) from one being written now (kept).
 */
export interface FileWriter {
  holder: string;
  holderIsDead: (other: string) => boolean;
}

/** Nobody is ever judged gone: temporary files are only removed by the writer that made them. */
const ANONYMOUS_WRITER: FileWriter = {
  holder: `${process.pid}`,
  holderIsDead: () => false,
};

/** `.<file>.eml~<holder>.tmp`: `~` never occurs in a file name `emlFileName` makes. */
const TEMP_FILE = /^\.[^~]+\.eml~(.+)\.tmp$/;

function removeAbandonedTempFiles(dir: string, writer: FileWriter): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const holder = TEMP_FILE.exec(name)?.[1];
    if (holder !== undefined && writer.holderIsDead(holder))
      rmSync(join(dir, name), { force: true });
  }
}

export function createEmlTransport(
  outboxDir: string,
  writer: FileWriter = ANONYMOUS_WRITER,
): MailTransport {
  const dir = resolve(outboxDir);
  const mailer = createNodemailer({ streamTransport: true, buffer: true, newline: "windows" });
  let swept = false;
  return {
    async send(message) {
      checkHeaders(message);
      let raw: Buffer;
      try {
        const info = await mailer.sendMail(mailOptions(message));
        raw = Buffer.isBuffer(info.message) ? info.message : Buffer.from(String(info.message));
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        throw new MailError("rejected", `building the message failed: ${detail}`);
      }
      if (!swept) {
        swept = true;
        removeAbandonedTempFiles(dir, writer);
      }
      const path = join(dir, emlFileName(message.messageId));
      const tmp = join(dir, `.${emlFileName(message.messageId)}~${writer.holder}.tmp`);
      try {
        ensurePrivateDir(dir);
        // Written whole, then renamed: a reader never sees half a file, and a resend after a crash
        // replaces the same file instead of adding a second copy.
        const fd = openSync(tmp, "w", 0o600);
        try {
          fchmodSync(fd, 0o600);
          writeSync(fd, raw);
          fsyncSync(fd);
        } finally {
          closeSync(fd);
        }
        renameSync(tmp, path);
      } catch (error) {
        rmSync(tmp, { force: true });
        const detail = error instanceof Error ? error.message : String(error);
        throw new MailError("file", `cannot write ${path}: ${detail}`);
      }
      return { response: null, path };
    },
    close() {
      mailer.close();
    },
    describe: () => `.eml files in ${dir}`,
  };
}
