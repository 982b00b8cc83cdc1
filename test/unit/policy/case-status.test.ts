import { describe, expect, it } from "vitest";
import { caseStatuses } from "../../../src/policy/case-status.js";
import type { CaseRow } from "../../../src/store/cases.js";
import type { DjenSourceRow } from "../../../src/store/djen-sources.js";
import { parseWatchlist } from "../../../src/watchlist/parse-watchlist.js";

/** The one status view of `monitor status` and list_watched_cases, from rows and the watchlist. */

const NOW = new Date("2026-03-04T15:00:00.000Z");

function row(id: number, number: string, patch: Partial<CaseRow> = {}): CaseRow {
  return {
    id,
    number,
    digits: number.replace(/\D/g, ""),
    court: "tjdft",
    label: null,
    watchers: [],
    watched: true,
    firstSeenAt: null,
    lastSeenAt: null,
    lastCheckedAt: null,
    lastChangedAt: null,
    lastFullReadAt: null,
    lastFingerprint: null,
    lastOutcome: null,
    lastError: null,
    consecutiveNotFound: 0,
    consecutiveFailures: 0,
    goneAt: null,
    foundIn: null,
    createdAt: "2026-03-01T00:00:00.000Z",
    ...patch,
  };
}

const A = "0713383-43.2025.8.07.0006";
const B = "0708123-34.2024.8.07.0001";
const C = "0712345-63.2025.8.07.0016";

describe("caseStatuses", () => {
  it("names each case's state, its mute as the watchlist in force says, and its DJEN check", () => {
    const parsed = parseWatchlist(
      `cases:\n  - number: "${A}"\n    muted_until: 2026-03-10\n  - number: "${B}"\n`,
      "watchlist.yaml",
    );
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const source: DjenSourceRow = {
      kind: "case",
      key: B.replace(/\D/g, ""),
      lastCheckedAt: "2026-03-04T12:00:00.000Z",
      lastOutcome: "failed",
      consecutiveFailures: 2,
      lastError: "DJEN answered HTTP 503",
    } as DjenSourceRow;

    const statuses = caseStatuses(
      [
        row(1, A, { lastOutcome: "unchanged" }),
        row(2, B, { lastOutcome: "failed", consecutiveFailures: 3 }),
        row(3, C, { lastOutcome: "not_found", goneAt: "2026-03-03T10:00:00.000Z" }),
      ],
      {
        cases: parsed.watchlist.cases,
        now: NOW,
        timezone: "America/Sao_Paulo",
        djen: new Map([[`case:${source.key}`, source]]),
        plan: null,
      },
    );

    expect(statuses.map((s) => [s.number, s.state, s.muted])).toEqual([
      [A, "ok", "2026-03-10"],
      [B, "failing", false],
      [C, "gone", false],
    ]);
    expect(statuses[1]?.djen).toEqual({
      lastCheckedAt: "2026-03-04T12:00:00.000Z",
      lastOutcome: "failed",
      consecutiveFailures: 2,
      lastError: "DJEN answered HTTP 503",
      nextCheckDueAt: null,
    });
    expect(statuses[0]?.djen).toBeNull();
  });

  it("shows nothing muted when the watchlist cannot be read, and a case never checked as such", () => {
    const [status] = caseStatuses([row(1, A)], {
      cases: null,
      now: NOW,
      timezone: "America/Sao_Paulo",
      djen: new Map(),
      plan: null,
    });

    expect([status?.state, status?.muted]).toEqual(["never_checked", false]);
  });
});
