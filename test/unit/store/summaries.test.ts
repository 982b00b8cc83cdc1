import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { insertChange } from "../../../src/store/changes.js";
import type { Db } from "../../../src/store/database.js";
import {
  insertSummary,
  latestSummary,
  summaryForChange,
  tokensSpentSince,
} from "../../../src/store/summaries.js";
import type { CaseSummary } from "../../../src/summarize/case-summary.js";
import { parseStoredSummary } from "../../../src/summarize/case-summary.js";
import { type StoreWithCase, storeWithCase } from "./store-fixtures.js";

let store: StoreWithCase;
let db: Db;
let caseId: number;
let runId: number;

function summary(status: string, generatedBy: string, generatedAt: string): CaseSummary {
  return {
    cnjNumber: "0713383-43.2025.8.07.0006",
    court: "tjdft",
    instances: ["G1"],
    statusCategory: "decided",
    status,
    needsLawyerAttention: true,
    attentionReasons: [
      {
        reason: "Sentença proferida.",
        movements: [
          {
            movementId: "m1",
            dateTime: "2026-11-28T15:00:00.000Z",
            code: 219,
            name: "Procedência",
          },
        ],
      },
    ],
    latestRelevantMovement: null,
    nextExpectedStep: null,
    generatedBy,
    generatedAt,
  };
}

function change(detectedAt: string): number {
  return insertChange(db, {
    caseId,
    runId,
    detectedAt,
    kinds: ["new_movements"],
    details: {},
    newMovements: 1,
  });
}

const USAGE = { inputTokens: 1000, outputTokens: 200, cacheReadTokens: 4000, cacheWriteTokens: 50 };
const NO_USAGE = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

beforeEach(() => {
  store = storeWithCase("store-summaries-", "2026-01-01T00:00:00.000Z");
  ({ db, caseId, runId } = store);
});

afterEach(() => {
  store.close();
});

describe("summaries", () => {
  it("returns the newest summary of a case as the one to diff against", () => {
    const first = change("2026-11-01T00:00:00.000Z");
    const second = change("2026-12-01T00:00:00.000Z");
    insertSummary(db, {
      changeId: first,
      caseId,
      createdAt: "2026-11-01T00:00:05.000Z",
      generatedBy: "rules",
      model: null,
      summary: summary("Antes.", "rules", "2026-11-01T00:00:05.000Z"),
      usage: NO_USAGE,
    });
    insertSummary(db, {
      changeId: second,
      caseId,
      createdAt: "2026-12-01T00:00:05.000Z",
      generatedBy: "claude-fake-1",
      model: "claude-fake-1",
      summary: summary("Depois.", "claude-fake-1", "2026-12-01T00:00:05.000Z"),
      usage: USAGE,
    });

    expect(parseStoredSummary(latestSummary(db, caseId))?.status).toBe("Depois.");
    expect(summaryForChange(db, first)).toMatchObject({
      generatedBy: "rules",
      model: null,
      usage: NO_USAGE,
    });
    expect(summaryForChange(db, second)?.usage).toEqual(USAGE);
  });

  it("has no previous summary for a case never summarized", () => {
    expect(latestSummary(db, caseId)).toBeNull();
    expect(summaryForChange(db, 999)).toBeNull();
  });

  it("keeps one summary per change", () => {
    const id = change("2026-11-01T00:00:00.000Z");
    const row = {
      changeId: id,
      caseId,
      createdAt: "2026-11-01T00:00:05.000Z",
      generatedBy: "rules",
      model: null,
      summary: summary("Antes.", "rules", "2026-11-01T00:00:05.000Z"),
      usage: NO_USAGE,
    };
    insertSummary(db, row);

    expect(() => insertSummary(db, row)).toThrow(/UNIQUE/);
  });

  it("sums the tokens the daily cap counts, from a point in time on", () => {
    const yesterday = change("2026-12-01T12:00:00.000Z");
    const today = change("2026-12-02T12:00:00.000Z");
    for (const [changeId, createdAt] of [
      [yesterday, "2026-12-01T12:00:05.000Z"],
      [today, "2026-12-02T12:00:05.000Z"],
    ] as const) {
      insertSummary(db, {
        changeId,
        caseId,
        createdAt,
        generatedBy: "claude-fake-1",
        model: "claude-fake-1",
        summary: summary("S.", "claude-fake-1", createdAt),
        usage: USAGE,
      });
    }

    expect(tokensSpentSince(db, "2026-12-02T03:00:00.000Z")).toBe(1250);
    expect(tokensSpentSince(db, "2026-01-01T00:00:00.000Z")).toBe(2500);
    expect(tokensSpentSince(db, "2027-01-01T00:00:00.000Z")).toBe(0);
    expect(tokensSpentSince(db, "2026-01-01T00:00:00.000Z", "2026-12-02T00:00:00.000Z")).toBe(1250);
  });

  it("reads a stored summary that no longer fits the schema as absent", () => {
    const id = change("2026-11-01T00:00:00.000Z");
    db.prepare(
      `INSERT INTO summaries (change_id, case_id, created_at, generated_by, summary)
       VALUES (?, ?, '2026-11-01T00:00:05.000Z', 'rules', '{"headline":"old shape"}')`,
    ).run(id, caseId);

    expect(latestSummary(db, caseId)).toEqual({ headline: "old shape" });
    expect(parseStoredSummary(latestSummary(db, caseId))).toBeNull();
  });
});
