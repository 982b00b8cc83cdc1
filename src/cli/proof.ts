import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseCnjNumber } from "../datajud/cnj-number.js";
import { embeddedProofJson, proofHtml } from "../notify/render/proof-document.js";
import { buildProofRecord, ProofRecordSchema, verifyProofRecord } from "../proof/record.js";
import { keyFingerprint, publicKeyText } from "../proof/signature.js";
import { findCasesByNumber } from "../store/cases.js";
import { closeDatabase, immediate } from "../store/database.js";
import { ledgerAnchor, ledgerEntries, sealLedger } from "../store/ledger.js";
import { parseIsoDate } from "../time/calendar-date.js";
import { isoNow } from "../time/clock.js";
import { instantInZone } from "../time/zoned-time.js";
import { type CliIo, type Command, EXIT, programOf, systemOf, UsageError } from "./command.js";
import { loadProofKey } from "./proof-key.js";
import { loadRuntime, openRecordedDatabase } from "./runtime.js";

/*
 * `proof CNJ` exports a case's record of watching (every DataJud and DJEN check and every
 * delivery, hash-chained, signed at its head); `proof verify FILE` checks one with nothing but
 * the file; `proof key` prints the public key a firm hands over with its records.
 */

const MAX_FILE_BYTES = 256 * 1024 * 1024;

function readRecordFile(io: CliIo, path: string): string {
  const full = resolve(io.cwd, path);
  let text: string;
  try {
    text = readFileSync(full, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new UsageError(`cannot read ${path} (${code})`);
  }
  if (text.length > MAX_FILE_BYTES) throw new UsageError(`${path} is too large to be a record`);
  return text;
}

async function verify(io: CliIo, path: string): Promise<number> {
  const text = readRecordFile(io, path);
  const json = text.trimStart().startsWith("<") ? embeddedProofJson(text) : text;
  if (json === null) {
    throw new UsageError(`${path}: an HTML page with no record in it; export it with proof CNJ`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new UsageError(`${path}: not JSON; is it a file that proof CNJ wrote?`);
  }
  const parsed = ProofRecordSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined ? "" : ` at ${issue.path.join(".") || "the top"}`;
    throw new UsageError(
      `${path}: not a record of watching${where} (${issue?.message ?? "invalid"}); a record is what proof CNJ --format json or html writes`,
    );
  }
  const verdict = verifyProofRecord(parsed.data);
  const who = parsed.data.caseNumber ?? parsed.data.subject;
  if (verdict.intact) {
    io.stdout.write(
      `intact: ${verdict.entries} entries of ${who}${verdict.firstAt === null ? "" : `, ${verdict.firstAt} to ${verdict.lastAt}`}; signed by ${verdict.key}\n`,
    );
    return EXIT.ok;
  }
  const { problem } = verdict;
  io.stdout.write(
    problem.seq === null
      ? `BROKEN: ${who}: ${problem.why}\n`
      : `BROKEN: ${who}: entry ${problem.seq} (${problem.at}) ${problem.why}\n`,
  );
  return EXIT.failures;
}

function sinceOption(value: unknown): string | null {
  if (value === undefined) return null;
  const text = String(value);
  if (parseIsoDate(text) !== text) {
    throw new UsageError(`--since must be a date like 2026-01-31, not "${text}"`);
  }
  return text;
}

function formatOption(value: unknown): "json" | "html" {
  if (value === undefined || value === "json") return "json";
  if (value === "html") return "html";
  throw new UsageError(`--format must be json or html, not "${String(value)}"`);
}

async function exportRecord(
  io: CliIo,
  input: string,
  values: Record<string, unknown>,
): Promise<number> {
  const parsed = parseCnjNumber(input);
  if (!parsed.ok) throw new UsageError(parsed.error);
  const since = sinceOption(values.since);
  const format = formatOption(values.format);
  const runtime = loadRuntime(io, "proof");
  if (!runtime) return EXIT.usage;
  const key = loadProofKey(io.env, io.cwd, runtime.config.paths.db, { create: true });
  if (!key.ok) {
    io.stderr.write(`${programOf(io)} proof: ${key.error}\n`);
    return EXIT.usage;
  }
  const db = openRecordedDatabase(io, runtime, "proof");
  if (!db) return EXIT.usage;
  try {
    const zone = runtime.config.schedule.timezone;
    const subject = parsed.value.digits;
    const known = findCasesByNumber(db, subject);
    const { entries, anchor } = immediate(db, () => {
      sealLedger(db);
      const sinceIso =
        since === null ? null : new Date(instantInZone(since, "00:00", zone)).toISOString();
      return { entries: ledgerEntries(db, subject, sinceIso), anchor: ledgerAnchor(db, subject) };
    });
    if (known.length === 0 && entries.length === 0 && anchor === null) {
      io.stderr.write(
        `${programOf(io)} proof: ${parsed.value.formatted} has no recorded checks; is it in the watchlist?\n`,
      );
      return EXIT.usage;
    }
    const record = buildProofRecord(
      {
        subject,
        caseNumber: parsed.value.formatted,
        label: known[0]?.label ?? null,
        exportedAt: isoNow(systemOf(io).clock),
        since,
        anchor: since === null ? anchor : null,
        entries,
      },
      key.key,
    );
    io.stdout.write(
      format === "html" ? proofHtml(record, zone) : `${JSON.stringify(record, null, 1)}\n`,
    );
    return EXIT.ok;
  } finally {
    closeDatabase(db);
  }
}

async function printKey(io: CliIo): Promise<number> {
  const runtime = loadRuntime(io, "proof");
  if (!runtime) return EXIT.usage;
  const key = loadProofKey(io.env, io.cwd, runtime.config.paths.db, { create: true });
  if (!key.ok) {
    io.stderr.write(`${programOf(io)} proof key: ${key.error}\n`);
    return EXIT.usage;
  }
  const publicKey = publicKeyText(key.key);
  io.stdout.write(
    `${keyFingerprint(publicKey)}\npublic key (Ed25519, SPKI DER, base64): ${publicKey}\nfrom ${key.source}\n`,
  );
  return EXIT.ok;
}

export const proofCommand: Command = {
  name: "proof",
  summary: "A case's verifiable record of watching: every check and delivery, hash-chained",
  usage:
    "datajud-monitor proof CNJ [--since YYYY-MM-DD] [--format json|html] > record | proof verify FILE | proof key",
  details: [
    "CNJ             every DataJud and DJEN check of the case and every alert about it, in the",
    "                order they were written, each entry chained to the one before by SHA-256,",
    "                the whole signed with the monitor's key (PROOF_SIGNING_KEY, else a key kept",
    "                beside the database)",
    "--since DATE    from the first entry written on or after DATE (the schedule's zone)",
    "--format html   a printable page for a client or a court, with the record inside it",
    "verify FILE     checks a record (JSON or the HTML page): 0 intact, 1 broken (names the first",
    "                entry that does not hold), 2 not a record",
    "key             prints the public key and its fingerprint, to hand over with the records",
    "Exit codes: 0 exported, intact or printed, 1 a broken record, 2 not a record, an unknown case, bad usage or config.",
  ],
  options: {
    since: { type: "string" },
    format: { type: "string" },
  },
  allowPositionals: true,
  async run(args, io) {
    const [first, ...rest] = args.positionals;
    if (first === undefined)
      throw new UsageError("say which case: proof CNJ, or proof verify FILE");
    if (first === "verify") {
      const [file, ...extra] = rest;
      if (file === undefined) throw new UsageError("verify needs the FILE that proof CNJ wrote");
      if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
      return verify(io, file);
    }
    if (first === "key") {
      if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
      return printKey(io);
    }
    if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
    return exportRecord(io, first, args.values);
  },
};
