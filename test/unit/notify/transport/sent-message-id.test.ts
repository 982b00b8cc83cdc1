import { describe, expect, it } from "vitest";
import { sentMessageId } from "../../../../src/notify/transport/sent-message-id.js";

/*
 * The id a chat platform gave our message, read from its answer (what a reply "ciente" names):
 * Telegram's sendMessage result, keyed by chat since message ids are per chat; WhatsApp's wamid.
 */

describe("sentMessageId", () => {
  it("reads Telegram's sent Message as '<chat id>:<message id>'", () => {
    const answer = JSON.stringify({
      ok: true,
      result: { message_id: 731, date: 1772456400, chat: { id: -1001234567890, type: "group" } },
    });

    expect(sentMessageId("telegram", answer)).toBe("-1001234567890:731");
  });

  it("reads WhatsApp's first message id", () => {
    const answer = JSON.stringify({
      messaging_product: "whatsapp",
      contacts: [{ input: "5561987654321", wa_id: "556187654321" }],
      messages: [{ id: "wamid.HBgMNTU2MTg3NjU0MzIxFQIAERgSQ0E=" }],
    });

    expect(sentMessageId("whatsapp", answer)).toBe("wamid.HBgMNTU2MTg3NjU0MzIxFQIAERgSQ0E=");
  });

  it("is null for an answer without the id, one cut short, or another channel", () => {
    expect(sentMessageId("telegram", '{"ok":true}')).toBeNull();
    expect(
      sentMessageId("telegram", '{"ok":false,"result":{"message_id":1,"chat":{"id":1}}}'),
    ).toBeNull();
    expect(sentMessageId("whatsapp", '{"messages":[{"id":"wamid.abc"')).toBeNull();
    expect(sentMessageId("whatsapp", '{"messages":[]}')).toBeNull();
    expect(sentMessageId("slack", "ok")).toBeNull();
  });
});
