import { copyFileSync } from "node:fs";
import { basename, join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { readStoredMessage } from "../../../src/notify/outbox/message-types.js";
import {
  correctionNotices,
  djenGapMessage,
  movementAlert,
  operatorAlert,
  publicationAlert,
  statusReport,
  testMessage,
} from "../../../src/notify/outbox/messages.js";
import type { OutboxMessage } from "../../../src/notify/outbox/queue.js";
import { buildStatusReport } from "../../../src/notify/render/status-report.js";
import { defaultMigrationsDir } from "../../../src/store/database.js";
import { listMigrations, migrate } from "../../../src/store/migrate.js";
import { makeTempDir } from "../../support/temp-dir.js";
import { sampleAlert, sampleMovement } from "../notify/render/sample-alert.js";
import { samplePublication } from "../notify/render/sample-publication.js";

/*
 * Migration 018 names each outbox row's message type; rows queued before it get theirs from what
 * the payload alone carries. Every kind of message the outbox queues today, stored as a database
 * of version 17 held it, comes out of the migration with the type its constructor now gives, and
 * reads back through that type's schema.
 */

const AT = "2026-03-03T12:00:00.000Z";

function messages(): OutboxMessage[] {
  const content = sampleAlert();
  const corrected = sampleAlert({
    corrections: [
      {
        instance: "G1",
        kind: "redated",
        before: sampleMovement(),
        after: sampleMovement({ dateTime: "2025-10-09T10:30:00" }),
      },
    ],
  });
  const change = { changeId: 1, caseId: 1, detectedAt: AT, content, channels: ["equipe"] };
  return [
    movementAlert(change),
    ...correctionNotices({ ...change, content: corrected }),
    publicationAlert(samplePublication(), 1, ["equipe"]),
    operatorAlert(
      { type: "auth_rejected", since: AT, lastError: "HTTP 401", affectedCases: 3 },
      null,
    ),
    statusReport(
      buildStatusReport({
        cases: [],
        now: new Date(AT),
        staleAfterDays: 90,
        timezone: "America/Sao_Paulo",
      }),
      new Date(AT),
    ),
    djenGapMessage(
      {
        type: "djen_gap",
        caseNumber: content.caseNumber,
        court: content.court,
        label: null,
        instance: "G1",
        movementName: "Disponibilização no DJe",
        availableOn: "2026-03-02",
        djenAskedAt: AT,
        urgent: true,
        foundAt: AT,
        courtLink: null,
      },
      7,
      1,
    ),
    testMessage(content, new Date(AT), "n"),
  ];
}

describe("migration 018: the message type in each outbox row", () => {
  it("gives each row queued before it the type its message has now, which reads back", () => {
    const all = listMigrations(defaultMigrationsDir());
    const dir = makeTempDir("outbox-type-migrations-");
    const before = makeTempDir("outbox-type-17-");
    for (const m of all) copyFileSync(m.file, join(dir, basename(m.file)));
    for (const m of all.filter((x) => x.version <= 17)) {
      copyFileSync(m.file, join(before, basename(m.file)));
    }
    const db = new Database(join(makeTempDir("outbox-type-db-"), "monitor.db"));
    migrate(db, before);
    const sent = messages();
    expect(new Set(sent.map((m) => m.type)).size).toBe(6);
    const insert = db.prepare(
      `INSERT INTO outbox (channel, recipient, kind, dedupe_key, subject, message_id, payload, created_at)
       VALUES ('email', 'ana@example.com', ?, ?, 's', ?, ?, ?)`,
    );
    for (const [i, m] of sent.entries()) {
      insert.run(
        m.kind,
        `${m.key}:${i}`,
        `<${i}@monitor.example.com>`,
        JSON.stringify(m.payload),
        AT,
      );
    }

    migrate(db, dir);

    const rows = db
      .prepare("SELECT message_type AS type, payload FROM outbox ORDER BY id")
      .all() as Array<{ type: string; payload: string }>;
    expect(rows.map((r) => r.type)).toEqual(sent.map((m) => m.type));
    for (const row of rows) {
      expect(readStoredMessage(row.type, JSON.parse(row.payload)).ok).toBe(true);
    }
    db.close();
  });

  it("reads a payload only as its stored type: an alert stored as a status report is refused", () => {
    const read = readStoredMessage("status-report", sampleAlert());
    expect(read).toEqual({
      ok: false,
      error: "the stored payload is not a status report; it cannot be sent",
    });
    expect(readStoredMessage("whatsapp-sticker", {})).toMatchObject({ ok: false });
  });
});
