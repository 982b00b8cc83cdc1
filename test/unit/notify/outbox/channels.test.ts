import { describe, expect, it } from "vitest";
import {
  CHANNELS,
  chatBody,
  ENDPOINT_CHANNELS,
  senderOf,
} from "../../../../src/notify/outbox/channels.js";
import { movementEvent } from "../../../../src/notify/render/build-event.js";
import { chatMessage } from "../../../../src/notify/render/chat-message.js";
import { renderSlack } from "../../../../src/notify/render/slack-message.js";
import { renderTeams } from "../../../../src/notify/render/teams-message.js";
import { renderTelegram } from "../../../../src/notify/render/telegram-message.js";
import { renderWhatsApp } from "../../../../src/notify/render/whatsapp-message.js";
import { CHANNELS as TRANSPORT_CHANNELS } from "../../../../src/notify/transport/endpoint.js";
import { sampleAlert } from "../render/sample-alert.js";

describe("the channel table", () => {
  it("drains e-mail first, then every channel an Endpoint can be, each by its sender", () => {
    expect(CHANNELS).toEqual(["email", "webhook", "slack", "teams", "telegram", "whatsapp"]);
    expect(CHANNELS.map(senderOf)).toEqual([
      "mail",
      "endpoint",
      "endpoint",
      "endpoint",
      "endpoint",
      "endpoint",
    ]);
    expect([...ENDPOINT_CHANNELS].sort()).toEqual([...TRANSPORT_CHANNELS].sort());
  });

  it("formats a chat message as its channel's renderer does", () => {
    const message = chatMessage(movementEvent(sampleAlert(), { id: `evt_${"0".repeat(32)}` }));
    expect(chatBody({ name: "a", channel: "slack", url: "https://x" }, message)).toEqual(
      renderSlack(message),
    );
    expect(chatBody({ name: "b", channel: "teams", url: "https://x" }, message)).toEqual(
      renderTeams(message),
    );
    expect(
      chatBody(
        { name: "c", channel: "telegram", apiBase: "https://x", token: "t", chatId: "-100" },
        message,
      ),
    ).toEqual(renderTelegram(message, "-100"));
    const template = { name: "alerta_processo", language: "pt_BR" };
    expect(
      chatBody(
        {
          name: "d",
          channel: "whatsapp",
          apiBase: "https://x",
          token: "t",
          phoneNumberId: "1",
          to: "5511987654321",
          template,
        },
        message,
      ),
    ).toEqual(renderWhatsApp(message, "5511987654321", template));
  });
});
