import { describe, expect, it } from "vitest";
import { alertLastDay } from "../../../src/monitor/report/escalation-dates.js";
import { escalatedEvent } from "../../../src/notify/render/build-event.js";
import { chatMessage } from "../../../src/notify/render/chat-message.js";
import {
  type EscalationNotice,
  escalationLines,
  escalationSubject,
  withEscalation,
} from "../../../src/notify/render/escalation.js";
import { sampleAlert } from "../notify/render/sample-alert.js";
import { samplePublication } from "../notify/render/sample-publication.js";

const period = (name: string, lastDay: string | null) => ({
  name,
  days: 15,
  counting: "business" as const,
  article: "CPC art. 1.003 § 5º",
  from: "publicação",
  countingStartsOn: null,
  lastDay,
  note: null,
});

function actWith(periods: ReturnType<typeof period>[]) {
  return {
    movementId: "m1",
    instance: "G1",
    key: "judgment",
    act: "sentença",
    title: "Julgado procedente o pedido",
    actOn: "2026-11-20",
    publication: null,
    periods,
    skippedDays: [],
    notes: [],
    considered: null,
    estimate: true as const,
  };
}

describe("the last day an alert names", () => {
  it("is the earliest of its acts' periods and hearings, from the day it was queued", () => {
    const content = sampleAlert({
      acts: [
        actWith([period("Apelação", "2026-12-17"), period("Embargos de declaração", "2026-12-04")]),
      ],
      newMovements: [
        {
          ...sampleAlert().newMovements[0],
          instance: "G1",
          movement: sampleAlert().newMovements[0]?.movement ?? ({} as never),
          // A hearing already held is no deadline ahead.
          hearing: { date: "2026-11-10", time: "14:00", source: "datajud", quote: "audiência" },
        },
      ],
    });
    expect(alertLastDay({ type: "movement", content }, "2026-11-27")).toEqual({
      date: "2026-12-04",
      kind: "period",
      name: "Embargos de declaração",
    });
    // Queued after 04/12: the apelação's 17/12 is what is left.
    expect(alertLastDay({ type: "movement", content }, "2026-12-05")?.date).toBe("2026-12-17");
    expect(alertLastDay({ type: "movement", content: sampleAlert() }, "2026-11-27")).toBeNull();
  });

  it("reads a publication's last day and its hearing", () => {
    const content = samplePublication({
      lastDay: "2026-12-10",
      session: {
        date: "2026-12-03",
        hearing: true,
        time: "14:00",
        endDate: null,
        virtual: false,
        quote: "audiência em 03/12/2026",
      },
    });
    expect(alertLastDay({ type: "publication", content }, "2026-11-27")).toEqual({
      date: "2026-12-03",
      kind: "hearing",
      name: null,
    });
  });
});

const NOTICE: EscalationNotice = {
  notice: "alert.escalated",
  alertKey: "alert:1:2026-11-27T19:00:00.000Z:tjdft",
  subject: "[datajud] ⚠ URGENTE Silva x Souza (despejo): decidido",
  queuedAt: "2026-11-27T19:00:00.000Z",
  firstSentAt: "2026-11-27T19:00:00.000Z",
  escalatedAt: "2026-11-30T14:00:00.000Z",
  step: 2,
  steps: 2,
  to: "equipe",
  firstTo: ["ana@firma.com.br", "whatsapp +5561999990000"],
  earlierSteps: ["socia@firma.com.br"],
  lastDay: { date: "2026-12-04", kind: "period", name: "Embargos de declaração" },
  dueBy: "before",
  case: { number: "0713383-43.2025.8.07.0006", court: "tjdft", label: "<b>Silva</b>" },
  original: { type: "movement", content: sampleAlert({ urgent: true }) },
};

describe("the words of an escalation", () => {
  it("says it is an escalation, who got it first and since when, and the last day", () => {
    expect(escalationSubject(NOTICE)).toBe(
      "Escalonamento: sem ciência — [datajud] ⚠ URGENTE Silva x Souza (despejo): decidido",
    );
    expect(escalationLines(NOTICE, "America/Sao_Paulo")).toEqual([
      "Escalonamento (passo 2 de 2): este alerta urgente foi enviado em 27/11/2026 16:00 a ana@firma.com.br, whatsapp +5561999990000 e ninguém confirmou ciência desde então.",
      "Escalonado antes a: socia@firma.com.br.",
      "Último dia do prazo (Embargos de declaração): 04/12/2026, estimativa (a regra e o calendário estão no alerta abaixo).",
      "Confirme a ciência pelo link deste e-mail: a confirmação de qualquer pessoa encerra o escalonamento.",
    ]);
    // Held for a digest's hour, or every copy failed (given up): nobody has it, and the words
    // do not pretend to know which.
    expect(escalationLines({ ...NOTICE, firstSentAt: null }, "America/Sao_Paulo")[0]).toBe(
      "Escalonamento (passo 2 de 2): este alerta urgente, destinado a ana@firma.com.br, whatsapp +5561999990000, ainda não foi enviado (na fila desde 27/11/2026 16:00: aguarda um resumo ou o fim do horário de silêncio, ou o envio falhou) e ninguém confirmou ciência.",
    );
    const wrapped = withEscalation(
      { subject: "s", text: "o alerta", html: '<body><div style="x">alerta</div></body>' },
      NOTICE,
      "America/Sao_Paulo",
    );
    expect(wrapped.text.endsWith("---\n\no alerta")).toBe(true);
  });

  it("is an alert.escalated event and a chat message with the case escaped by the chat", () => {
    const event = escalatedEvent(NOTICE, { id: `evt_${"a".repeat(32)}`, test: false });
    expect(event).toMatchObject({
      type: "alert.escalated",
      timestamp: "2026-11-30T14:00:00.000Z",
      data: {
        step: 2,
        steps: 2,
        to: "equipe",
        lastDay: "2026-12-04",
        lastDayKind: "period",
        dueBy: "before",
        alert: { queuedAt: "2026-11-27T19:00:00.000Z" },
      },
    });
    const chat = chatMessage(event);
    expect(chat.urgent).toBe(true);
    expect(chat.title).toContain("Sem ciência");
    expect(chat.lines).toContain(
      "Último dia do prazo: 04/12/2026 (estimativa; confira nos autos).",
    );
  });
});
