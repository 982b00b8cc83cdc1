/**
 * `node --import tsx test/bench/crash-kills.ts [--kills 20] [--alerts 30]`: how many e-mails a
 * drain killed with SIGKILL right after the mail server accepted a message sends twice, and how
 * many are left waiting. Each kill hits a fresh drain process the moment the SMTP server has
 * written "250" for its first message; after the last kill, one more drain runs a minute later
 * (far inside the ten minutes a claim lasts) and everything should be out. Figures, not
 * assertions: the crash tests in test/integration assert the guarantee.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { simpleParser } from "mailparser";
import { silentLogger } from "../../src/log.js";
import { drainOutbox } from "../../src/notify/outbox/drain.js";
import { createTransport } from "../../src/notify/transport/transports.js";
import { closeDatabase, openDatabase } from "../../src/store/database.js";
import { thisProcessClaimant } from "../../src/store/lease.js";
import { outboxCounts } from "../../src/store/outbox.js";
import { realSystem } from "../../src/system.js";
import { FakeClock } from "../fakes/fake-clock.js";
import { startSmtpSink } from "../fakes/smtp-sink.js";
import { DOMAIN, FROM, LIST_ID, queueChange } from "../support/outbox-store.js";
import { sampleAlert } from "../unit/notify/render/sample-alert.js";

const CHILD = join(import.meta.dirname, "../integration/notify/outbox/drain-child.ts");

const { values } = parseArgs({
  options: {
    kills: { type: "string", default: "20" },
    alerts: { type: "string", default: "30" },
  },
});
const kills = Number(values.kills);
const alerts = Number(values.alerts);

const dir = mkdtempSync(join(tmpdir(), "bench-crash-"));
const dbPath = join(dir, "monitor.db");
const db = openDatabase(dbPath);
const recipients = Array.from({ length: alerts }, (_, i) => `watcher${i}@example.com`);
queueChange(db, sampleAlert(), recipients, new Date().toISOString());

let victim: ReturnType<typeof spawn> | undefined;
const sink = await startSmtpSink({
  afterReply: () => {
    victim?.kill("SIGKILL");
    victim = undefined;
  },
});

let killed = 0;
for (let i = 0; i < kills; i++) {
  const before = sink.messages.length;
  const exit = await new Promise<NodeJS.Signals | null>((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      ["--import", "tsx", CHILD, dbPath, sink.url(), new Date().toISOString()],
      { stdio: "ignore" },
    );
    victim = proc;
    proc.on("error", reject);
    proc.on("exit", (_code, signal) => resolve(signal));
  });
  if (exit === "SIGKILL" && sink.messages.length > before) killed++;
}
const receivedInKills = sink.messages.length;
const waitingAfterKills = outboxCounts(db).pending;

const transport = createTransport({ smtpUrl: sink.url(), outboxDir: dir });
const aMinuteLater = new Date(Date.now() + 60_000);
const last = await drainOutbox({
  claimant: thisProcessClaimant(realSystem),
  db,
  transport,
  from: FROM,
  listId: LIST_ID,
  domain: DOMAIN,
  clock: new FakeClock({ now: aMinuteLater.getTime() }),
  maxAttempts: 8,
  logger: silentLogger(),
});
transport.close();
const ids = (await Promise.all(sink.messages.map((m) => simpleParser(m.raw)))).map(
  (m) => m.messageId ?? "",
);
const distinct = new Set(ids).size;
const counts = outboxCounts(db);
await sink.close();
closeDatabase(db);
rmSync(dir, { recursive: true, force: true });

process.stdout.write(
  `${JSON.stringify(
    {
      alerts,
      kills: killed,
      receivedDuringKills: receivedInKills,
      pendingAfterKills: waitingAfterKills,
      sentByTheNextDrain: last.sent,
      leftWaitingAfterIt: counts.pending,
      received: ids.length,
      distinct,
      duplicates: ids.length - distinct,
    },
    null,
    2,
  )}\n`,
);
