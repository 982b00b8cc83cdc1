import { describe, expect, it } from "vitest";
import type { Movement } from "../../../src/datajud/instance-record.js";
import {
  type CaseAlertPolicy,
  foldText,
  type MovementRule,
  NO_ALERT_POLICY,
} from "../../../src/policy/alert-rules.js";
import {
  decideAlert,
  isMuted,
  matchesAny,
  matchesRule,
  URGENT_REASON,
  withUrgentAttention,
} from "../../../src/policy/movement-rules.js";
import { testMovement } from "../../support/movement.js";
import { sampleSummary } from "../notify/render/sample-alert.js";

const SAO_PAULO = "America/Sao_Paulo";
const NOW = new Date("2026-05-04T15:00:00.000Z");

function movement(id: string, code: number | null, name: string): Movement {
  return testMovement({
    id,
    code,
    name,
    dateTime: "2026-05-04T12:00:00",
  });
}

function nameRule(text: string): MovementRule {
  return { kind: "name", text, folded: foldText(text) };
}

function codeRule(code: number): MovementRule {
  return { kind: "code", code };
}

function policy(overrides: Partial<CaseAlertPolicy> = {}): CaseAlertPolicy {
  return { ...NO_ALERT_POLICY, ...overrides };
}

const conclusao = movement("m-conclusao", 51, "Conclusão");
const juntada = movement("m-juntada", 85, "Juntada de Petição");
const sentenca = movement("m-sentenca", 219, "Procedência");
const intimacao = movement("m-intimacao", 12265, "Expedição de  INTIMAÇÃO eletrônica");

describe("matchesRule", () => {
  it("matches a code rule on the TPU code only", () => {
    const rule = codeRule(51);

    const results = [
      matchesRule(conclusao, rule),
      matchesRule({ code: 52, name: "Conclusão" }, rule),
      matchesRule({ code: null, name: "51" }, rule),
    ];

    expect(results).toEqual([true, false, false]);
  });

  it("matches a name rule anywhere in the name, ignoring case, accents and repeated spaces", () => {
    const upper = nameRule("CONCLUSÃO");
    const plain = nameRule("conclusao");
    const spaced = nameRule("intimacao   eletronica");

    const results = [
      matchesRule({ code: null, name: "conclusao" }, upper),
      matchesRule({ code: null, name: "Conclusão para despacho" }, plain),
      matchesRule(intimacao, spaced),
      matchesRule(juntada, plain),
    ];

    expect(results).toEqual([true, true, true, false]);
  });

  it("never matches with an empty name rule", () => {
    const rule = nameRule("   ");

    const result = matchesRule(juntada, rule);

    expect(result).toBe(false);
  });
});

describe("matchesAny", () => {
  it("is true when one rule matches and false for no rules", () => {
    const rules = [codeRule(999), nameRule("juntada")];

    const results = [
      matchesAny(juntada, rules),
      matchesAny(sentenca, rules),
      matchesAny(juntada, []),
    ];

    expect(results).toEqual([true, false, false]);
  });
});

describe("isMuted", () => {
  // 2027-01-31 ends at 2027-02-01T00:00 in São Paulo (UTC-3), which is 03:00Z.
  const until = policy({ mutedUntil: "2027-01-31" });

  it("is muted with muted: true, whatever the date", () => {
    const muted = policy({ muted: true });

    const result = isMuted(muted, NOW, SAO_PAULO);

    expect(result).toBe(true);
  });

  it("is not muted without muted or muted_until", () => {
    const result = isMuted(NO_ALERT_POLICY, NOW, SAO_PAULO);

    expect(result).toBe(false);
  });

  it("stays muted through the last local minute of the muted_until day", () => {
    const lastMinute = new Date("2027-02-01T02:59:00.000Z"); // 23:59 local on Jan 31
    const lastMillisecond = new Date("2027-02-01T02:59:59.999Z");

    const results = [
      isMuted(until, new Date("2027-01-15T12:00:00.000Z"), SAO_PAULO),
      isMuted(until, lastMinute, SAO_PAULO),
      isMuted(until, lastMillisecond, SAO_PAULO),
    ];

    expect(results).toEqual([true, true, true]);
  });

  it("unmutes at local midnight after the muted_until day, not at UTC midnight", () => {
    const utcMidnight = new Date("2027-02-01T00:00:00.000Z"); // still 21:00 on Jan 31 locally
    const localMidnight = new Date("2027-02-01T03:00:00.000Z");

    const results = [
      isMuted(until, utcMidnight, SAO_PAULO),
      isMuted(until, localMidnight, SAO_PAULO),
      isMuted(until, new Date("2027-03-01T12:00:00.000Z"), SAO_PAULO),
    ];

    expect(results).toEqual([true, false, false]);
  });
});

describe("decideAlert", () => {
  const rules = policy({
    ignore: [nameRule("juntada"), codeRule(51)],
    urgent: [nameRule("conclusao"), codeRule(219)],
  });
  const ignoreOnly = policy({ ignore: [nameRule("juntada"), nameRule("intimacao")] });

  it("alerts on new movements that no rule mentions", () => {
    const input = {
      changeKinds: ["new_movements"],
      movements: [sentenca],
      policy: NO_ALERT_POLICY,
      now: NOW,
      timezone: SAO_PAULO,
    };

    const decision = decideAlert(input);

    expect(decision).toMatchObject({
      disposition: "alert",
      urgent: [],
      ignored: [],
      shown: [sentenca],
    });
  });

  it("lets an urgent rule win over an ignore rule for the same movement", () => {
    const input = {
      changeKinds: ["new_movements"],
      movements: [conclusao],
      policy: rules,
      now: NOW,
      timezone: SAO_PAULO,
    };

    const decision = decideAlert(input);

    expect(decision).toMatchObject({
      disposition: "alert",
      urgent: [conclusao],
      ignored: [],
      shown: [conclusao],
    });
  });

  it("ignores a change made only of ignored movements", () => {
    const input = {
      changeKinds: ["new_movements"],
      movements: [juntada, intimacao],
      policy: ignoreOnly,
      now: NOW,
      timezone: SAO_PAULO,
    };

    const decision = decideAlert(input);

    expect(decision).toMatchObject({
      disposition: "ignored",
      urgent: [],
      ignored: [juntada, intimacao],
      shown: [],
    });
  });

  it("alerts when one movement is ignored and another is not, showing only the other", () => {
    const input = {
      changeKinds: ["new_movements"],
      movements: [juntada, sentenca, intimacao],
      policy: ignoreOnly,
      now: NOW,
      timezone: SAO_PAULO,
    };

    const decision = decideAlert(input);

    expect(decision).toMatchObject({
      disposition: "alert",
      urgent: [],
      ignored: [juntada, intimacao],
      shown: [sentenca],
    });
  });

  it("keeps urgent and plain movements in input order in shown", () => {
    const input = {
      changeKinds: ["new_movements"],
      movements: [juntada, sentenca, intimacao, conclusao],
      policy: rules,
      now: NOW,
      timezone: SAO_PAULO,
    };

    const decision = decideAlert(input);

    expect(decision.urgent).toEqual([sentenca, conclusao]);
    expect(decision.ignored).toEqual([juntada]);
    expect(decision.shown).toEqual([sentenca, intimacao, conclusao]);
  });

  it("alerts on a class change even when every new movement is ignored", () => {
    const input = {
      changeKinds: ["new_movements", "class_changed"],
      movements: [juntada],
      policy: ignoreOnly,
      now: NOW,
      timezone: SAO_PAULO,
    };

    const decision = decideAlert(input);

    expect(decision).toMatchObject({
      disposition: "alert",
      urgent: [],
      ignored: [juntada],
      shown: [],
    });
  });

  it("alerts on a baseline, even one with only ignored movements", () => {
    const input = {
      changeKinds: ["baseline"],
      movements: [juntada],
      policy: ignoreOnly,
      now: NOW,
      timezone: SAO_PAULO,
    };

    const decision = decideAlert(input);

    expect(decision.disposition).toBe("alert");
  });

  it("alerts on a new_movements change that carries no movements", () => {
    const input = {
      changeKinds: ["new_movements"],
      movements: [],
      policy: ignoreOnly,
      now: NOW,
      timezone: SAO_PAULO,
    };

    const decision = decideAlert(input);

    expect(decision).toMatchObject({ disposition: "alert", urgent: [], ignored: [], shown: [] });
  });

  it("mutes over everything, urgent movements and class changes included, and still sorts them", () => {
    const input = {
      changeKinds: ["new_movements", "class_changed"],
      movements: [conclusao, juntada],
      policy: { ...rules, muted: true },
      now: NOW,
      timezone: SAO_PAULO,
    };

    const decision = decideAlert(input);

    expect(decision).toMatchObject({
      disposition: "muted",
      urgent: [conclusao],
      ignored: [juntada],
      shown: [conclusao],
    });
  });

  it("applies the same rules to corrected movements: ignored alone is quiet, urgent wins", () => {
    const base = {
      changeKinds: ["corrected_movements"],
      movements: [],
      now: NOW,
      timezone: SAO_PAULO,
    };

    const ignored = decideAlert({ ...base, corrected: [juntada], policy: ignoreOnly });
    const urgent = decideAlert({ ...base, corrected: [conclusao, juntada], policy: rules });
    const plain = decideAlert({ ...base, corrected: [sentenca], policy: ignoreOnly });

    expect(ignored).toMatchObject({ disposition: "ignored", shownCorrections: [] });
    expect(urgent).toMatchObject({
      disposition: "alert",
      urgentCorrections: [conclusao],
      shownCorrections: [conclusao],
    });
    expect(plain).toMatchObject({ disposition: "alert", shownCorrections: [sentenca] });
  });

  it("mutes until the end of muted_until in the given time zone", () => {
    const base = {
      changeKinds: ["new_movements"],
      movements: [sentenca],
      policy: policy({ mutedUntil: "2027-01-31" }),
      timezone: SAO_PAULO,
    };

    const before = decideAlert({ ...base, now: new Date("2027-02-01T02:59:00.000Z") });
    const after = decideAlert({ ...base, now: new Date("2027-02-01T03:00:00.000Z") });

    expect(before.disposition).toBe("muted");
    expect(after.disposition).toBe("alert");
  });
});

describe("withUrgentAttention", () => {
  const quiet = sampleSummary({ needsLawyerAttention: false, attentionReasons: [] });

  it("asks for the lawyer's attention and cites the urgent movements", () => {
    const hearing = movement("m-aud", 970, "Audiência designada");

    const summary = withUrgentAttention(quiet, [hearing]);

    expect(summary.needsLawyerAttention).toBe(true);
    expect(summary.attentionReasons).toEqual([
      {
        reason: URGENT_REASON,
        movements: [
          {
            movementId: "m-aud",
            dateTime: hearing.dateTime,
            code: 970,
            name: "Audiência designada",
          },
        ],
      },
    ]);
  });

  it("adds nothing for a movement the summary already cites, and nothing without urgent ones", () => {
    const cited = sampleSummary();
    const sentence = movement("m-sentenca", 219, "Procedência");

    const same = withUrgentAttention(cited, [sentence]);
    const untouched = withUrgentAttention(quiet, []);

    expect(same.attentionReasons).toEqual(cited.attentionReasons);
    expect(untouched).toBe(quiet);
  });
});
