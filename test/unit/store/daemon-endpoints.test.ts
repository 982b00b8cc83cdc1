import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { closeDatabase, type Db, openDatabase } from "../../../src/store/database.js";
import {
  disableEndpoint,
  endpointStates,
  recordDaemonEndpoints,
} from "../../../src/store/endpoint-state.js";
import { makeTempDir } from "../../support/temp-dir.js";

/*
 * What a starting daemon records of the endpoints it cannot send to (migration 017): the variables
 * it lacks, and since when, kept across restarts while it lacks the same ones, so the operator is
 * told once per spell; nothing of the endpoints it can send to or that the configuration dropped.
 */

let db: Db;
beforeEach(() => {
  db = openDatabase(join(makeTempDir("daemon-endpoints-"), "monitor.db"));
});
afterEach(() => closeDatabase(db));

const WEBHOOK = { channel: "webhook", name: "webhook" };
const SLACK = { channel: "slack", name: "equipe" };

function lacking() {
  return endpointStates(db).map((s) => [s.channel, s.name, s.daemonMissing, s.daemonCheckedAt]);
}

describe("recordDaemonEndpoints", () => {
  it("keeps since when across restarts while the same variables are missing, and starts a new spell after", () => {
    const first = recordDaemonEndpoints(
      db,
      [
        { ...WEBHOOK, missing: ["WEBHOOK_SECRET"] },
        { ...SLACK, missing: [] },
      ],
      "2026-03-03T10:00:00.000Z",
    );
    expect(first).toEqual([
      { ...WEBHOOK, missing: ["WEBHOOK_SECRET"], since: "2026-03-03T10:00:00.000Z" },
    ]);
    // The sendable Slack endpoint gets no row.
    expect(lacking()).toEqual([
      ["webhook", "webhook", ["WEBHOOK_SECRET"], "2026-03-03T10:00:00.000Z"],
    ]);

    const again = recordDaemonEndpoints(
      db,
      [{ ...WEBHOOK, missing: ["WEBHOOK_SECRET"] }],
      "2026-03-03T11:00:00.000Z",
    );
    expect(again[0]?.since).toBe("2026-03-03T10:00:00.000Z");

    recordDaemonEndpoints(db, [{ ...WEBHOOK, missing: [] }], "2026-03-03T12:00:00.000Z");
    expect(lacking()).toEqual([["webhook", "webhook", [], null]]);
    const later = recordDaemonEndpoints(
      db,
      [{ ...WEBHOOK, missing: ["WEBHOOK_URL", "WEBHOOK_SECRET"] }],
      "2026-03-03T13:00:00.000Z",
    );
    expect(later[0]?.since).toBe("2026-03-03T13:00:00.000Z");
  });

  it("clears what it recorded of an endpoint the configuration no longer names, keeping its 410", () => {
    disableEndpoint(db, SLACK, "2026-03-01T00:00:00.000Z", "HTTP 410");
    recordDaemonEndpoints(db, [{ ...SLACK, missing: ["SLACK_URL"] }], "2026-03-03T10:00:00.000Z");

    recordDaemonEndpoints(db, [], "2026-03-03T11:00:00.000Z");

    expect(endpointStates(db)).toEqual([
      expect.objectContaining({
        ...SLACK,
        disabledAt: "2026-03-01T00:00:00.000Z",
        daemonMissing: [],
        daemonCheckedAt: null,
      }),
    ]);
  });
});
