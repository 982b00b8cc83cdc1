import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  acceptWatchlist,
  refuseWatchlist,
  type WatchlistHealthContext,
} from "../../../../src/notify/outbox/queue-watchlist-alerts.js";
import { mailPolicy } from "../../../../src/policy/mail-policy.js";
import { closeDatabase, type Db, openDatabase } from "../../../../src/store/database.js";
import { listIncidents } from "../../../../src/store/health-incidents.js";
import { lastGoodWatchlist } from "../../../../src/store/last-good-watchlist.js";
import { parseWatchlist } from "../../../../src/watchlist/parse-watchlist.js";
import { makeTempDir } from "../../../support/temp-dir.js";

const FILE = "/srv/datajud/watchlist.yaml";
const TEXT = 'cases:\n  - number: "0713383-43.2025.8.07.0006"\n';

let db: Db;

beforeEach(() => {
  db = openDatabase(`${makeTempDir("watchlist-alerts-")}/monitor.db`);
});

afterEach(() => {
  closeDatabase(db);
});

/** mail.admin and a Telegram endpoint that takes operator alerts; `at` the moment it happens. */
function context(at: string, admin: string | null = "ti@example.com"): WatchlistHealthContext {
  const parsed = parseWatchlist(TEXT, FILE);
  if (!parsed.ok) throw new Error("sample watchlist");
  return {
    db,
    admin,
    domain: "monitor.example.com",
    now: new Date(at),
    policy: mailPolicy(parsed.watchlist, {
      timezone: "America/Sao_Paulo",
      quietHours: null,
      urgentBypassesQuietHours: true,
      defaultDelivery: "instant",
      endpoints: [
        {
          name: "ops",
          channel: "telegram",
          events: ["operator.alert"],
          delivery: "instant",
          digestSchedule: null,
          quietHours: false,
        },
      ],
    }),
  };
}

function rows(): Array<{ channel: string; recipient: string; key: string }> {
  return db
    .prepare<[], { channel: string; recipient: string; key: string }>(
      "SELECT channel, recipient, dedupe_key AS key FROM outbox ORDER BY id",
    )
    .all();
}

const refusal = { file: FILE, errors: [`${FILE}:2:13 bad number`], cases: 1, atStart: true };

describe("the watchlist incident", () => {
  it("tells mail.admin and the operator endpoints once however often the file is refused, and once when it is over", () => {
    acceptWatchlist(context("2026-03-01T10:00:00.000Z"), { path: FILE, text: TEXT });

    const first = refuseWatchlist(context("2026-03-02T09:00:00.000Z"), refusal);
    const again = refuseWatchlist(context("2026-03-02T12:00:00.000Z"), {
      ...refusal,
      errors: [`${FILE}:3:1 another`],
    });
    const kept = lastGoodWatchlist(db);
    const over = acceptWatchlist(context("2026-03-03T08:00:00.000Z"), { path: FILE, text: TEXT });

    expect([first, again, over]).toEqual([2, 0, 2]);
    expect(kept).toMatchObject({
      acceptedAt: "2026-03-01T10:00:00.000Z",
      refusedSince: "2026-03-02T09:00:00.000Z",
      refusedErrors: [`${FILE}:3:1 another`],
    });
    expect(rows()).toEqual([
      {
        channel: "email",
        recipient: "ti@example.com",
        key: "admin:watchlist:2026-03-02T09:00:00.000Z:ti@example.com",
      },
      {
        channel: "telegram",
        recipient: "ops",
        key: "admin:watchlist:2026-03-02T09:00:00.000Z:telegram:ops",
      },
      {
        channel: "email",
        recipient: "ti@example.com",
        key: "admin:watchlist-recovered:2026-03-02T09:00:00.000Z:ti@example.com",
      },
      {
        channel: "telegram",
        recipient: "ops",
        key: "admin:watchlist-recovered:2026-03-02T09:00:00.000Z:telegram:ops",
      },
    ]);
    expect(lastGoodWatchlist(db)).toMatchObject({ refusedSince: null, refusedErrors: [] });
    expect(listIncidents(db)).toMatchObject([
      {
        kind: "watchlist_invalid",
        startedAt: "2026-03-02T09:00:00.000Z",
        recoveredAt: "2026-03-03T08:00:00.000Z",
      },
    ]);
  });

  it("records nothing to run on, and tells nobody, when no good copy is kept", () => {
    expect(refuseWatchlist(context("2026-03-02T09:00:00.000Z"), refusal)).toBe(0);
    expect(lastGoodWatchlist(db)).toBeUndefined();
    expect(rows()).toEqual([]);
  });

  it("without mail.admin keeps the refusal for status and /readyz, and tells nobody", () => {
    acceptWatchlist(context("2026-03-01T10:00:00.000Z", null), { path: FILE, text: TEXT });

    const queued = refuseWatchlist(context("2026-03-02T09:00:00.000Z", null), refusal);

    expect(queued).toBe(0);
    expect(lastGoodWatchlist(db)?.refusedSince).toBe("2026-03-02T09:00:00.000Z");
    expect(listIncidents(db)).toEqual([]);
  });

  it("keeps the first acceptance time of an unchanged text, and a new one for an edit", () => {
    acceptWatchlist(context("2026-03-01T10:00:00.000Z"), { path: FILE, text: TEXT });
    acceptWatchlist(context("2026-03-01T11:00:00.000Z"), { path: FILE, text: TEXT });
    const same = lastGoodWatchlist(db)?.acceptedAt;
    acceptWatchlist(context("2026-03-01T12:00:00.000Z"), { path: FILE, text: `${TEXT}# note\n` });

    expect(same).toBe("2026-03-01T10:00:00.000Z");
    expect(lastGoodWatchlist(db)?.acceptedAt).toBe("2026-03-01T12:00:00.000Z");
  });
});
