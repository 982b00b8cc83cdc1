import { describe, expect, it } from "vitest";
import {
  correctionEvent,
  movementEvent,
  operatorEvent,
  publicationEvent,
} from "../../../../src/notify/render/build-event.js";
import { chatDigest, chatMessage } from "../../../../src/notify/render/chat-message.js";
import { renderSlack } from "../../../../src/notify/render/slack-message.js";
import { renderTelegram } from "../../../../src/notify/render/telegram-message.js";
import { sampleAlert, sampleCorrection } from "./sample-alert.js";
import { samplePublication } from "./sample-publication.js";

const id = (n: number): string => `evt_${n.toString(16).padStart(32, "0")}`;

describe("chatMessage", () => {
  it("says what moved, the case, and links to the court", () => {
    const message = chatMessage(movementEvent(sampleAlert(), { id: id(1) }));

    expect(message.title).toBe("Movimentação nova: Silva x Souza (despejo)");
    expect(message.lines[0]).toBe("Processo 0713383-43.2025.8.07.0006 · TJDFT");
    expect(message.lines[1]).toContain("Procedência");
    expect(message.link?.url).toMatch(/^https:\/\//);
  });

  it("says a change of the case's own data in words when no movement came", () => {
    const alert = sampleAlert({
      newMovements: [],
      changeKinds: ["class_changed", "secrecy_changed"],
    });

    const message = chatMessage(movementEvent(alert, { id: id(4) }));

    expect(message.lines).toContain("Mudança: classe alterada, nível de sigilo alterado");
  });

  it("marks an urgent publication and gives the deadline as an estimate", () => {
    const message = chatMessage(publicationEvent(samplePublication(), { id: id(2), test: true }));

    expect(message.urgent).toBe(true);
    expect(message.title).toBe("[TESTE] ⚠ URGENTE · Intimação no DJEN: Silva x Souza (despejo)");
    expect(message.lines).toContain(
      "Estimativa: publicada em 03/10/2025; prazo começa a contar em 06/10/2025. Confira no tribunal.",
    );
  });

  it("says a cancelled publication's dates no longer hold, and is never urgent", () => {
    const message = chatMessage(
      publicationEvent(
        samplePublication({
          notice: "cancelled",
          cancellation: { reason: "Publicado por engano", at: "2025-10-03 10:00" },
        }),
        { id: id(5) },
      ),
    );

    expect(message.urgent).toBe(false);
    expect(message.title).toBe("Publicação cancelada: Silva x Souza (despejo)");
    expect(message.lines.slice(1, 3)).toEqual([
      "Cancelada no DJEN. Motivo: Publicado por engano.",
      "As datas do aviso anterior não valem.",
    ]);
    expect(message.link?.label).toBe("Ler a publicação completa");
  });

  it("shows a corrected movement as it was and as it is now, linking to the court", () => {
    const message = chatMessage(correctionEvent(sampleCorrection(), { id: id(6) }));

    expect(message.title).toBe("⚠ URGENTE · Correção: 0713383-43.2025.8.07.0006");
    expect(message.lines[1]).toBe("Publicação com nova data: 05/11 → 06/11");
    expect(message.lines[2]).toMatch(/^Antes: 05\/11\/2025 · /);
    expect(message.lines[3]).toMatch(/^Agora: 06\/11\/2025 · /);
    expect(message.link).toEqual({
      label: "Abrir no tribunal",
      url: expect.stringMatching(/^https:\/\//),
    });
  });

  it("never shows an operator alert as urgent court news", () => {
    const message = chatMessage(
      operatorEvent(
        {
          type: "auth_rejected",
          since: "2025-10-01T10:00:00.000Z",
          lastError: "401",
          affectedCases: 3,
        },
        { id: id(3) },
      ),
    );

    expect(message.urgent).toBe(false);
    expect(message.title).toMatch(/^Monitor: /);
  });
});

describe("chatDigest", () => {
  it("lists ten alerts, counts the rest, and is urgent when one of them is", () => {
    const events = Array.from({ length: 12 }, (_, i) =>
      i === 5
        ? publicationEvent(samplePublication(), { id: id(i) })
        : movementEvent(sampleAlert(), { id: id(i) }),
    );

    const digest = chatDigest(events);

    expect(digest.title).toBe("⚠ URGENTE · Resumo do monitor: 12 alertas");
    expect(digest.lines).toHaveLength(11);
    expect(digest.lines[10]).toBe("+2 alertas: veja o e-mail ou monitor status.");
    expect(digest.urgent).toBe(true);
  });
});

describe("a digest's links", () => {
  it("are ours, one per alert, each written as its platform's link", () => {
    const digest = chatDigest([
      movementEvent(sampleAlert(), { id: id(20) }),
      publicationEvent(samplePublication(), { id: id(21) }),
    ]);

    const slack = renderSlack(digest).text.split("\n");
    const telegram = renderTelegram(digest, "1").text.split("\n");

    expect(slack[1]).toMatch(/^Movimentação nova: .* · <https:\/\/pje-[^|>]+\|Abrir no tribunal>$/);
    expect(slack[2]).toMatch(
      / · <https:\/\/comunica\.pje\.jus\.br\/[^|>]+\|Ler a publicação completa>$/,
    );
    expect(telegram[1]).toMatch(/ · <a href="https:\/\/pje-[^"]+">Abrir no tribunal<\/a>$/);
  });
});
