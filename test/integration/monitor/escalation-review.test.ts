import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { queueDueEscalations } from "../../../src/monitor/report/escalate.js";
import { closeDatabase, type Db, openDatabase } from "../../../src/store/database.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import { escalationDeps, escalationPolicy } from "../../support/escalation-deps.js";
import { queueChange } from "../../support/outbox-store.js";
import { sampleAlert } from "../../unit/notify/render/sample-alert.js";

/*
 * Escalation against the acknowledgement links' lifetime: the sample alert's TJDFT case, the chain
 * within 4 business hours (09:00-18:00, São Paulo's clock): socia@, then rui@.
 */

/** São Paulo wall clock (UTC-3) as epoch ms. */
function local(month: number, day: number, hour: number, minute = 0): number {
  return Date.UTC(2026, month - 1, day, hour + 3, minute);
}

let db: Db;
let clock: FakeClock;

beforeEach(() => {
  db = openDatabase(":memory:");
  clock = new FakeClock({ now: local(11, 27, 16) });
});

afterEach(() => closeDatabase(db));

function escalatedTo(): string[] {
  return (
    db
      .prepare(
        "SELECT recipient FROM outbox WHERE message_type = 'escalation' AND channel = 'email' ORDER BY id",
      )
      .all() as Array<{ recipient: string }>
  ).map((r) => r.recipient);
}

describe("links that expire before the chain is due", () => {
  it("still escalate an alert nobody acknowledged: validHours 24 over a weekend", () => {
    const policy = escalationPolicy(24);
    const deps = { ...escalationDeps(db, clock), policy: () => policy };
    // Fri 27/11/2026 16:00; links valid until Sat 16:00. Step 1 by hand: Fri 16:00-18:00 (2 h),
    // Mon 30/11 09:00-11:00 (2 h) = Mon 11:00; step 2 Mon 15:00.
    queueChange(
      db,
      sampleAlert({ urgent: true, urgentReasons: ["regra urgente: sentença"] }),
      ["ana@example.com"],
      new Date(clock.now()).toISOString(),
      policy,
    );
    queueDueEscalations(deps, new Date(local(11, 27, 16, 1)));
    // Planned: the links now last 24 h after the last step is due, Tue 01/12 15:00 (18:00Z).
    expect(db.prepare("SELECT expires_at AS e FROM acknowledgements").get()).toEqual({
      e: "2026-12-01T18:00:00.000Z",
    });
    queueDueEscalations(deps, new Date(local(11, 30, 11)));
    expect(escalatedTo()).toEqual(["socia@example.com"]);
    queueDueEscalations(deps, new Date(local(11, 30, 15)));
    expect(escalatedTo()).toEqual(["socia@example.com", "rui@example.com"]);
  });
});
