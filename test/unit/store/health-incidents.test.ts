import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { closeDatabase, type Db, openDatabase } from "../../../src/store/database.js";
import {
  closeIncident,
  listIncidents,
  openIncident,
  openIncidentOf,
} from "../../../src/store/health-incidents.js";

let dir: string;
let db: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "store-incidents-"));
  db = openDatabase(join(dir, "monitor.db"));
});

afterEach(() => {
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

const sweepsIncident = {
  kind: "sweeps_failing",
  startedAt: "2026-03-01T09:00:00.000Z",
  openedAt: "2026-03-01T11:00:00.000Z",
  recipient: "ti@example.com",
  details: { failedSweeps: 3 },
} as const;

describe("health incidents", () => {
  it("opens an incident, finds it open by kind, and closes it once", () => {
    const id = openIncident(db, sweepsIncident);
    const open = openIncidentOf(db, "sweeps_failing");
    const otherKind = openIncidentOf(db, "auth_rejected");

    const closed = closeIncident(db, id, "2026-03-01T15:00:00.000Z");
    const closedAgain = closeIncident(db, id, "2026-03-01T16:00:00.000Z");

    expect(open).toEqual({ id, ...sweepsIncident, recoveredAt: null });
    expect(otherKind).toBeUndefined();
    expect([closed, closedAgain]).toEqual([true, false]);
    expect(openIncidentOf(db, "sweeps_failing")).toBeUndefined();
    expect(listIncidents(db)).toEqual([
      { id, ...sweepsIncident, recoveredAt: "2026-03-01T15:00:00.000Z" },
    ]);
  });

  it("keeps at most one open incident per kind, and lists the newest first", () => {
    const first = openIncident(db, sweepsIncident);
    const auth = openIncident(db, { ...sweepsIncident, kind: "auth_rejected", details: {} });

    const second = (): number => openIncident(db, sweepsIncident);

    expect(second).toThrow(/UNIQUE/);
    closeIncident(db, first, "2026-03-01T15:00:00.000Z");
    const reopened = second();
    expect(listIncidents(db).map((i) => i.id)).toEqual([reopened, auth, first]);
    expect(listIncidents(db, 1)).toHaveLength(1);
  });
});
