import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  EVAL_CASES_DIR,
  EVAL_NOW,
  type EvalCase,
  EvalCaseError,
  loadEvalCases,
  main,
  runRulesEvals,
} from "../../../evals/run-evals.js";
import { silentLogger } from "../../../src/log.js";
import { STATUS_CATEGORIES } from "../../../src/summarize/case-summary.js";
import { rulesSummary } from "../../../src/summarize/rules-summary.js";
import {
  errorReply,
  type FakeAnthropic,
  finalReply,
  startFakeAnthropic,
} from "../../fakes/fake-anthropic.js";

const cases = loadEvalCases();

function capture(): { out: { write(text: string): boolean }; text(): string } {
  let buffer = "";
  return {
    out: {
      write(text: string): boolean {
        buffer += text;
        return true;
      },
    },
    text: () => buffer,
  };
}

function byId(id: string): EvalCase {
  const found = cases.find((c) => c.id.startsWith(id));
  if (found === undefined) throw new Error(`no eval case ${id}`);
  return found;
}

describe("eval cases", () => {
  it("cover at least 12 cases and every status category", () => {
    const categories = new Set(cases.map((c) => c.expected.statusCategory));

    expect(cases.length).toBeGreaterThanOrEqual(12);
    expect([...categories].sort()).toEqual([...STATUS_CATEGORIES].sort());
  });

  it("include a multi-instance case, a superior-court record, a quiet case and an injection attempt", () => {
    const multi = cases.filter((c) => c.input.records.length > 1);
    const superior = cases.filter((c) => c.input.records.some((r) => r.instance === "SUP"));
    const quiet = cases.filter(
      (c) => c.expected.needsLawyerAttention === false && c.input.newMovements.length > 0,
    );
    const injected = cases.filter((c) =>
      c.input.newMovements.some((m) =>
        m.complements.some((x) => /ignore previous instructions/i.test(x.name ?? "")),
      ),
    );

    expect(multi.map((c) => c.input.records.map((r) => r.instance))).toContainEqual(["JE", "TR"]);
    expect(superior.map((c) => c.input.court)).toContain("stj");
    expect(quiet.length).toBeGreaterThan(0);
    expect(injected.map((c) => c.expected.needsLawyerAttention)).toEqual([true]);
  });

  it("are judged against the fixed today", () => {
    const nows = new Set(cases.map((c) => c.input.now.toISOString()));

    expect([...nows]).toEqual([EVAL_NOW.toISOString()]);
    expect(EVAL_NOW.toISOString()).toBe("2026-12-02T15:00:00.000Z");
  });
});

describe("rules engine evals", () => {
  const results = runRulesEvals(cases);

  it.each(results.map((r) => [r.grade.caseId, r] as const))("%s passes", (_id, result) => {
    const failed = result.grade.checks.filter((c) => !c.pass);

    expect(failed).toEqual([]);
    expect(result.grade.pass).toBe(true);
  });

  it("prints the score table and exits 0 with --rules", async () => {
    const stdout = capture();
    const stderr = capture();

    const code = await main({
      argv: ["--rules"],
      env: {},
      cwd: tmpdir(),
      stdout: stdout.out,
      stderr: stderr.out,
    });

    expect(code).toBe(0);
    expect(stdout.text()).toMatch(/^case\s+category expected\s+category got\s+attention expected/m);
    expect(stdout.text()).toContain("04-sentence-published-tjsp");
    expect(stdout.text()).toContain(`score: ${cases.length}/${cases.length} cases passed`);
    expect(stderr.text()).toBe("");
  });
});

describe("eval runner", () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "evals-"));
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("exits 2 with a clear message when the model run has no API key", async () => {
    const stdout = capture();
    const stderr = capture();

    const code = await main({
      argv: [],
      env: {},
      cwd: dir,
      stdout: stdout.out,
      stderr: stderr.out,
    });

    expect(code).toBe(2);
    expect(stderr.text()).toContain("ANTHROPIC_API_KEY is not set");
    expect(stderr.text()).toContain("npm run evals -- --rules");
    expect(stdout.text()).toBe("");
  });

  it("exits 2 on an unknown option or an unknown case", async () => {
    const stderr = capture();

    const badFlag = await main({
      argv: ["--rule"],
      env: {},
      cwd: dir,
      stdout: capture().out,
      stderr: stderr.out,
    });
    const badCase = await main({
      argv: ["--rules", "--case", "99"],
      env: {},
      cwd: dir,
      stdout: capture().out,
      stderr: stderr.out,
    });

    expect([badFlag, badCase]).toEqual([2, 2]);
    expect(stderr.text()).toContain('no eval case "99"');
  });

  it("exits 1 with --rules when a case fails", async () => {
    const casesDir = join(dir, "failing");
    const source = readFileSync(join(EVAL_CASES_DIR, "04-sentence-published-tjsp.json"), "utf8");
    const file = JSON.parse(source) as { expected: { statusCategory: string } };
    file.expected.statusCategory = "archived";
    mkdirSync(casesDir);
    writeFileSync(join(casesDir, "04-wrong.json"), JSON.stringify(file));
    const stdout = capture();

    const code = await main({
      argv: ["--rules"],
      env: {},
      cwd: dir,
      stdout: stdout.out,
      stderr: capture().out,
      casesDir,
    });

    expect(code).toBe(1);
    expect(stdout.text()).toContain("04-wrong: statusCategory: expected archived, got decided");
    expect(stdout.text()).toContain("score: 0/1 cases passed");
  });

  it("refuses a case whose new movement matches nothing in the records", () => {
    const casesDir = join(dir, "broken");
    const source = readFileSync(join(EVAL_CASES_DIR, "10-quiet-routine-tjmg.json"), "utf8");
    const file = JSON.parse(source) as { newMovements: Array<{ codigo: number }> };
    (file.newMovements[0] as { codigo: number }).codigo = 999_999;
    mkdirSync(casesDir);
    writeFileSync(join(casesDir, "10-broken.json"), JSON.stringify(file));

    const load = (): unknown => loadEvalCases(casesDir);

    expect(load).toThrow(EvalCaseError);
    expect(load).toThrow(/10-broken: newMovements entry G1\/999999\/.* matches no movement/);
  });
});

describe("model eval run against a loopback Messages API", () => {
  let fake: FakeAnthropic;
  let dir: string;

  beforeAll(async () => {
    fake = await startFakeAnthropic();
    dir = mkdtempSync(join(tmpdir(), "evals-model-"));
  });

  afterAll(async () => {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("grades the model's answer and prints the tokens it used", async () => {
    const target = byId("04");
    const {
      cnjNumber: _cnj,
      court: _court,
      instances: _instances,
      generatedBy: _by,
      generatedAt: _at,
      ...answer
    } = rulesSummary({ ...target.input });
    fake.enqueue(
      finalReply(answer, {
        input_tokens: 1500,
        output_tokens: 400,
        cache_creation_input_tokens: 2000,
        cache_read_input_tokens: 0,
      }),
    );
    const stdout = capture();
    const stderr = capture();

    const code = await main({
      argv: ["--case", "04"],
      env: {
        ANTHROPIC_API_KEY: fake.apiKey,
        ANTHROPIC_BASE_URL: fake.url,
        ANTHROPIC_MODEL: "claude-eval-test",
      },
      cwd: dir,
      stdout: stdout.out,
      stderr: stderr.out,
      logger: silentLogger(),
    });

    expect(code).toBe(0);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.body.model).toBe("claude-eval-test");
    expect(stdout.text()).toMatch(
      /04-sentence-published-tjsp .*claude-eval-test\s+1\s+3900\s+PASS/,
    );
    expect(stdout.text()).toContain("score: 1/1 cases passed");
    expect(stdout.text()).toContain(
      "tokens: 1500 input, 400 output, 0 cache read, 2000 cache write; 1 model call(s)",
    );
  });

  it("exits 1 when the API fails, and shows the rows as rules summaries", async () => {
    fake.reset();
    fake.enqueue(errorReply(401, "invalid x-api-key"));
    const stdout = capture();
    const stderr = capture();

    const code = await main({
      argv: ["--case", "10"],
      env: { ANTHROPIC_API_KEY: fake.apiKey, ANTHROPIC_BASE_URL: fake.url },
      cwd: dir,
      stdout: stdout.out,
      stderr: stderr.out,
      logger: silentLogger(),
    });

    expect(code).toBe(1);
    expect(stdout.text()).toMatch(/10-quiet-routine-tjmg .*rules \(api_error\)\s+\d+\s+\d+\s+FAIL/);
    expect(stdout.text()).toContain("written by the model: expected a model id, got rules");
    expect(stderr.text()).toContain("the Claude API failed for 10-quiet-routine-tjmg");
  });
});
