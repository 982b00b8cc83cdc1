import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { alertMessageId } from "../../../../src/notify/outbox/message-ids.js";
import { movementAlert, operatorAlert } from "../../../../src/notify/outbox/messages.js";
import { emailEndpoints, queueMessage } from "../../../../src/notify/outbox/queue.js";
import { mailPolicy } from "../../../../src/policy/mail-policy.js";
import { closeDatabase, type Db, openDatabase } from "../../../../src/store/database.js";
import { parseWatchlist } from "../../../../src/watchlist/parse-watchlist.js";
import { makeTempDir } from "../../../support/temp-dir.js";
import { sampleAlert } from "../render/sample-alert.js";

const DOMAIN = "monitor.example.com";
/** 23:00 in São Paulo, inside quiet hours 22:00-07:00. */
const NIGHT = new Date("2026-03-04T02:00:00.000Z");
const MORNING = "2026-03-04T10:00:00.000Z";

let db: Db;

beforeEach(() => {
  db = openDatabase(`${makeTempDir("outbox-queue-")}/monitor.db`);
});

afterEach(() => {
  closeDatabase(db);
});

interface Row {
  channel: string;
  recipient: string;
  kind: string;
  key: string;
  messageId: string;
  notBefore: string | null;
}

function rows(): Row[] {
  return db
    .prepare<[], Row>(
      `SELECT channel, recipient, kind, dedupe_key AS key, message_id AS messageId,
         next_attempt_at AS notBefore FROM outbox ORDER BY id`,
    )
    .all();
}

function policy() {
  const parsed = parseWatchlist(
    'defaults:\n  notify: [rui@example.com]\ncases:\n  - number: "0713383-43.2025.8.07.0006"\nwatchers:\n  - address: rui@example.com\n    delivery: digest\n',
    "watchlist.yaml",
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return mailPolicy(parsed.watchlist, {
    timezone: "America/Sao_Paulo",
    quietHours: { start: "22:00", end: "07:00" },
    urgentBypassesQuietHours: true,
    defaultDelivery: "instant",
  });
}

/** A change's alert, unattached to stored rows (the outbox's references are nullable). */
const change = (urgent = false) => ({
  ...movementAlert({
    changeId: 7,
    caseId: 3,
    detectedAt: "2026-03-04T01:59:00.000Z",
    content: sampleAlert({ urgent }),
  }),
  changeId: null,
  caseId: null,
});

describe("queueMessage", () => {
  it("queues one row per endpoint, keyed by what it is about and then the endpoint, once", () => {
    const message = change();
    const endpoints = emailEndpoints(["Ana@Example.com", " ana@example.com ", "", "rui@x.com"]);

    const first = queueMessage({ db, domain: DOMAIN, at: NIGHT }, message, endpoints);
    const again = queueMessage({ db, domain: DOMAIN, at: NIGHT }, message, endpoints);

    expect(first).toEqual({ email: 2 });
    expect(again).toEqual({});
    expect(rows()).toEqual([
      {
        channel: "email",
        recipient: "Ana@Example.com",
        kind: "alert",
        key: `${message.key}:ana@example.com`,
        messageId: alertMessageId(`${message.key}:ana@example.com`, DOMAIN),
        notBefore: null,
      },
      {
        channel: "email",
        recipient: "rui@x.com",
        kind: "alert",
        key: `${message.key}:rui@x.com`,
        messageId: alertMessageId(`${message.key}:rui@x.com`, DOMAIN),
        notBefore: null,
      },
    ]);
  });

  it("times every kind by the one rule: watcher's delivery, quiet hours, urgency, operator now", () => {
    const context = { db, domain: DOMAIN, at: NIGHT, policy: policy() };
    const refused = operatorAlert(
      { type: "auth_rejected", since: NIGHT.toISOString(), lastError: null, affectedCases: 1 },
      null,
    );

    queueMessage(context, change(), emailEndpoints(["ana@example.com", "rui@example.com"]));
    queueMessage(context, { ...change(true), key: "urgent" }, emailEndpoints(["ana@example.com"]));
    queueMessage(context, refused, emailEndpoints(["ti@example.com"]));

    expect(rows().map((r) => [r.recipient, r.kind, r.notBefore])).toEqual([
      ["ana@example.com", "alert", MORNING],
      ["rui@example.com", "digest", MORNING],
      ["ana@example.com", "alert", null],
      ["ti@example.com", "admin", null],
    ]);
  });
});
