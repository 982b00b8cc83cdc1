import { describe, expect, it } from "vitest";
import {
  decideKeyHealth,
  decideSweepsFailing,
  decideSweepsRecovery,
  type SweepTally,
  streakReachesThreshold,
  sweepsHealthQuestion,
} from "../../../src/policy/health.js";

const NOW = "2026-03-02T09:00:00.000Z";
const ADMIN = "ti@example.com";
const OPEN = { id: 7, startedAt: "2026-03-01T09:00:00.000Z", recipient: "Old@example.com" };
const AUTH = { since: "2026-03-01T10:00:00.000Z", lastError: "401", affectedCases: 2 };

function tally(patch: Partial<SweepTally> = {}): SweepTally {
  return {
    runId: 12,
    startedAt: "2026-03-02T08:59:00.000Z",
    checked: 3,
    failed: 3,
    interrupted: false,
    ...patch,
  };
}

describe("decideKeyHealth", () => {
  it("opens the key incident and tells mail.admin when DataJud refuses the key", () => {
    const decision = decideKeyHealth({ admin: ADMIN, nowIso: NOW, auth: AUTH, open: undefined });

    expect(decision.close).toBeNull();
    expect(decision.open).toEqual({
      kind: "auth_rejected",
      startedAt: AUTH.since,
      openedAt: NOW,
      recipient: ADMIN,
      details: { lastError: "401", affectedCases: 2 },
    });
    expect(decision.findings).toEqual([
      { recipient: ADMIN, alert: { type: "auth_rejected", ...AUTH } },
    ]);
  });

  it("opens nothing without mail.admin, and nothing twice", () => {
    const unset = decideKeyHealth({ admin: "", nowIso: NOW, auth: AUTH, open: undefined });
    const again = decideKeyHealth({ admin: ADMIN, nowIso: NOW, auth: AUTH, open: OPEN });

    expect(unset).toEqual({ open: null, close: null, findings: [] });
    expect(again).toEqual({ open: null, close: null, findings: [] });
  });

  it("closes the incident on the first answer and tells whoever heard of it", () => {
    const told = decideKeyHealth({ admin: ADMIN, nowIso: NOW, auth: null, open: OPEN });
    const silent = decideKeyHealth({ admin: "", nowIso: NOW, auth: null, open: OPEN });

    expect(told.close).toBe(7);
    expect(told.findings).toEqual([
      {
        recipient: "Old@example.com",
        alert: { type: "auth_recovered", since: OPEN.startedAt, recoveredAt: NOW },
      },
    ]);
    expect(silent).toEqual({ open: null, close: 7, findings: [] });
  });
});

describe("sweepsHealthQuestion", () => {
  const base = { admin: ADMIN, open: undefined, keyIncidentOpen: false };

  it("asks nothing of an interrupted sweep, one that checked nothing, or none at all", () => {
    expect(sweepsHealthQuestion({ ...base, sweep: tally({ interrupted: true }) })).toBe("none");
    expect(sweepsHealthQuestion({ ...base, sweep: tally({ checked: 0, failed: 0 }) })).toBe("none");
    expect(sweepsHealthQuestion({ ...base, sweep: null })).toBe("none");
  });

  it("looks for a recovery only when an incident is open and DataJud answered for a case", () => {
    expect(sweepsHealthQuestion({ ...base, open: OPEN, sweep: tally({ failed: 2 }) })).toBe(
      "recovery",
    );
    expect(sweepsHealthQuestion({ ...base, sweep: tally({ failed: 2 }) })).toBe("none");
  });

  it("counts the streak of a failed sweep unless mail.admin is unset, an incident is open, or the key explains it", () => {
    expect(sweepsHealthQuestion({ ...base, sweep: tally() })).toBe("streak");
    expect(sweepsHealthQuestion({ ...base, admin: "", sweep: tally() })).toBe("none");
    expect(sweepsHealthQuestion({ ...base, open: OPEN, sweep: tally() })).toBe("none");
    expect(sweepsHealthQuestion({ ...base, keyIncidentOpen: true, sweep: tally() })).toBe("none");
  });
});

describe("streakReachesThreshold", () => {
  it("counts this sweep and the failed ones right before it, up to the first that worked", () => {
    const failed = { failed: true };
    const worked = { failed: false };

    expect(streakReachesThreshold([failed, failed], 3)).toBe(true);
    expect(streakReachesThreshold([failed, worked, failed], 3)).toBe(false);
    expect(streakReachesThreshold([], 1)).toBe(true);
    expect(streakReachesThreshold([failed], 3)).toBe(false);
  });
});

describe("decideSweepsFailing and decideSweepsRecovery", () => {
  it("dates the outage from the first failed sweep of the whole streak", () => {
    const decision = decideSweepsFailing({
      admin: ADMIN,
      nowIso: NOW,
      sweep: tally(),
      streakBefore: { failedSweeps: 4, since: "2026-03-01T07:00:00.000Z" },
      lastFailed: { errorKind: "timeout", error: "took too long" },
    });

    expect(decision.open).toMatchObject({
      kind: "sweeps_failing",
      startedAt: "2026-03-01T07:00:00.000Z",
      details: { failedSweeps: 5, runId: 12 },
    });
    expect(decision.findings[0]?.alert).toEqual({
      type: "sweeps_failing",
      since: "2026-03-01T07:00:00.000Z",
      failedSweeps: 5,
      lastErrorKind: "timeout",
      lastError: "took too long",
    });
  });

  it("dates a first failed sweep from its own start", () => {
    const decision = decideSweepsFailing({
      admin: ADMIN,
      nowIso: NOW,
      sweep: tally(),
      streakBefore: { failedSweeps: 0, since: null },
      lastFailed: undefined,
    });

    expect(decision.findings[0]?.alert).toMatchObject({
      since: "2026-03-02T08:59:00.000Z",
      failedSweeps: 1,
      lastErrorKind: null,
    });
  });

  it("says how long the streak was in the recovery, when there was one before this sweep", () => {
    const after = decideSweepsRecovery({
      admin: ADMIN,
      nowIso: NOW,
      open: OPEN,
      streakBefore: { failedSweeps: 3, since: OPEN.startedAt },
    });
    const unknown = decideSweepsRecovery({
      admin: ADMIN,
      nowIso: NOW,
      open: OPEN,
      streakBefore: { failedSweeps: 0, since: null },
    });

    expect(after.close).toBe(7);
    expect(after.findings[0]?.alert).toEqual({
      type: "sweeps_recovered",
      since: OPEN.startedAt,
      recoveredAt: NOW,
      failedSweeps: 3,
    });
    expect(unknown.findings[0]?.alert).not.toHaveProperty("failedSweeps");
  });
});
