import type { Movement } from "../../../../src/datajud/instance-record.js";
import type { AlertContent } from "../../../../src/notify/render/alert-content.js";
import type { CorrectionInput } from "../../../../src/notify/render/build-event.js";
import type { CaseSummary } from "../../../../src/summarize/case-summary.js";
import { testMovement } from "../../../support/movement.js";

/** A realistic alert to render and send: a despejo case that just got a sentence. */

export function sampleMovement(overrides: Partial<Movement> = {}): Movement {
  return testMovement({
    id: "m-sentenca",
    code: 219,
    name: "Procedência",
    dateTime: "2025-10-02T10:30:00",
    dateTimeRaw: "2025-10-02T10:30:00.000Z",
    complements: [{ code: 3, name: "para sentença", value: 5, description: "tipo_de_conclusao" }],
    courtUnit: { code: 1234, name: "1ª Vara Cível de Ceilândia" },
    hint: { pt: "Sentença de mérito a favor do autor", en: "Judgment for the plaintiff" },
    ...overrides,
  });
}

/**
 * A publication of 17/01/2024 that DataJud first lists with the sample's fetch (02/10/2025): a
 * late record, 623 whole days after its own date.
 */
export function sampleLateMovement(overrides: Partial<Movement> = {}): Movement {
  return sampleMovement({
    id: "m-late",
    code: 92,
    name: "Publicação",
    dateTime: "2024-01-17T16:37:19",
    complements: [],
    hint: null,
    ...overrides,
  });
}

export function sampleSummary(overrides: Partial<CaseSummary> = {}): CaseSummary {
  return {
    cnjNumber: "0713383-43.2025.8.07.0006",
    court: "tjdft",
    instances: ["G1"],
    statusCategory: "decided",
    status: "Procedimento Comum Cível em 1ª Vara Cível de Ceilândia; sentença de procedência.",
    needsLawyerAttention: true,
    attentionReasons: [
      {
        reason: "Sentença proferida: prazo de recurso corre",
        movements: [
          {
            movementId: "m-sentenca",
            dateTime: "2025-10-02T10:30:00",
            code: 219,
            name: "Procedência",
          },
        ],
      },
    ],
    latestRelevantMovement: null,
    nextExpectedStep: "Intimação das partes da sentença",
    generatedBy: "rules",
    generatedAt: "2025-10-02T15:00:00.000Z",
    ...overrides,
  };
}

export function sampleAlert(overrides: Partial<AlertContent> = {}): AlertContent {
  return {
    caseNumber: "0713383-43.2025.8.07.0006",
    court: "tjdft",
    label: "Silva x Souza (despejo)",
    previous: sampleSummary({
      statusCategory: "awaiting_decision",
      status: "Procedimento Comum Cível em 1ª Vara Cível de Ceilândia; concluso para sentença.",
      needsLawyerAttention: false,
      attentionReasons: [],
      nextExpectedStep: "Sentença",
      generatedAt: "2025-09-20T15:00:00.000Z",
    }),
    current: sampleSummary(),
    newMovements: [
      { instance: "G1", movement: sampleMovement() },
      {
        instance: "G1",
        movement: sampleMovement({
          id: "m-juntada",
          code: 85,
          name: "Juntada de Petição",
          dateTime: "2025-09-30T14:05:00",
          complements: [],
          hint: null,
        }),
      },
    ],
    instances: [
      {
        instance: "G1",
        courtUnit: "1ª Vara Cível de Ceilândia",
        className: "Procedimento Comum Cível",
      },
    ],
    provenance: {
      index: "api_publica_tjdft",
      fetchedAt: "2025-10-02T14:55:00.000Z",
      lastUpdatedAt: "2025-10-02T11:11:20",
    },
    lateMovements: [],
    acts: [],
    fieldChanges: [],
    corrections: [],
    changeKinds: ["new_movements"],
    urgent: false,
    urgentReasons: [],
    ignoredMovements: 0,
    ...overrides,
  };
}

/** A movement the court re-dated from 05/11 to 06/11 after it was reported. */
export function sampleCorrection(): CorrectionInput {
  return {
    caseNumber: "0713383-43.2025.8.07.0006",
    court: "tjdft",
    label: null,
    urgent: true,
    correction: "redated",
    summary: "Publicação com nova data: 05/11 → 06/11",
    instance: "G1",
    was: sampleMovement({ dateTime: "2025-11-05" }),
    now: sampleMovement({ dateTime: "2025-11-06" }),
    index: "api_publica_tjdft",
    fetchedAt: "2025-11-06T12:00:00.000Z",
    lastUpdatedAt: null,
  };
}
