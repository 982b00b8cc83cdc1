import { silentLogger } from "../../../../src/log.js";
import { drainEndpoints } from "../../../../src/notify/outbox/endpoint-drain.js";
import { DEFAULT_ENDPOINT_LIMITS } from "../../../../src/notify/transport/http-endpoint.js";
import { closeDatabase, openDatabase } from "../../../../src/store/database.js";
import { thisProcessClaimant } from "../../../../src/store/lease.js";
import { realSystem } from "../../../../src/system.js";
import { FakeClock } from "../../../fakes/fake-clock.js";

/**
 * `endpoint-drain-child.ts DB WEBHOOK_URL SECRET NOW`: one drain of the webhook rows in its own
 * process, for a test to kill between the receiver's 2xx and the mark.
 */
const [dbPath, url, secret, nowIso] = process.argv.slice(2);
if (dbPath === undefined || url === undefined || secret === undefined || nowIso === undefined) {
  throw new Error("usage: endpoint-drain-child.ts DB WEBHOOK_URL SECRET NOW");
}
const db = openDatabase(dbPath);
const result = await drainEndpoints({
  claimant: thisProcessClaimant(realSystem),
  db,
  endpoints: [{ name: "webhook", channel: "webhook", url, secrets: [secret] }],
  limits: DEFAULT_ENDPOINT_LIMITS,
  clock: new FakeClock({ now: Date.parse(nowIso) }),
  maxAttempts: 5,
  logger: silentLogger(),
});
closeDatabase(db);
process.stdout.write(`${JSON.stringify(result)}\n`);
