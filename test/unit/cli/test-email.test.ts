import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CliIo, parseCommandArgs } from "../../../src/cli/command.js";
import { statusCommand } from "../../../src/cli/status.js";
import { testEmailCommand } from "../../../src/cli/test-email.js";
import { closeDatabase, openDatabase } from "../../../src/store/database.js";
import { type SmtpSink, startSmtpSink } from "../../fakes/smtp-sink.js";

const CREDENTIALS = { user: "monitor", pass: "s3cr3t-p@ss" };

let dir: string;
let sink: SmtpSink;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "cli-test-email-"));
  sink = await startSmtpSink({ auth: CREDENTIALS });
});

afterEach(async () => {
  await sink.close();
  rmSync(dir, { recursive: true, force: true });
});

function baseEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    MONITOR_DB: join(dir, "monitor.db"),
    MONITOR_WATCHLIST: join(dir, "watchlist.yaml"),
    MONITOR_OUTBOX_DIR: join(dir, "outbox"),
    MAIL_FROM: "Monitor <monitor@escritorio.example.com>",
    MONITOR_LOG_LEVEL: "silent",
    SMTP_URL: sink.url(CREDENTIALS),
    ...extra,
  };
}

async function run(
  argv: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const io: CliIo = {
    argv,
    env,
    cwd: dir,
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    signal: new AbortController().signal,
  };
  const code = await testEmailCommand.run(parseCommandArgs(testEmailCommand, argv), io);
  return { code, out, err };
}

describe("monitor test-email", () => {
  it("sends the sample alert over SMTP to --to and says where it went", async () => {
    const result = await run(["--to", "Ana@Example.com"], baseEnv());

    expect(result.code).toBe(0);
    expect(result.err).toBe("");
    expect(result.out).toContain("test e-mail to Ana@example.com (from --to) accepted by smtp://");
    expect(result.out).toMatch(/: 250 /);
    expect(result.out).not.toContain(CREDENTIALS.pass);
    expect(sink.messages).toHaveLength(1);
    expect(sink.messages[0]?.to).toEqual(["Ana@example.com"]);
    const mail = await simpleParser(sink.messages[0]?.raw ?? Buffer.alloc(0));
    expect(mail.subject).toBe(
      "[datajud] ⚠ Exemplo: Silva x Souza (despejo) · e-mail de teste: decidido (2 movimentações novas)",
    );
    expect(mail.text).toContain("Procedência");
    expect(mail.html).toContain("Requer atenção do advogado");
    expect(mail.inReplyTo).toMatch(/^<case\./);
    expect(result.out).toContain(`Message-ID: ${mail.messageId}`);
    const db = openDatabase(join(dir, "monitor.db"));
    const rows = db
      .prepare<[], { kind: string; status: string }>("SELECT kind, status FROM outbox")
      .all();
    closeDatabase(db);
    expect(rows).toEqual([{ kind: "test", status: "sent" }]);
  });

  it("uses a new Message-ID on every run", async () => {
    await run(["--to", "ana@example.com"], baseEnv());

    await run(["--to", "ana@example.com"], baseEnv());

    const [a, b] = await Promise.all(sink.messages.map((m) => simpleParser(m.raw)));
    expect(sink.messages).toHaveLength(2);
    expect(a?.messageId).not.toBe(b?.messageId);
  });

  it("falls back to mail.admin, then to the watchlist's first notify address", async () => {
    const config = join(dir, "monitor.yaml");
    writeFileSync(config, "mail:\n  admin: ti@example.com\n");
    writeFileSync(
      join(dir, "watchlist.yaml"),
      'defaults:\n  notify: [escritorio@example.com]\ncases:\n  - number: "0713383-43.2025.8.07.0006"\n    notify: [ana@example.com]\n',
    );

    const toAdmin = await run([], baseEnv({ MONITOR_CONFIG: config }));
    const toWatcher = await run([], baseEnv());

    expect(toAdmin.code).toBe(0);
    expect(toAdmin.out).toContain("to ti@example.com (from mail.admin)");
    expect(toWatcher.code).toBe(0);
    expect(toWatcher.out).toContain("to escritorio@example.com (from the watchlist)");
    expect(sink.messages.map((m) => m.to[0])).toEqual(["ti@example.com", "escritorio@example.com"]);
  });

  it("exits 2 when nobody can receive it", async () => {
    const result = await run([], baseEnv());

    expect(result.code).toBe(2);
    expect(result.err).toContain("no recipient: pass --to ADDR, set mail.admin");
    expect(result.err).toContain("does not exist");
    expect(sink.messages).toHaveLength(0);
  });

  it("exits 1 with the server's answer, never the password, when SMTP refuses", async () => {
    const wrong = "wr0ng-p@ss/word";

    const result = await run(
      ["--to", "ana@example.com"],
      baseEnv({ SMTP_URL: sink.url({ user: "monitor", pass: wrong }) }),
    );

    expect(result.code).toBe(1);
    expect(result.err).toContain(
      "datajud-monitor test-email: sending to ana@example.com via smtp://",
    );
    expect(result.err).toContain("535");
    expect(result.err).not.toContain(wrong);
    expect(result.err).not.toContain(encodeURIComponent(wrong));
    expect(result.out).toBe("");
  });

  it("leaves a failed test out of monitor status: it was told at once, and is never retried", async () => {
    const env = baseEnv({ SMTP_URL: sink.url({ user: "monitor", pass: "wrong-pass" }) });
    await run(["--to", "ana@example.com"], env);
    writeFileSync(join(dir, "watchlist.yaml"), "cases: []\n");
    let out = "";
    const io: CliIo = {
      argv: ["status"],
      env,
      cwd: dir,
      stdout: { write: (s: string) => (out += s) },
      stderr: { write: () => true },
      signal: new AbortController().signal,
    };

    const code = await statusCommand.run(parseCommandArgs(statusCommand, []), io);

    expect(code).toBe(0);
    expect(out).not.toContain("undeliverable");
    expect(out).toContain("0 sent, 0 dead");
  });

  it("writes an .eml file when SMTP_URL is not set", async () => {
    const env = baseEnv();
    delete env.SMTP_URL;

    const result = await run(["--to", "ana@example.com"], env);

    expect(result.code).toBe(0);
    const path = /written to (\S+\.eml)/.exec(result.out)?.[1] ?? "";
    expect(path.startsWith(join(dir, "outbox"))).toBe(true);
    expect(existsSync(path)).toBe(true);
    expect(readFileSync(path, "utf8")).toContain("To: ana@example.com");
  });
});
