import { describe, expect, it } from "vitest";
import { type PlanSettings, planLooks, type SourceState } from "../../../src/policy/djen-plan.js";

const HOUR = 3_600_000;
/** Monday 6 October 2025, 00:00 in São Paulo (UTC-3): a working week, no holiday in it. */
const MONDAY = Date.UTC(2025, 9, 6, 3);
const SETTINGS: PlanSettings = { caseEveryHours: 8, oabEveryHours: 2 };

function source(kind: "case" | "oab", key: string, lastOkMs: number | null = null): SourceState {
  return { kind, key, lastOkMs, failedAtMs: null };
}

/** São Paulo wall time of an instant, "ddd HH:MM" (the tests' hand-worked values). */
function sp(ms: number): string {
  const days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
  const local = new Date(ms - 3 * HOUR);
  const hh = String(local.getUTCHours()).padStart(2, "0");
  const mm = String(local.getUTCMinutes()).padStart(2, "0");
  return `${days[local.getUTCDay()]} ${hh}:${mm}`;
}

describe("planLooks", () => {
  it("asks sources never answered first, then the longest overdue; equals keep their order", () => {
    const now = MONDAY + 20 * HOUR;
    const sources = [
      source("case", "c1", now - 9 * HOUR), // due an hour ago
      source("case", "c2"),
      source("case", "c3", now - 12 * HOUR), // due four hours ago
      source("case", "c4", now - 2 * HOUR), // due in six hours
      source("oab", "1/SP", now - 3 * HOUR), // due an hour ago
      source("oab", "2/RJ"),
    ];

    const plan = planLooks(sources, now, SETTINGS);

    expect(plan.due.map((s) => s.key)).toEqual(["c2", "2/RJ", "c3", "c1", "1/SP"]);
    expect(plan.later.map((s) => [s.key, sp(s.dueAtMs)])).toEqual([["c4", "Tue 02:00"]]);
  });

  it("asks a failed source again at once in a sweep, and after the pause between sweeps", () => {
    const now = MONDAY + 10 * HOUR;
    const failed: SourceState = {
      ...source("case", "c1", now - HOUR),
      failedAtMs: now - 5 * 60_000,
    };

    const sweep = planLooks([failed], now, SETTINGS);
    const between = planLooks([failed], now, SETTINGS, { retryFailedAfterMs: 10 * 60_000 });

    expect(sweep.due.map((s) => s.key)).toEqual(["c1"]);
    expect(between.due).toEqual([]);
    expect(sp(between.later[0]?.dueAtMs ?? 0)).toBe("Mon 10:05");
  });

  it("with 0 hours, a source is due whenever asked", () => {
    const now = MONDAY + HOUR;

    const plan = planLooks([source("case", "c1", now - 1)], now, {
      caseEveryHours: 0,
      oabEveryHours: 0,
    });

    expect(plan.due).toHaveLength(1);
  });

  it("over a week, looks at a case every 8 h on working days and once a day on the weekend", () => {
    // Asked as soon as due, checked every 5 minutes from Monday 00:00 to the next Monday 00:00.
    const states = new Map<string, SourceState>([
      ["c1", source("case", "c1")],
      ["1/SP", source("oab", "1/SP")],
    ]);
    const looks = new Map<string, number[]>([
      ["c1", []],
      ["1/SP", []],
    ]);
    for (let now = MONDAY; now <= MONDAY + 7 * 24 * HOUR; now += 5 * 60_000) {
      for (const due of planLooks([...states.values()], now, SETTINGS).due) {
        looks.get(due.key)?.push(now);
        states.set(due.key, { ...due, lastOkMs: now });
      }
    }

    const caseLooks = (looks.get("c1") ?? []).map(sp);
    const oabLooks = looks.get("1/SP") ?? [];
    // Worked by hand: Monday to Friday at 00:00, 08:00 and 16:00; the 8 hours after Friday 16:00
    // end on Saturday, so the next look is a day later, and Sunday's likewise; Sunday 16:00 plus 8
    // hours is Monday 00:00, a working day.
    const weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri"].flatMap((d) =>
      ["00:00", "08:00", "16:00"].map((t) => `${d} ${t}`),
    );
    expect(caseLooks).toEqual([...weekdays, "Sat 16:00", "Sun 16:00", "Mon 00:00"]);
    // Every 2 hours from Monday 00:00 to Friday 22:00 (60 looks), then Saturday and Sunday at
    // 22:00, then Monday 00:00.
    expect(oabLooks).toHaveLength(60 + 2 + 1);
    expect(oabLooks.slice(59).map(sp)).toEqual([
      "Fri 22:00",
      "Sat 22:00",
      "Sun 22:00",
      "Mon 00:00",
    ]);
  });

  it("treats a national holiday as a day without court", () => {
    // Thursday 20 November 2025, Consciência Negra (Lei 14.759/2023): 8 h after Wednesday 20:00
    // is Thursday 04:00, a holiday, so the next look is a day after, Thursday 20:00.
    const wednesday = Date.UTC(2025, 10, 19, 23);

    const plan = planLooks([source("case", "c1", wednesday)], wednesday, SETTINGS);

    expect(sp(plan.later[0]?.dueAtMs ?? 0)).toBe("Thu 20:00");
  });
});

describe("a watched party's name (the radar)", () => {
  it("is due once a working day by default: 24 h after its last complete look", () => {
    // Answered Monday 10:00: due Tuesday 10:00; not at Monday 20:00.
    const lastOk = MONDAY + 10 * HOUR;
    const party: SourceState = {
      kind: "party",
      key: "ACME COMERCIO LTDA",
      lastOkMs: lastOk,
      failedAtMs: null,
    };

    const monday = planLooks([party], MONDAY + 20 * HOUR, SETTINGS);
    const tuesday = planLooks([party], MONDAY + 34 * HOUR, SETTINGS);

    expect(monday.due).toEqual([]);
    expect(monday.later.map((s) => sp(s.dueAtMs))).toEqual(["Tue 10:00"]);
    expect(tuesday.due.map((s) => s.key)).toEqual(["ACME COMERCIO LTDA"]);
  });

  it("follows djen.partyEveryHours when set", () => {
    const party: SourceState = {
      kind: "party",
      key: "ACME COMERCIO LTDA",
      lastOkMs: MONDAY + 10 * HOUR,
      failedAtMs: null,
    };

    const plan = planLooks([party], MONDAY + 10 * HOUR, { ...SETTINGS, partyEveryHours: 6 });

    expect(plan.later.map((s) => sp(s.dueAtMs))).toEqual(["Mon 16:00"]);
  });
});
