import { describe, expect, it } from "vitest";
import { escalatedEvent } from "../../../../src/notify/render/build-event.js";
import { chatMessage } from "../../../../src/notify/render/chat-message.js";
import type { EscalationNotice } from "../../../../src/notify/render/escalation.js";
import { sampleAlert } from "./sample-alert.js";

/*
 * An escalation's chat message says since when the alert exists, never that it was sent when it
 * was only queued: an alert held for its watcher's 18:00 digest was queued at 10:00 and went out
 * at 18:00 (store/escalations.ts alertTiming), and the event carries only the queued instant.
 */

const HELD: EscalationNotice = {
  notice: "alert.escalated",
  alertKey: "alert:1:2026-11-27T13:00:00.000Z:tjdft",
  subject: "[datajud] ⚠ URGENTE Silva x Souza (despejo): decidido",
  queuedAt: "2026-11-27T13:00:00.000Z",
  firstSentAt: "2026-11-27T21:00:00.000Z",
  escalatedAt: "2026-11-30T16:00:00.000Z",
  step: 2,
  steps: 2,
  to: "equipe",
  firstTo: ["ana@firma.com.br"],
  earlierSteps: ["socia@firma.com.br"],
  lastDay: null,
  dueBy: "within",
  case: { number: "0713383-43.2025.8.07.0006", court: "tjdft", label: "Silva x Souza" },
  original: { type: "movement", content: sampleAlert({ urgent: true }) },
};

describe("an escalation's chat message", () => {
  it("dates the alert without claiming it was sent at its queued instant", () => {
    const chat = chatMessage(escalatedEvent(HELD, { id: `evt_${"b".repeat(32)}` }));
    expect(chat.lines.join("\n")).not.toContain("Enviado em 27/11/2026 10:00");
    // The address is made inert for the chat (no autolink), as every text of ours there.
    expect(chat.lines[1]).toMatch(
      /^Alerta urgente de 27\/11\/2026 10:00 para ana\S+firma\S+; ninguém confirmou ciência\.$/u,
    );
  });
});
