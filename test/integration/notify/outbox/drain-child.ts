import { silentLogger } from "../../../../src/log.js";
import { drainOutbox } from "../../../../src/notify/outbox/drain.js";
import { createTransport } from "../../../../src/notify/transport/transports.js";
import { closeDatabase, openDatabase } from "../../../../src/store/database.js";
import { thisProcessClaimant } from "../../../../src/store/lease.js";
import { realSystem } from "../../../../src/system.js";
import { FakeClock } from "../../../fakes/fake-clock.js";
import { DOMAIN, FROM, LIST_ID } from "../../../support/outbox-store.js";

/** `drain-child.ts DB SMTP_URL NOW`: one drain in its own process, for a test to kill mid-send. */
const [dbPath, smtpUrl, nowIso] = process.argv.slice(2);
if (dbPath === undefined || smtpUrl === undefined || nowIso === undefined) {
  throw new Error("usage: drain-child.ts DB SMTP_URL NOW");
}
const db = openDatabase(dbPath);
const transport = createTransport({ smtpUrl, outboxDir: "unused" });
const result = await drainOutbox({
  claimant: thisProcessClaimant(realSystem),
  db,
  transport,
  from: FROM,
  listId: LIST_ID,
  domain: DOMAIN,
  clock: new FakeClock({ now: Date.parse(nowIso) }),
  maxAttempts: 5,
  logger: silentLogger(),
});
transport.close();
closeDatabase(db);
process.stdout.write(`${JSON.stringify(result)}\n`);
