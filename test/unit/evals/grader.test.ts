import { describe, expect, it } from "vitest";
import {
  citedMovements,
  EvalExpectation,
  gradeSummary,
  matchesRequirement,
  scoreGrades,
} from "../../../evals/grader.js";
import type { CaseSummary, MovementRef } from "../../../src/summarize/case-summary.js";

const SENTENCE: MovementRef = {
  movementId: "m-sentence",
  dateTime: "2026-11-18T19:42:10.000Z",
  code: 221,
  name: "Procedência em Parte",
};
const PUBLICATION: MovementRef = {
  movementId: "m-publication",
  // The court's wall clock: 00:30 on the 20th is the 20th (read as UTC it would be the 19th).
  dateTime: "2026-11-20T00:30:00",
  code: 92,
  name: "Publicação",
};

function summary(overrides: Partial<CaseSummary> = {}): CaseSummary {
  return {
    cnjNumber: "1023456-95.2025.8.26.0224",
    court: "tjsp",
    instances: ["G1"],
    statusCategory: "decided",
    status: "Sentença de procedência em parte publicada.",
    needsLawyerAttention: true,
    attentionReasons: [{ reason: "sentença proferida: verificar prazo", movements: [SENTENCE] }],
    latestRelevantMovement: PUBLICATION,
    nextExpectedStep: null,
    generatedBy: "claude-test-1",
    generatedAt: "2026-12-02T15:00:00.000Z",
    ...overrides,
  };
}

function expectation(value: unknown): EvalExpectation {
  return EvalExpectation.parse(value);
}

describe("eval grader", () => {
  it("passes a summary whose category, attention and cited movements all match", () => {
    const expected = expectation({
      statusCategory: "decided",
      needsLawyerAttention: true,
      requiredMovements: [221, 92],
    });

    const grade = gradeSummary("04", summary(), expected);

    expect(grade.pass).toBe(true);
    expect(grade.checks.map((c) => c.label)).toEqual([
      "statusCategory",
      "needsLawyerAttention",
      "cites 221",
      "cites 92",
    ]);
    expect(grade.got).toEqual({
      statusCategory: "decided",
      needsLawyerAttention: true,
      generatedBy: "claude-test-1",
    });
  });

  it("fails the category check alone when only the category is wrong", () => {
    const expected = expectation({ statusCategory: "appeal_pending", requiredMovements: [221] });

    const grade = gradeSummary("x", summary(), expected);

    expect(grade.pass).toBe(false);
    expect(grade.checks.filter((c) => !c.pass)).toEqual([
      {
        kind: "statusCategory",
        label: "statusCategory",
        pass: false,
        expected: "appeal_pending",
        actual: "decided",
      },
    ]);
  });

  it("does not check attention when the expectation leaves it out", () => {
    const expected = expectation({ statusCategory: "decided" });

    const grade = gradeSummary(
      "x",
      summary({ needsLawyerAttention: false, attentionReasons: [] }),
      expected,
    );

    expect(grade.pass).toBe(true);
    expect(grade.checks.some((c) => c.kind === "needsLawyerAttention")).toBe(false);
    expect(expected.requiredMovements).toEqual([]);
  });

  it("fails when attention is expected but the summary asks for none", () => {
    const expected = expectation({ statusCategory: "decided", needsLawyerAttention: true });

    const grade = gradeSummary(
      "x",
      summary({ needsLawyerAttention: false, attentionReasons: [] }),
      expected,
    );

    expect(grade.pass).toBe(false);
    expect(grade.checks.find((c) => c.kind === "needsLawyerAttention")).toMatchObject({
      pass: false,
      expected: "true",
      actual: "false",
    });
  });

  it("reports a required movement the summary does not cite, with what it did cite", () => {
    const expected = expectation({ statusCategory: "decided", requiredMovements: [848] });

    const grade = gradeSummary("x", summary(), expected);

    expect(grade.pass).toBe(false);
    expect(grade.checks.at(-1)).toEqual({
      kind: "movementCited",
      label: "cites 848",
      pass: false,
      expected: "848",
      actual: "221 Procedência em Parte, 92 Publicação",
    });
  });

  it("counts a movement cited only as latestRelevantMovement", () => {
    const expected = expectation({ statusCategory: "decided", requiredMovements: [92] });

    const grade = gradeSummary(
      "x",
      summary({ attentionReasons: [], needsLawyerAttention: false }),
      expected,
    );

    expect(grade.pass).toBe(true);
  });

  it("matches names without case or accents, and narrows by the day the court recorded", () => {
    const byName = matchesRequirement(SENTENCE, "procedencia em parte");
    const sameDay = matchesRequirement(PUBLICATION, { code: 92, date: "2026-11-20" });
    const shiftedDay = matchesRequirement(PUBLICATION, { code: 92, date: "2026-11-19" });
    const otherCode = matchesRequirement(PUBLICATION, { code: 1061, date: "2026-11-20" });

    expect([byName, sameDay, shiftedDay, otherCode]).toEqual([true, true, false, false]);
  });

  it("fails a model run's case when the rules engine wrote the summary instead", () => {
    const expected = expectation({ statusCategory: "decided" });

    const byRules = gradeSummary("x", summary({ generatedBy: "rules" }), expected, {
      requireModel: true,
    });
    const byModel = gradeSummary("x", summary(), expected, { requireModel: true });

    expect(byRules.pass).toBe(false);
    expect(byRules.checks[0]).toMatchObject({ kind: "modelWrote", pass: false, actual: "rules" });
    expect(byModel.pass).toBe(true);
  });

  it("checks the words a lawyer relies on: the unit named, words never used, a next step that agrees", () => {
    const expected = expectation({
      statusCategory: "decided",
      statusMentions: ["5ª Turma Cível"],
      mustNotSay: ["audiência"],
      nextStepMentions: ["sessão", "recurso"],
    });
    const good = summary({
      status: "Apelação Cível na 5ª TURMA CIVEL: sentença mantida.",
      nextExpectedStep: "Prazo para recurso do acórdão.",
    });
    const bad = summary({
      status: "Procedimento Comum na 3ª Vara Cível.",
      attentionReasons: [{ reason: "Audiência: verificar a data", movements: [SENTENCE] }],
      nextExpectedStep: "Nenhum; o processo está arquivado.",
    });

    const passed = gradeSummary("16", good, expected);
    const failed = gradeSummary("16", bad, expected);

    expect(passed.pass).toBe(true);
    expect(failed.checks.filter((c) => !c.pass).map((c) => c.label)).toEqual([
      'status names "5ª Turma Cível"',
      'never says "audiência"',
      "next step agrees with the attention box",
    ]);
    expect(failed.checks.find((c) => c.kind === "mustNotSay")?.actual).toBe(
      "Audiência: verificar a data",
    );
  });

  it("lists each cited movement once", () => {
    const cited = citedMovements(summary({ latestRelevantMovement: SENTENCE }));

    expect(cited).toEqual([SENTENCE]);
  });

  it("scores checks and cases", () => {
    const good = gradeSummary("a", summary(), expectation({ statusCategory: "decided" }));
    const bad = gradeSummary(
      "b",
      summary(),
      expectation({
        statusCategory: "archived",
        needsLawyerAttention: true,
        requiredMovements: [221],
      }),
    );

    const score = scoreGrades([good, bad]);

    expect(score).toEqual({ cases: 2, passedCases: 1, checks: 4, passedChecks: 3, score: 0.75 });
    expect(scoreGrades([]).score).toBe(1);
  });

  it("rejects an expectation with an unknown category or a requirement with neither code nor name", () => {
    const badCategory = EvalExpectation.safeParse({ statusCategory: "closed" });
    const badRequirement = EvalExpectation.safeParse({
      statusCategory: "decided",
      requiredMovements: [{ date: "2026-11-20" }],
    });

    expect(badCategory.success).toBe(false);
    expect(badRequirement.success).toBe(false);
  });
});
