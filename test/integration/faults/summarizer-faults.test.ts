import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  errorReply,
  type FakeAnthropic,
  type FakeReply,
  finalReply,
  startFakeAnthropic,
} from "../../fakes/fake-anthropic.js";
import type { FakeDataJud } from "../../fakes/fake-datajud.js";
import {
  baseEnv,
  emlFiles,
  loadFixtures,
  moveCase,
  n,
  outcomes,
  query,
  runOnce,
  startDataJud,
  type Workspace,
  workspace,
} from "./harness.js";

/*
 * The summarizer's per-call timeout is fixed at 120 s in src/cli/runtime.ts (no env or config
 * setting), so a hung Messages API is covered by test/integration/summarize/summarizer.test.ts
 * with a short timeout, not through run-once.
 */

let datajud: FakeDataJud;
let anthropic: FakeAnthropic;
let ws: Workspace;

function env(): Record<string, string> {
  return baseEnv(ws, datajud, {
    ANTHROPIC_API_KEY: anthropic.apiKey,
    ANTHROPIC_BASE_URL: anthropic.url,
    ANTHROPIC_MODEL: "claude-fake-1",
  });
}

beforeAll(async () => {
  datajud = await startDataJud("summarizer-faults-key");
  anthropic = await startFakeAnthropic();
});

afterAll(async () => {
  await anthropic.close();
  await datajud.close();
});

beforeEach(async () => {
  loadFixtures(datajud);
  anthropic.reset();
  ws = workspace("faults-summarizer-");
  await runOnce(ws, env());
});

// The SDK retries twice; three failures outlast it.
const faults: Array<[string, FakeReply[]]> = [
  ["529 overloaded", [errorReply(529), errorReply(529), errorReply(529)]],
  ["500 internal error", [errorReply(500), errorReply(500), errorReply(500)]],
  ["an answer that is not JSON", [finalReply("Claro! Aqui está o resumo: o caso andou.")]],
  ["JSON of the wrong shape", [finalReply({ statusCategory: "vibes", status: 42 })]],
];

describe("the Messages API failing during run-once", () => {
  it.each(faults)("%s: rules summary stored, change kept, alert mailed", async (_, replies) => {
    moveCase(datajud, "trt2", n.trt2Reclamacao);
    anthropic.enqueue(...replies);

    const run = await runOnce(ws, env());

    expect(run.code, run.stdout).toBe(0);
    expect(outcomes(run.report)[`${n.trt2Reclamacao}@trt2`]).toBe("changed");
    expect(anthropic.requests).toHaveLength(replies.length);
    expect(anthropic.pending()).toBe(0);
    expect(query(ws, "SELECT generated_by AS by FROM summaries")).toEqual([{ by: "rules" }]);
    expect(query(ws, "SELECT new_movements AS m FROM changes")).toEqual([{ m: 1 }]);
    expect(run.report.emailsQueued).toBe(1);
    expect(run.report.emailsSent).toBe(1);
    const [eml] = emlFiles(ws);
    expect(eml).toContain("To: ana@example.com");
    expect(eml).not.toContain("Claro! Aqui");
  });
});
