import { createTransport } from "nodemailer";
import { describe, expect, it } from "vitest";
import { decodeHeaderWords, readEml } from "../../../src/demo/eml-text.js";

async function build(text: string, subject: string): Promise<string> {
  const mailer = createTransport({ streamTransport: true, buffer: true, newline: "windows" });
  const info = await mailer.sendMail({
    from: "monitor@example.com",
    to: "ana@example.com",
    subject,
    text,
    html: "<p>não é este</p>",
  });
  return Buffer.isBuffer(info.message) ? info.message.toString("utf8") : String(info.message);
}

describe("readEml", () => {
  it("returns the decoded text part and subject of a message nodemailer wrote", async () => {
    const text = `Processo 0708123-34.2024.8.07.0001 · TJDFT\n\n⚠ REQUER ATENÇÃO\n${"ação ".repeat(40)}\n`;
    const raw = await build(text, "[datajud] ⚠ Condomínio: decisão (3 movimentações novas)");

    const eml = readEml(raw);

    expect(eml.text).toBe(text);
    expect(eml.subject).toBe("[datajud] ⚠ Condomínio: decisão (3 movimentações novas)");
    expect(eml.to).toBe("ana@example.com");
  });

  it("reads plain ASCII and base64 parts, and says when there is no text part", () => {
    const ascii = readEml("Subject: Hi\r\nContent-Type: text/plain\r\n\r\nhello\r\n");
    const base64 = readEml(
      `Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n${Buffer.from("olá").toString("base64")}\r\n`,
    );
    const none = readEml("Content-Type: image/png\r\n\r\nxxxx");

    expect(ascii).toEqual({ subject: "Hi", to: null, text: "hello\n" });
    expect(base64.text).toBe("olá");
    expect(none.text).toBeNull();
  });

  it("decodes Q and B encoded words, joined across folded lines", () => {
    expect(decodeHeaderWords("=?UTF-8?Q?a=C3=A7=C3=A3o_nova?= =?UTF-8?B?w6k=?=")).toBe(
      "ação novaé",
    );
  });
});
