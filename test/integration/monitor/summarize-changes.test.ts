import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../../src/log.js";
import { summarizeChanges } from "../../../src/monitor/report/summarize-changes.js";
import { queuedRows } from "../../../src/notify/outbox/queue.js";
import { mailPolicy } from "../../../src/policy/mail-policy.js";
import { getCase, syncWatchedCases } from "../../../src/store/cases.js";
import { insertChange } from "../../../src/store/changes.js";
import { closeDatabase, type Db, openDatabase } from "../../../src/store/database.js";
import { upsertInstance } from "../../../src/store/instances.js";
import { applyMovementPlan, emptyMovementPlan } from "../../../src/store/movements.js";
import { startRun } from "../../../src/store/runs.js";
import { rulesSummary } from "../../../src/summarize/rules-summary.js";
import type { SummarizeInput, Summarizer } from "../../../src/summarize/summarizer.js";
import { ZERO_USAGE } from "../../../src/summarize/token-budget.js";
import { parseWatchlist, type Watchlist } from "../../../src/watchlist/parse-watchlist.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import { testMovement } from "../../support/movement.js";
import { makeTempDir } from "../../support/temp-dir.js";
import { waitFor } from "../../support/wait-for.js";
import { caseRecord } from "../../unit/store/store-fixtures.js";

/*
 * The summarize phase on its own: every stored change without a summary gets one, the model is
 * asked only about changes that will be mailed, and a mailed change's alerts are queued with its
 * summary, once.
 */

const LOUD = "0713383-43.2025.8.07.0006";
const MUTED = "0708123-34.2024.8.07.0001";
const NOW = Date.parse("2026-03-04T15:00:00.000Z");
// What detection stores with every change: the DataJud answer it was found in.
const PROVENANCE = {
  index: "api_publica_tjdft",
  url: "https://api-publica.datajud.cnj.jus.br/api_publica_tjdft/_search",
  fetchedAt: new Date(NOW).toISOString(),
};

let db: Db;
let watchlist: Watchlist;

beforeEach(() => {
  db = openDatabase(`${makeTempDir("summarize-changes-")}/monitor.db`);
  const parsed = parseWatchlist(
    [
      "defaults:",
      "  notify: [ana@example.com, rui@example.com]",
      "cases:",
      `  - number: "${LOUD}"`,
      `  - number: "${MUTED}"`,
      "    muted: true",
      "",
    ].join("\n"),
    "watchlist.yaml",
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  watchlist = parsed.watchlist;
  const at = new Date(NOW).toISOString();
  syncWatchedCases(
    db,
    watchlist.cases.map((c) => ({ ...c, watchers: c.notify })),
    at,
  );
  const runId = startRun(db, { startedAt: at, trigger: "manual" });
  for (const c of watchlist.cases) {
    insertChange(db, {
      caseId: getCase(db, c.digits, c.court)?.id ?? -1,
      runId,
      detectedAt: at,
      kinds: ["class_changed"],
      details: { provenance: PROVENANCE },
      newMovements: 0,
    });
  }
});

afterEach(() => {
  closeDatabase(db);
});

/** The model's stand-in: the rules' summary, each call counted as one model call. */
function countingSummarizer(): Summarizer & { asked: string[]; inputs: SummarizeInput[] } {
  const asked: string[] = [];
  const inputs: SummarizeInput[] = [];
  return {
    asked,
    inputs,
    unavailable: () => null,
    summarize: async (input: SummarizeInput) => {
      asked.push(input.cnjNumber);
      inputs.push(input);
      return {
        summary: rulesSummary(input),
        model: "stand-in",
        usage: ZERO_USAGE,
        llmCalls: 1,
        fallbackReason: null,
      };
    },
  };
}

function deps(summarizer: Summarizer) {
  return {
    db,
    summarizer,
    clock: new FakeClock({ now: NOW }),
    logger: silentLogger(),
    mailDomain: "monitor.example.com",
    policy: mailPolicy(watchlist, {
      timezone: "America/Sao_Paulo",
      quietHours: null,
      urgentBypassesQuietHours: true,
      defaultDelivery: "instant",
    }),
  };
}

function outbox(): Array<{ recipient: string; kind: string }> {
  return db
    .prepare<[], { recipient: string; kind: string }>(
      "SELECT recipient, kind FROM outbox ORDER BY id",
    )
    .all();
}

describe("summarizeChanges", () => {
  it("asks the model only about what will be mailed, and queues its alerts once per watcher", async () => {
    const summarizer = countingSummarizer();

    const first = await summarizeChanges(deps(summarizer));
    const again = await summarizeChanges(deps(summarizer));

    expect(first).toEqual({
      summarized: 2,
      llmCalls: 1,
      emailsQueued: 2,
      queued: { email: 2 },
      ignored: 0,
      muted: 1,
      modelUnavailable: null,
    });
    expect(summarizer.asked).toEqual([LOUD]);
    expect(outbox()).toEqual([
      { recipient: "ana@example.com", kind: "alert" },
      { recipient: "rui@example.com", kind: "alert" },
    ]);
    expect(again).toEqual({
      summarized: 0,
      llmCalls: 0,
      emailsQueued: 0,
      queued: {},
      ignored: 0,
      muted: 0,
      modelUnavailable: null,
    });
  });

  it("stops before the next change once stopped, leaving it for the next run", async () => {
    const summarizer = countingSummarizer();
    const stop = new AbortController();
    stop.abort();

    const stopped = await summarizeChanges(deps(summarizer), stop.signal);
    const next = await summarizeChanges(deps(summarizer));

    expect(stopped.summarized).toBe(0);
    expect(next.summarized).toBe(2);
  });

  it("tells each change's alerts as soon as they are committed, a case's own changes in order", async () => {
    const loud = watchlist.cases.find((c) => c.number === LOUD);
    const caseId = loud === undefined ? -1 : (getCase(db, loud.digits, loud.court)?.id ?? -1);
    const at = new Date(NOW).toISOString();
    const runId = startRun(db, { startedAt: at, trigger: "manual" });
    // A second change of the loud case, as a crashed run would leave it beside this run's.
    insertChange(db, {
      caseId,
      runId,
      detectedAt: at,
      kinds: ["new_movements"],
      details: { provenance: PROVENANCE },
      newMovements: 0,
    });
    const answers: Array<() => void> = [];
    const previous: Array<string | null> = [];
    const model: Summarizer = {
      unavailable: () => null,
      summarize: async (input) => {
        previous.push(input.previousSummary?.generatedBy ?? null);
        // The model answers when the test says.
        await new Promise<void>((resolve) => answers.push(resolve));
        return {
          summary: rulesSummary(input),
          model: "stand-in",
          usage: ZERO_USAGE,
          llmCalls: 1,
          fallbackReason: null,
        };
      },
    };
    const told: number[] = [];

    const running = summarizeChanges({
      ...deps(model),
      queued: (q) => told.push(queuedRows(q)),
    });
    // The muted case (rules, no mail) is committed while the loud case's model call waits, and
    // the loud case's second change waits for its first.
    await waitFor(() => told.length === 1, "the muted case's commit");
    expect(told).toEqual([0]);
    expect(answers).toHaveLength(1);
    answers[0]?.();
    await waitFor(() => answers.length === 2, "the loud case's second summary");
    expect(told).toEqual([0, 2]);
    answers[1]?.();
    const result = await running;

    expect(told).toEqual([0, 2, 2]);
    expect(result.summarized).toBe(3);
    // The second change read the summary the first one mailed.
    expect(previous).toEqual([null, "rules"]);
  });

  it("writes the prompt's record with the movements stored once, in movements", async () => {
    const kase = watchlist.cases[0];
    const caseId = getCase(db, kase?.digits ?? "", kase?.court ?? "")?.id ?? -1;
    const later = testMovement({ id: "b", code: 85, name: "Petição", dateTime: "2026-03-02" });
    const earlier = testMovement({ id: "a", code: 51, name: "Conclusão", dateTime: "2026-03-01" });
    const record = caseRecord({ movements: [earlier, later] });
    const at = new Date(NOW).toISOString();
    const { instanceId } = upsertInstance(db, {
      caseId,
      record,
      fingerprint: null,
      at,
      changeId: null,
    });
    const plan = { ...emptyMovementPlan(), added: [later, earlier] };
    applyMovementPlan(db, { caseId, instanceId, plan, at, changeId: null });
    const summarizer = countingSummarizer();

    await summarizeChanges(deps(summarizer));

    const [records] = summarizer.inputs.map((input) => input.records);
    expect(records?.map((r) => r.movements.map((m) => [m.name, m.hint?.pt !== undefined]))).toEqual(
      [
        [
          ["Conclusão", true],
          ["Petição", true],
        ],
      ],
    );
  });
});
