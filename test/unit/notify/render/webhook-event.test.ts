import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SCHEMA_FILES, schemaText } from "../../../../scripts/write-schemas.js";
import { EVENT_TYPES } from "../../../../src/config/config-schema.js";
import {
  caseCheckedEvent,
  correctionEvent,
  movementEvent,
  operatorEvent,
  publicationEvent,
  publicationMissingEvent,
} from "../../../../src/notify/render/build-event.js";
import type { CaseChecked } from "../../../../src/notify/render/case-checked.js";
import { chatMessage } from "../../../../src/notify/render/chat-message.js";
import { WebhookEvent } from "../../../../src/notify/render/webhook-event.js";
import {
  sampleAlert,
  sampleCorrection,
  sampleLateMovement,
  sampleMovement,
} from "./sample-alert.js";
import { samplePublication } from "./sample-publication.js";

const ID = `evt_${"ab".repeat(16)}`;
const ROOT = new URL("../../../../", import.meta.url);

describe("the committed JSON Schema", () => {
  it("is what the zod schema generates (run `npm run schemas` after changing it)", () => {
    for (const [path, make] of Object.entries(SCHEMA_FILES)) {
      const committed: unknown = JSON.parse(readFileSync(new URL(path, ROOT), "utf8"));

      // Compared as JSON: the formatter may lay the committed file out its own way.
      expect(committed, path).toEqual(JSON.parse(schemaText(make)));
    }
  });

  it("names version 1 and every event type", () => {
    const schema = JSON.parse(readFileSync(new URL("schemas/webhook-event.v1.json", ROOT), "utf8"));

    const types = (schema.oneOf as { properties: { type: { const: string } } }[]).map(
      (s) => s.properties.type.const,
    );

    expect(types).toEqual([
      "case.movement",
      "case.correction",
      "publication.published",
      "publication.cancelled",
      "publication.reestimated",
      "party.match",
      "publication.missing",
      "case.checked",
      "operator.alert",
      "alert.acknowledged",
      "alert.escalated",
    ]);
    // The types an endpoint may choose in the configuration are these, no more, no fewer.
    expect([...EVENT_TYPES]).toEqual(types);
    expect(schema.title).toContain("version 1");
  });
});

describe("movementEvent", () => {
  it("carries the case, its link, the new movements in the court's clock and the status", () => {
    const event = movementEvent(sampleAlert(), { id: ID });

    expect(event.type).toBe("case.movement");
    if (event.type !== "case.movement") return;
    expect(event.id).toBe(ID);
    expect(event.version).toBe(1);
    expect(event.test).toBe(false);
    expect(event.data.case.number).toBe("0713383-43.2025.8.07.0006");
    expect(event.data.case.link).toMatch(/^https:\/\//);
    expect(event.data.movements[0]).toMatchObject({
      code: 219,
      name: "Procedência",
      title: "Julgado procedente o pedido",
      dateTime: "2025-10-02T10:30:00",
    });
    expect(event.data.status.needsLawyerAttention).toBe(true);
    expect(event.timestamp).toBe(sampleAlert().provenance.fetchedAt);
  });

  it("names a criminal class's judgment in criminal words, DataJud's name kept", () => {
    const alert = sampleAlert({
      instances: [
        {
          instance: "G1",
          courtUnit: "1ª Vara Criminal de Ceilândia",
          className: "Ação Penal - Procedimento Ordinário",
          classCode: 283,
        },
      ],
    });

    const event = movementEvent(alert, { id: ID });

    if (event.type !== "case.movement") throw new Error(event.type);
    expect(event.data.movements[0]).toMatchObject({
      code: 219,
      name: "Procedência",
      title: "Sentença condenatória",
    });
  });

  it("cleans hostile court text: no control or bidi characters survive", () => {
    const alert = sampleAlert({ label: "Silva\u202e x\u0000 Souza\n<script>" });
    alert.newMovements = [
      { instance: "G1", movement: sampleMovement({ name: "Sentença\u0007\r\nforjada" }) },
    ];

    const event = movementEvent(alert, { id: ID });

    const text = JSON.stringify(event);
    expect(text).not.toMatch(/\\u0000|\\u0007|\\r|\\n|\u202e/);
    if (event.type === "case.movement") {
      expect(event.data.case.label).toBe("Silva x Souza <script>");
      expect(event.data.movements[0]?.name).toBe("Sentença forjada");
    }
  });

  it("carries late records with their own dates, flagged late, apart from the news", () => {
    const late = sampleLateMovement();
    const older = sampleMovement({ id: "m-older", code: 60, dateTime: "2023-05-02" });
    const alert = sampleAlert({
      newMovements: [],
      lateMovements: [
        { instance: "G1", movement: late },
        { instance: "G2", movement: older },
      ],
      changeKinds: ["late_movements"],
    });

    const event = movementEvent(alert, { id: ID });

    if (event.type !== "case.movement") throw new Error(event.type);
    expect(event.data.movements).toEqual([]);
    // Oldest first. 17/01/2024 16:37 to 02/10/2025 14:55 (fetched, São Paulo 11:55): 623 whole days.
    expect(event.data.lateMovements).toEqual([
      expect.objectContaining({ instance: "G2", code: 60, dateTime: "2023-05-02", late: true }),
      {
        instance: "G1",
        code: 92,
        name: "Publicação",
        title: "Publicação",
        dateTime: "2024-01-17T16:37:19",
        complements: [],
        occurrence: 1,
        late: true,
        daysLate: 623,
      },
    ]);
    expect(event.data.lateMovementsOmitted).toBe(0);
    expect(event.data.changeKinds).toEqual(["late_movements"]);
  });

  it("carries each field change in its instance, before and after, values and words", () => {
    const alert = sampleAlert({
      newMovements: [],
      fieldChanges: [
        {
          instance: "G1",
          field: "class",
          before: { code: 7, name: "Procedimento Comum Cível" },
          after: { code: 156, name: "Cumprimento de sentença" },
        },
        { instance: "G2", field: "secrecyLevel", before: 0, after: 5 },
        {
          instance: "G1",
          field: "courtUnit",
          before: { code: 1, name: "1ª Vara Cível de Ceilândia", municipalityCode: 5300108 },
          after: { code: 2, name: "2ª Vara\u202e Cível", municipalityCode: 5300108 },
        },
      ],
      changeKinds: ["class_changed", "secrecy_changed", "court_unit_changed"],
    });

    const event = movementEvent(alert, { id: ID });

    if (event.type !== "case.movement") throw new Error(event.type);
    expect(event.data.fieldChanges).toEqual([
      {
        instance: "G1",
        field: "class",
        title: "Classe alterada no 1º grau (G1)",
        before: { code: 7, name: "Procedimento Comum Cível" },
        after: { code: 156, name: "Cumprimento de sentença" },
        beforeText: "Procedimento Comum Cível (código 7)",
        afterText: "Cumprimento de sentença (código 156)",
        note: null,
      },
      {
        instance: "G2",
        field: "secrecyLevel",
        title: "Nível de sigilo alterado no 2º grau (G2)",
        before: 0,
        after: 5,
        beforeText: "0 (público)",
        afterText: "5 (sigilo absoluto)",
        note: expect.stringContaining("sigilo absoluto"),
      },
      expect.objectContaining({
        instance: "G1",
        field: "courtUnit",
        // DataJud's extras (municipalityCode) stay out; hostile characters are cleaned.
        after: { code: 2, name: "2ª Vara Cível" },
        note: expect.stringContaining("outro órgão julgador"),
      }),
    ]);
  });

  it("is refused when the id is not an event id, since receivers key on it", () => {
    expect(() => movementEvent(sampleAlert(), { id: "not-an-id" })).toThrow();
  });
});

describe("publicationEvent", () => {
  it("gives the deadline dates as an estimate with the note that qualifies them", () => {
    const event = publicationEvent(samplePublication(), { id: ID, test: true });

    expect(event.type).toBe("publication.published");
    if (event.type !== "publication.published") return;
    expect(event.test).toBe(true);
    expect(event.data.deadline).toMatchObject({
      estimate: true,
      publishedOn: "2025-10-03",
      countingStartsOn: "2025-10-06",
    });
    expect(event.data.deadline.note).toContain("Lei 11.419/2006");
    expect(event.data.watched).toBe(true);
  });

  it("cuts a long text and says so", () => {
    const event = publicationEvent(samplePublication({ text: "palavra ".repeat(2000) }), {
      id: ID,
    });

    if (event.type !== "publication.published") throw new Error(event.type);
    expect(event.data.publication.text.length).toBeLessThanOrEqual(4000);
    expect(event.data.publication.textTruncated).toBe(true);
  });

  it("makes a cancellation its own type, with DJEN's reason", () => {
    const event = publicationEvent(
      samplePublication({
        notice: "cancelled",
        cancellation: { reason: "Publicado por engano", at: "2025-10-03 10:00" },
      }),
      { id: ID },
    );

    expect(event.type).toBe("publication.cancelled");
    if (event.type === "publication.cancelled") {
      expect(event.data.cancellation).toEqual({
        reason: "Publicado por engano",
        at: "2025-10-03 10:00",
      });
    }
  });
});

describe("a re-estimated publication", () => {
  // A closure learnt after the alert (the court shut on 06/10) moves the count a day on.
  const reestimated = samplePublication({
    notice: "re-estimated",
    countingStartsOn: "2025-10-07",
    lastDay: "2025-10-21",
    estimateRevision: 2,
    previous: {
      publishedOn: "2025-10-03",
      countingStartsOn: "2025-10-06",
      lastDay: "2025-10-20",
      session: null,
    },
  });

  it("is its own event type, with the dates the earlier event gave and the new estimate", () => {
    const event = publicationEvent(reestimated, { id: ID });

    expect(event.type).toBe("publication.reestimated");
    if (event.type !== "publication.reestimated") return;
    expect(event.data.previous).toEqual({
      publishedOn: "2025-10-03",
      countingStartsOn: "2025-10-06",
      lastDay: "2025-10-20",
      session: null,
    });
    expect(event.data.revision).toBe(2);
    expect(event.data.deadline).toMatchObject({
      estimate: true,
      countingStartsOn: "2025-10-07",
      lastDay: "2025-10-21",
    });
  });

  it("says previous: null when the notice holds no earlier dates", () => {
    const { previous: _, ...withoutPrevious } = reestimated;

    const event = publicationEvent(withoutPrevious, { id: ID });

    expect(event.type === "publication.reestimated" && event.data.previous).toBeNull();
  });

  it("is an urgent chat message saying what the dates were and what they are now", () => {
    const message = chatMessage(publicationEvent(reestimated, { id: ID }));

    expect(message.urgent).toBe(true);
    expect(message.title).toContain("Prazo reestimado");
    expect(message.lines).toContain(
      "Antes: publicada em 03/10/2025; prazo começa a contar em 06/10/2025; último dia 20/10/2025.",
    );
    expect(message.lines).toContain(
      "Agora: Estimativa: publicada em 03/10/2025; prazo começa a contar em 07/10/2025; último dia 21/10/2025. Confira no tribunal.",
    );
  });
});

describe("a party radar hit", () => {
  const radar = {
    party: "ACME Comércio Ltda.",
    partyKey: "cnpj:11222333000181",
    document: "CNPJ 11.222.333/0001-81",
    confidence: "confirmado" as const,
    reason: "o CNPJ 11.222.333/0001-81 consta do texto",
    recipient: "ACME COMERCIO LTDA",
    side: "P",
    watchCommand: "datajud-monitor watch 0713383-43.2025.8.07.0006 --label 'ACME (nova ação)'",
    later: false,
  };
  const hit = samplePublication({ watchedCase: null, outsideWatchlist: true, radar });

  it("is a party.match event with the party, how sure and why, and the publication's dates", () => {
    const event = publicationEvent(hit, { id: ID });

    expect(event.type).toBe("party.match");
    if (event.type !== "party.match") return;
    expect(event.data.party).toEqual({
      name: "ACME Comércio Ltda.",
      document: "CNPJ 11.222.333/0001-81",
      confidence: "confirmado",
      reason: "o CNPJ 11.222.333/0001-81 consta do texto",
      recipient: "ACME COMERCIO LTDA",
      side: "P",
      watchCommand: radar.watchCommand,
    });
    expect(event.data.watched).toBe(false);
    expect(event.data.deadline).toMatchObject({ estimate: true, publishedOn: "2025-10-03" });
    expect(WebhookEvent.safeParse(event).success).toBe(true);
  });

  it("is a chat message naming the party, the match and the command to watch the case", () => {
    const message = chatMessage(publicationEvent(hit, { id: ID }));

    expect(message.title).toContain("Possível nova ação contra ACME Comércio Ltda.");
    expect(message.lines).toContain("confirmado: o CNPJ 11.222.333/0001-81 consta do texto");
    expect(message.lines).toContain(`Para acompanhar: ${radar.watchCommand}`);
  });

  it("leaves a later item of the case a publication.published event", () => {
    const later = samplePublication({
      watchedCase: null,
      outsideWatchlist: true,
      radar: { ...radar, later: true },
    });

    expect(publicationEvent(later, { id: ID }).type).toBe("publication.published");
  });
});

describe("correctionEvent and operatorEvent", () => {
  it("says what a corrected movement was and what it is now", () => {
    const event = correctionEvent(sampleCorrection(), { id: ID });

    expect(WebhookEvent.parse(event).type).toBe("case.correction");
    if (event.type === "case.correction") {
      expect([event.data.was.dateTime, event.data.now.dateTime]).toEqual([
        "2025-11-05",
        "2025-11-06",
      ]);
      // No class told: the TPU's civil reading of 219.
      expect(event.data.now.title).toBe("Julgado procedente o pedido");
    }
  });

  it("tells a problem from its end", () => {
    const failing = operatorEvent(
      {
        type: "sweeps_failing",
        since: "2025-10-01T10:00:00.000Z",
        failedSweeps: 3,
        lastErrorKind: "timeout",
        lastError: "timed out",
      },
      { id: ID },
    );
    const over = operatorEvent(
      {
        type: "sweeps_recovered",
        since: "2025-10-01T10:00:00.000Z",
        recoveredAt: "2025-10-01T14:00:00.000Z",
      },
      { id: ID },
    );

    expect(failing.type === "operator.alert" && failing.data.problem).toBe(true);
    expect(over.type === "operator.alert" && over.data.problem).toBe(false);
    expect(over.timestamp).toBe("2025-10-01T14:00:00.000Z");
  });
});

const SOURCES = {
  dataJudUpdatedAt: "2026-11-28T23:30:00.000Z",
  djenAskedAt: "2026-12-06T10:02:00.000Z",
  dataJudLate: true,
};

describe("the sources field", () => {
  it("says how fresh each source was, DataJud's date as the court wrote it, on case and publication events", () => {
    const expected = {
      datajud: { updatedAt: "2026-11-28T23:30:00.000Z" },
      djen: { askedAt: "2026-12-06T10:02:00.000Z" },
      dataJudLate: true,
    };
    const movement = movementEvent(sampleAlert({ sources: SOURCES }), { id: ID });
    const publication = publicationEvent(samplePublication({ sources: SOURCES }), { id: ID });

    expect(movement.type === "case.movement" && movement.data.sources).toEqual(expected);
    expect(publication.type === "publication.published" && publication.data.sources).toEqual(
      expected,
    );
  });

  it("is absent from an event whose alert was queued before sources were kept", () => {
    const event = movementEvent(sampleAlert(), { id: ID });

    expect(event.data).not.toHaveProperty("sources");
  });
});

describe("publication.missing", () => {
  const warning = {
    type: "djen_gap" as const,
    caseNumber: "0713383-43.2025.8.07.0006",
    court: "tjdft",
    label: "Despejo",
    instance: "G1",
    movementName: "Disponibilização no Diário da Justiça Eletrônico",
    availableOn: "2026-12-02",
    djenAskedAt: "2026-12-06T10:02:00.000Z",
    urgent: true,
    foundAt: "2026-12-06T13:00:00.000Z",
    courtLink: null,
    sources: SOURCES,
  };

  it("is an event with the warning's sentence, the movement, its day and DJEN's last complete answer", () => {
    const event = publicationMissingEvent(warning, { id: ID });

    expect(event.type).toBe("publication.missing");
    expect(event.timestamp).toBe("2026-12-06T13:00:00.000Z");
    if (event.type !== "publication.missing") throw new Error("wrong type");
    expect(event.data).toMatchObject({
      case: { number: "0713383-43.2025.8.07.0006", court: "tjdft", label: "Despejo" },
      urgent: true,
      summary:
        "O DataJud registra uma intimação disponibilizada em 02/12/2026 que o DJEN não devolveu: confira no tribunal.",
      instance: "G1",
      availableOn: "2026-12-02",
      djenAskedAt: "2026-12-06T10:02:00.000Z",
      sources: { dataJudLate: true },
    });
  });

  it("is an urgent chat message with the warning and the DataJud movement", () => {
    const message = chatMessage(publicationMissingEvent(warning, { id: ID }));

    expect(message.urgent).toBe(true);
    expect(message.title).toBe("⚠ URGENTE · Intimação no DataJud sem publicação no DJEN: Despejo");
    expect(message.lines).toContain(
      "No DataJud (G1): Disponibilização no Diário da Justiça Eletrônico em 02/12/2026.",
    );
    expect(message.lines).toContain("DataJud atrasado neste processo.");
  });
});

describe("case.checked", () => {
  const checked: CaseChecked = {
    type: "case_checked",
    caseNumber: "0713383-43.2025.8.07.0006",
    court: "tjdft",
    label: "Despejo",
    day: "2026-12-06",
    outcome: "ok",
    datajud: { checkedAt: "2026-12-06T10:00:00.000Z", outcome: "unchanged", error: null },
    djen: {
      checkedAt: "2026-12-06T10:02:00.000Z",
      outcome: "failed",
      error: "DJEN answered 500\n",
    },
    instances: [
      { instance: "G1", updatedAt: "2026-11-28T23:30:00.000Z" },
      { instance: "G2", updatedAt: null },
    ],
    sources: { ...SOURCES, dataJudLate: false },
  };

  it("says the case was checked on the day, each source's check and the instances' freshness", () => {
    const event = caseCheckedEvent(checked, { id: ID });

    expect(event.type).toBe("case.checked");
    expect(event.timestamp).toBe("2026-12-06T10:00:00.000Z");
    if (event.type !== "case.checked") throw new Error("wrong type");
    expect(event.data).toMatchObject({
      day: "2026-12-06",
      outcome: "ok",
      datajud: { outcome: "unchanged", error: null },
      djen: { outcome: "failed", error: "DJEN answered 500" },
      instances: [
        { instance: "G1", updatedAt: "2026-11-28T23:30:00.000Z" },
        { instance: "G2", updatedAt: null },
      ],
      sources: { datajud: { updatedAt: "2026-11-28T23:30:00.000Z" }, dataJudLate: false },
    });
  });

  it("is a quiet chat line for an endpoint that asks for it, naming what failed", () => {
    const message = chatMessage(caseCheckedEvent(checked, { id: ID }));

    expect(message.urgent).toBe(false);
    expect(message.title).toBe("Verificado em 06/12/2026: Despejo");
    expect(message.lines).toEqual([
      "Processo 0713383-43.2025.8.07.0006 · TJDFT",
      "DataJud consultado; atualizado em 28/11/2026.",
      "DJEN falhou: DJEN answered 500.",
    ]);
  });
});
