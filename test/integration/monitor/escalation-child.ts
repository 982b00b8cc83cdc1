import { queueDueEscalations } from "../../../src/monitor/report/escalate.js";
import { closeDatabase, openDatabase } from "../../../src/store/database.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import { drainTo, escalationDeps } from "../../support/escalation-deps.js";

/**
 * `escalation-child.ts DB SMTP_URL NOW`: a delivery in its own process (the due escalation steps
 * queued, then the e-mail drained), for a test to kill between the step's commit and its send.
 */
const [dbPath, smtpUrl, nowIso] = process.argv.slice(2);
if (dbPath === undefined || smtpUrl === undefined || nowIso === undefined) {
  throw new Error("usage: escalation-child.ts DB SMTP_URL NOW");
}
const db = openDatabase(dbPath);
const clock = new FakeClock({ now: Date.parse(nowIso) });
queueDueEscalations(escalationDeps(db, clock), new Date(nowIso));
process.stdout.write("queued\n");
await drainTo(db, smtpUrl, clock, "unused");
closeDatabase(db);
