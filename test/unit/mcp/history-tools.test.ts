import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { DataJudError } from "../../../src/datajud/errors.js";
import type { WatchedCaseView } from "../../../src/mcp/history-schemas.js";
import type { MonitorDeps } from "../../../src/mcp/monitor-deps.js";
import { historyTool } from "../../../src/mcp/tool-deps.js";
import { ToolError } from "../../../src/mcp/tool-errors.js";
import { answered } from "../../../src/mcp/tool-result.js";
import { getCaseHistory } from "../../../src/mcp/tools/get-case-history.js";
import { partyCounts } from "../../../src/mcp/tools/list-party-hits.js";
import {
  listWatchedCases,
  watchedCaseFilter,
  watchedCasesNotes,
  watchedCaseViews,
} from "../../../src/mcp/tools/list-watched-cases.js";
import { rateStatus } from "../../../src/mcp/tools/rate-status.js";
import { recentChanges } from "../../../src/mcp/tools/recent-changes.js";
import {
  freshnessNotes,
  sourceFreshness,
  sourceGaps,
} from "../../../src/mcp/tools/source-freshness.js";
import type { CaseStatus } from "../../../src/policy/case-status.js";
import type { CaseRow } from "../../../src/store/cases.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import { CASE_NUMBER, type StoreWithCase, storeWithCase } from "../store/store-fixtures.js";

const NOW = "2026-02-10T15:00:00.000Z";

let store: StoreWithCase | undefined;
afterEach(() => {
  store?.close();
  store = undefined;
});

function depsOver(opened: StoreWithCase, watchlist: MonitorDeps["watchlist"]): MonitorDeps {
  return {
    database: () => opened.db,
    watchlist,
    datajudRate: () => null,
    summarizer: { model: null, runTokenBudget: 0, dailyTokenBudget: 0 },
    clock: new FakeClock({ now: Date.parse(NOW) }),
    timezone: "America/Sao_Paulo",
  };
}

describe("answered", () => {
  it("returns what the answer builds from the arguments and the request as the structured result and its JSON text", async () => {
    const extra = { requestId: 7 };
    const result = await answered((args: { n: number }, seen: typeof extra) => ({
      doubled: args.n * 2,
      requestId: seen.requestId,
    }))({ n: 21 }, extra);

    expect(result.structuredContent).toEqual({ doubled: 42, requestId: 7 });
    expect(result.content).toEqual([{ type: "text", text: '{"doubled":42,"requestId":7}' }]);
    expect(result.isError).toBeUndefined();
  });

  it("turns what the answer throws into the error envelope, with no structured result", async () => {
    const result = await answered(async (_args: object, _extra: object) => {
      throw new ToolError("unknown_case", "no such case", { hint: "list_watched_cases" });
    })({}, {});

    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const text = result.content[0]?.type === "text" ? result.content[0].text : "";
    expect(JSON.parse(text)).toMatchObject({
      error: { kind: "unknown_case", message: "no such case", hint: "list_watched_cases" },
    });
  });
});

describe("historyTool", () => {
  it("registers read-only, closed-world annotations titled as the tool, and the output's shape", () => {
    const output = z.strictObject({ total: z.number() });
    const input = { limit: z.number() };
    const tool = historyTool({ title: "T", description: "D", input, output });

    expect(tool).toEqual({
      title: "T",
      description: "D",
      inputSchema: input,
      outputSchema: output.shape,
      annotations: {
        title: "T",
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    });
  });
});

function view(patch: Partial<WatchedCaseView>): WatchedCaseView {
  return {
    cnjNumber: CASE_NUMBER,
    court: "tjdft",
    foundIn: null,
    label: null,
    state: "ok",
    muted: false,
    lastCheckedAt: null,
    lastOutcome: null,
    lastChangedAt: null,
    lastError: null,
    consecutiveFailures: 0,
    djen: null,
    latestMovementAt: null,
    ...patch,
  };
}

describe("list_watched_cases' pieces", () => {
  it("filters by court alias whatever its case and spaces, and by state", () => {
    const cases = [
      view({ court: "tjdft" }),
      view({ court: "tjsp", state: "failing" }),
      view({ court: "tjsp", state: "gone" }),
    ];

    expect(cases.filter(watchedCaseFilter(" TJSP ", undefined))).toEqual(cases.slice(1));
    expect(cases.filter(watchedCaseFilter(undefined, "failing"))).toEqual([cases[1]]);
    expect(cases.filter(watchedCaseFilter("tjdft", "failing"))).toEqual([]);
    expect(cases.filter(watchedCaseFilter(undefined, undefined))).toEqual(cases);
  });

  it("'muted' keeps a case muted for good or until a day, not one that is not", () => {
    const cases = [view({ muted: true }), view({ muted: "2026-03-01" }), view({ muted: false })];

    expect(cases.filter(watchedCaseFilter(undefined, "muted"))).toEqual(cases.slice(0, 2));
  });

  it("says when the watchlist is unread and when DJEN is off, and nothing otherwise", () => {
    expect(watchedCasesNotes({ watchlistRead: true, djenEnabled: true })).toEqual([]);
    const both = watchedCasesNotes({ watchlistRead: false, djenEnabled: false });

    expect(both).toHaveLength(2);
    expect(both[0]).toMatch(/watchlist could not be read.*muted shows false/);
    expect(both[1]).toMatch(/DJEN is off/);
    expect(watchedCasesNotes({ watchlistRead: true, djenEnabled: false })).toEqual([both[1]]);
  });

  it("names the number cnjNumber, drops the not-found streak, and dates the newest movement", () => {
    const { cnjNumber: _number, latestMovementAt: _latest, ...shown } = view({});
    const status: CaseStatus = {
      ...shown,
      number: CASE_NUMBER,
      consecutiveNotFound: 2,
      goneAt: null,
    };
    const rows = [{ id: 7 }, { id: 8 }] as CaseRow[];

    const views = watchedCaseViews(rows, [status, status], new Map([[7, "2026-02-01T12:00:00"]]));

    expect(views[0]).toEqual(view({ latestMovementAt: "2026-02-01T12:00:00" }));
    expect(views[1]).toEqual(view({ latestMovementAt: null }));
    expect(views[0]).not.toHaveProperty("consecutiveNotFound");
  });

  it("answers the stored case, never checked, with no note when all is read", async () => {
    store = storeWithCase("history-tools-", NOW);

    const page = await listWatchedCases(
      depsOver(store, async () => null),
      { offset: 0, limit: 10 },
    );

    expect(page).toMatchObject({ total: 1, offset: 0, nextOffset: null, djenEnabled: true });
    expect(page.cases.map((c) => [c.cnjNumber, c.state, c.muted])).toEqual([
      [CASE_NUMBER, "never_checked", false],
    ]);
    expect(page.notes).toEqual([expect.stringMatching(/watchlist could not be read/)]);
  });
});

describe("source_freshness' pieces", () => {
  const status = {
    dataJudLate: [
      {
        caseId: 1,
        number: CASE_NUMBER,
        court: "tjdft",
        djenId: "9",
        availableOn: "2026-02-02",
        days: 8,
        lateAfterDays: 5,
      },
    ],
    djenGaps: [
      {
        caseId: 2,
        number: "0000001-68.2026.8.26.0100",
        availableOn: "2026-02-03",
        foundAt: NOW,
        urgent: true,
      },
    ],
  };

  it("keeps the gaps of the cases kept, and words DJEN's in Portuguese with the Brazilian date", () => {
    const all = sourceGaps(status, () => true);

    expect(all.dataJudLate).toEqual([
      expect.objectContaining({ cnjNumber: CASE_NUMBER, days: 8, lateAfterDays: 5 }),
    ]);
    expect(all.djenGaps[0]?.warning).toBe(
      "O DataJud registra uma intimação disponibilizada em 03/02/2026 que o DJEN não devolveu: confira no tribunal.",
    );
    expect(sourceGaps(status, (id) => id === 1)).toMatchObject({
      dataJudLate: [{ djenId: "9" }],
      djenGaps: [],
    });
  });

  it("leads the notes with the number asked about when it is not watched", () => {
    const plain = freshnessNotes(null, false);

    expect(freshnessNotes(CASE_NUMBER, true)).toEqual(plain);
    expect(freshnessNotes(CASE_NUMBER, false)).toEqual([
      `${CASE_NUMBER} is not a watched case: only watched cases are measured.`,
      ...plain,
    ]);
  });

  it("answers a watched number's instances (none recorded yet), and refuses a bad number", () => {
    store = storeWithCase("history-tools-", NOW);
    const deps = depsOver(store, async () => null);

    expect(sourceFreshness(deps, { cnjNumber: CASE_NUMBER }).case).toEqual({
      cnjNumber: CASE_NUMBER,
      instances: [],
    });
    expect(sourceFreshness(deps, {}).case).toBeNull();
    expect(() => sourceFreshness(deps, { cnjNumber: "123" })).toThrow(DataJudError);
  });
});

describe("list_party_hits' counts", () => {
  it("adds each party's hits by confidence; only alerts and baselines are new cases", () => {
    const rows = [
      {
        partyKey: "cnpj:1",
        disposition: "alert" as const,
        confidence: "confirmado" as const,
        n: 2,
      },
      { partyKey: "cnpj:1", disposition: "later" as const, confidence: "provavel" as const, n: 3 },
      {
        partyKey: "name:X",
        disposition: "baseline" as const,
        confidence: "homonimo" as const,
        n: 1,
      },
      { partyKey: "name:X", disposition: null, confidence: "homonimo" as const, n: 4 },
    ];

    expect(partyCounts(rows, undefined)).toEqual([
      { partyKey: "cnpj:1", newCases: 2, hits: 5, confirmado: 2, provavel: 3, homonimo: 0 },
      { partyKey: "name:X", newCases: 1, hits: 5, confirmado: 0, provavel: 0, homonimo: 5 },
    ]);
    expect(partyCounts(rows, "name:X").map((c) => c.partyKey)).toEqual(["name:X"]);
    expect(partyCounts(rows, "cpf:2")).toEqual([]);
  });
});

describe("the history of a stored case", () => {
  it("answers a case with no change yet, and says how to find one it does not know", () => {
    store = storeWithCase("history-tools-", NOW);
    const deps = depsOver(store, async () => null);

    const history = getCaseHistory(deps, { cnjNumber: CASE_NUMBER, offset: 0, limit: 20 });

    expect(history).toMatchObject({
      case: { cnjNumber: CASE_NUMBER, court: "tjdft", watched: true, lastCheckedAt: null },
      totalChanges: 0,
      changes: [],
      noLongerListed: [],
      totalNoLongerListed: 0,
      acknowledgements: [],
      escalations: [],
    });
    const unknown = (): unknown =>
      getCaseHistory(deps, { cnjNumber: "0000001-68.2026.8.26.0100", offset: 0, limit: 20 });
    expect(unknown).toThrow(ToolError);
    expect(unknown).toThrow("0000001-68.2026.8.26.0100 has no recorded history");
  });

  it("recent changes default to the last 7 days before the clock", () => {
    store = storeWithCase("history-tools-", NOW);

    expect(
      recentChanges(
        depsOver(store, async () => null),
        { offset: 0, limit: 20 },
      ),
    ).toMatchObject({
      since: "2026-02-03T15:00:00.000Z",
      totalCases: 0,
      cases: [],
      publications: [],
      totalPublications: 0,
    });
  });
});

describe("rate_status", () => {
  it("without a DataJud client, a model or a database, says each and answers no counts", () => {
    const deps: MonitorDeps = {
      database: () => {
        throw new ToolError("no_database", "there is no monitor database at /x.db yet", {
          hint: "Point MONITOR_DB at it.",
        });
      },
      watchlist: async () => null,
      datajudRate: () => null,
      summarizer: { model: null, runTokenBudget: 100, dailyTokenBudget: 1000 },
      clock: new FakeClock({ now: Date.parse(NOW) }),
      timezone: "America/Sao_Paulo",
    };

    const status = rateStatus(deps);

    expect(status.datajud).toBeNull();
    expect(status.summarizer).toEqual({
      model: null,
      dailyTokenBudget: 1000,
      runTokenBudget: 100,
      spentToday: null,
      remainingToday: null,
      lastSweep: null,
    });
    expect(status.notes).toEqual([
      expect.stringMatching(/^This server has no DataJud client/),
      expect.stringMatching(/^No ANTHROPIC_API_KEY/),
      "Tokens spent are unknown: there is no monitor database at /x.db yet. Point MONITOR_DB at it.",
    ]);
  });

  it("with a database, counts the day's tokens (none yet) against the daily budget", () => {
    store = storeWithCase("history-tools-", NOW);
    const deps = {
      ...depsOver(store, async () => null),
      summarizer: { model: "claude-x", runTokenBudget: 100, dailyTokenBudget: 1000 },
    };

    expect(rateStatus(deps).summarizer).toMatchObject({
      model: "claude-x",
      spentToday: 0,
      remainingToday: 1000,
    });
  });
});
