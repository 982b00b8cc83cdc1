import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { cutText, TEXT_MAX } from "../../../src/datajud/cut-text.js";

describe("cutText", () => {
  it("leaves text up to the limit alone", () => {
    const text = "a".repeat(TEXT_MAX);

    expect(cutText(text)).toBe(text);
  });

  it("cuts longer text with a visible marker naming the full length and its hash", () => {
    const text = `${"Petição ".repeat(2000)}fim`;
    const sha = createHash("sha256").update(text).digest("hex");

    const cut = cutText(text);

    expect(cut.length).toBeLessThanOrEqual(TEXT_MAX);
    expect(cut.startsWith("Petição Petição")).toBe(true);
    expect(cut).toMatch(
      new RegExp(
        `\\[texto cortado: ${text.length.toLocaleString("pt-BR")} caracteres; sha256 ${sha.slice(0, 16)}\\]$`,
      ),
    );
  });

  it("tells two long texts apart that share their beginning", () => {
    const head = "x".repeat(TEXT_MAX * 2);

    expect(cutText(`${head}A`)).not.toBe(cutText(`${head}B`));
  });
});
