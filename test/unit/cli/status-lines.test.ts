import { afterEach, describe, expect, it } from "vitest";
import { readStatus, statusLines, type WatchlistView } from "../../../src/cli/status.js";
import { type StoreWithCase, storeWithCase } from "../store/store-fixtures.js";

const NOW = "2026-02-10T15:00:00.000Z";
const VALID: WatchlistView = {
  file: "/etc/datajud-monitor/watchlist.yaml",
  valid: true,
  errors: [],
  refusedSince: null,
  goodCopyAcceptedAt: null,
};
const CONTEXT = { tz: "America/Sao_Paulo", now: new Date(NOW), notFoundThreshold: 3 };

let store: StoreWithCase | undefined;
afterEach(() => {
  store?.close();
  store = undefined;
});

function stored() {
  store = storeWithCase("status-lines-", NOW);
  return readStatus(store.db, { watchlist: null, now: new Date(NOW), timezone: CONTEXT.tz });
}

describe("status's lines", () => {
  it("a quiet database: the case table, then the totals and the last sweep, no attention line", () => {
    const lines = statusLines(stored(), VALID, [], CONTEXT);

    expect(lines[0]).toMatch(/^case\s+court\s+label\s+outcome/);
    expect(lines.at(-2)).toBe("1 watched case; 0 failing; mail: 0 pending, 0 sent, 0 dead");
    expect(lines.some((l) => l.startsWith("needs attention"))).toBe(false);
  });

  it("mail waiting for a retry, an OAB check and an incident each have their line, in order, before the totals", () => {
    const status = stored();
    status.mail.retrying = {
      rows: 2,
      lastError: "smtp://mail.example: ECONNREFUSED",
      nextAttemptAt: "2026-02-10T15:30:00.000Z",
    };
    status.oab = [
      {
        registration: "123456/SP",
        lastCheckedAt: "2026-02-10T14:00:00.000Z",
        lastOutcome: "failed",
        consecutiveFailures: 1,
        lastError: "DJEN answered 503",
        nextCheckDueAt: null,
      },
    ];
    status.incidents = [
      { kind: "watchlist_invalid", since: NOW, toldTo: "ops@example.com" },
      { kind: "sweeps_failing", since: "2026-02-10T12:00:00.000Z", toldTo: "ops@example.com" },
    ];

    const lines = statusLines(status, VALID, ["cases failing"], CONTEXT);
    const index = (start: string) => lines.findIndex((l) => l.startsWith(start));

    expect(lines[index("OAB 123456/SP")]).toMatch(/failed.*: DJEN answered 503$/);
    expect(lines[index("mail not sent yet")]).toBe(
      "mail not sent yet: 2 e-mails failed (smtp://mail.example: ECONNREFUSED); next attempt 10/02/2026 12:30",
    );
    expect(lines.filter((l) => l.includes("was told)"))).toHaveLength(1);
    expect(index("OAB")).toBeLessThan(index("mail not sent yet"));
    expect(index("mail not sent yet")).toBeLessThan(index("1 watched case"));
    expect(lines.at(-1)).toBe("needs attention: cases failing");
  });

  it("an invalid watchlist is said with its errors", () => {
    const lines = statusLines(
      stored(),
      { ...VALID, valid: false, errors: ["watchlist.yaml:3:5 unknown key"] },
      [],
      CONTEXT,
    );

    expect(lines).toContain("  watchlist.yaml:3:5 unknown key");
  });
});
