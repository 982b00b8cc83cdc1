import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { closeDatabase, type Db, openDatabase } from "../../../src/store/database.js";
import {
  claimOutbox,
  deadOutbox,
  dueOutbox,
  insertOutboxRow,
  markFailed,
  markSent,
  type NewOutboxRow,
  outboxCounts,
  pendingMailByCase,
  releaseAbandonedClaims,
} from "../../../src/store/outbox.js";

let dir: string;
let db: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "store-outbox-"));
  db = openDatabase(join(dir, "monitor.db"));
});

afterEach(() => {
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

function row(key: string, overrides: Partial<NewOutboxRow> = {}): NewOutboxRow {
  return {
    changeId: null,
    caseId: null,
    channel: "email",
    recipient: "ana@example.com",
    kind: "alert",
    messageType: "movement",
    dedupeKey: key,
    subject: "[datajud] x",
    messageId: `<${key}@example.com>`,
    payload: { hello: key },
    createdAt: "2026-03-01T10:00:00.000Z",
    ...overrides,
  };
}

describe("outbox", () => {
  it("queues a dedupe key once", () => {
    const first = insertOutboxRow(db, row("k1"));
    const second = insertOutboxRow(db, row("k1", { recipient: "other@example.com" }));

    expect(first).toBe(true);
    expect(second).toBe(false);
    expect(outboxCounts(db)).toEqual({ pending: 1, sent: 0, dead: 0 });
  });

  it("returns due rows oldest first with their payload, paging after an id", () => {
    insertOutboxRow(db, row("k1"));
    insertOutboxRow(db, row("k2"));
    insertOutboxRow(db, row("k3"));

    const all = dueOutbox(db, "email", "2026-03-01T10:00:00.000Z", 10);
    const page = dueOutbox(db, "email", "2026-03-01T10:00:00.000Z", 1, all[0]?.id ?? 0);

    expect(all.map((r) => r.dedupeKey)).toEqual(["k1", "k2", "k3"]);
    expect(all[0]).toMatchObject({ status: "pending", attempts: 0, payload: { hello: "k1" } });
    expect(page.map((r) => r.dedupeKey)).toEqual(["k2"]);
  });

  it("lets one claimant take a due row and hides it until the claim runs out", () => {
    insertOutboxRow(db, row("k1"));
    const id = dueOutbox(db, "email", "2026-03-01T10:00:00.000Z", 1)[0]?.id ?? -1;

    const won = claimOutbox(db, id, "2026-03-01T10:00:00.000Z", "2026-03-01T10:10:00.000Z");
    const lost = claimOutbox(db, id, "2026-03-01T10:00:01.000Z", "2026-03-01T10:10:01.000Z");

    expect(won).toBe(true);
    expect(lost).toBe(false);
    expect(dueOutbox(db, "email", "2026-03-01T10:05:00.000Z", 10)).toEqual([]);
    expect(dueOutbox(db, "email", "2026-03-01T10:10:00.000Z", 10)).toHaveLength(1);
  });

  it("makes rows claimed by a dead holder due at once, and leaves live holders' and retries alone", () => {
    for (const key of ["dead", "live", "retry"]) insertOutboxRow(db, row(key));
    const ids = dueOutbox(db, "email", "2026-03-01T10:00:00.000Z", 10).map((r) => r.id);
    const [dead, live, retry] = ids as [number, number, number];
    claimOutbox(db, dead, "2026-03-01T10:00:00.000Z", "2026-03-01T10:10:00.000Z", "1@h:aa");
    claimOutbox(db, live, "2026-03-01T10:00:00.000Z", "2026-03-01T10:10:00.000Z", "2@h:bb");
    claimOutbox(db, retry, "2026-03-01T10:00:00.000Z", "2026-03-01T10:10:00.000Z", "1@h:aa");
    markFailed(db, retry, { error: "451", nextAttemptAt: "2026-03-01T10:02:00.000Z", dead: false });

    const released = releaseAbandonedClaims(
      db,
      "2026-03-01T10:01:00.000Z",
      (holder) => holder === "1@h:aa",
    );

    expect(released).toBe(1);
    expect(dueOutbox(db, "email", "2026-03-01T10:01:00.000Z", 10).map((r) => r.dedupeKey)).toEqual([
      "dead",
    ]);
  });

  it("counts failures, backs off, and keeps dead rows out of the due list", () => {
    insertOutboxRow(db, row("k1"));
    const id = dueOutbox(db, "email", "2026-03-01T10:00:00.000Z", 1)[0]?.id ?? -1;

    markFailed(db, id, {
      error: "451 later",
      nextAttemptAt: "2026-03-01T10:01:00.000Z",
      dead: false,
    });
    const waiting = dueOutbox(db, "email", "2026-03-01T10:00:30.000Z", 10);
    const retry = dueOutbox(db, "email", "2026-03-01T10:01:00.000Z", 10);
    markFailed(db, id, { error: "550 no", nextAttemptAt: "2026-03-01T10:03:00.000Z", dead: true });

    expect(waiting).toEqual([]);
    expect(retry[0]).toMatchObject({ attempts: 1, lastError: "451 later" });
    expect(dueOutbox(db, "email", "2026-03-02T00:00:00.000Z", 10)).toEqual([]);
    expect(deadOutbox(db)).toMatchObject([
      { id, status: "dead", attempts: 2, lastError: "550 no" },
    ]);
    expect(outboxCounts(db)).toEqual({ pending: 0, sent: 0, dead: 1 });
  });

  it("marks a row sent with the server's response", () => {
    insertOutboxRow(db, row("k1"));
    const id = dueOutbox(db, "email", "2026-03-01T10:00:00.000Z", 1)[0]?.id ?? -1;

    markSent(db, id, { sentAt: "2026-03-01T10:00:05.000Z", smtpResponse: "250 OK queued as X" });

    expect(dueOutbox(db, "email", "2026-03-02T00:00:00.000Z", 10)).toEqual([]);
    expect(outboxCounts(db)).toEqual({ pending: 0, sent: 1, dead: 0 });
    expect(pendingMailByCase(db).size).toBe(0);
  });
});
