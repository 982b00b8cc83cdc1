import { describe, expect, it } from "vitest";
import { inertChatText } from "../../../../src/notify/render/chat-text.js";
import { autoDetected } from "../../../fakes/fake-chat.js";

describe("inertChatText", () => {
  it("leaves nothing a chat platform would link, mention or tag, and reads the same", () => {
    const court =
      "Acesse https://evil.example/x ou www.golpe.com.br, golpe.com, http://10.0.0.1/a; " +
      "fale com @fulano ou cartorio@golpe.com; #urgente $USD /start";

    const inert = inertChatText(court);

    expect(inert).toBe(
      "Acesse https:∕∕evil․example/x ou www․golpe․com․br, golpe․com, http:∕∕10․0․0․1/a; " +
        "fale com ＠fulano ou cartorio＠golpe․com; ＃urgente ＄USD ∕start",
    );
    expect(autoDetected(court)).toEqual(
      expect.arrayContaining([
        "https://evil.example/x",
        "www.golpe.com.br",
        "golpe.com",
        "10.0.0.1",
        "@fulano",
        "@golpe.com",
        "#urgente",
        "$USD",
        "/start",
      ]),
    );
    expect(autoDetected(inert)).toEqual([]);
  });

  it("keeps CNJ numbers, amounts, dates, articles and e/ou as they are, so they can be copied", () => {
    const text =
      "Processo 0713383-43.2025.8.07.0006: R$ 1.234,56 em 02/10/2025, art. 5º, fls.10, e/ou Lei 8.666/93.";

    expect(inertChatText(text)).toBe(text);
  });
});
