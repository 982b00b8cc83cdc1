import { describe, expect, it } from "vitest";
import { formatPositionedError } from "../../../src/yaml/positioned-error.js";
import { decodeUtf8, describePath, suggestName } from "../../../src/yaml/yaml-source.js";

describe("formatPositionedError", () => {
  it("prints file:line:col message", () => {
    const error = { file: "watchlist.yaml", line: 12, col: 5, message: "unknown key" };

    const text = formatPositionedError(error);

    expect(text).toBe("watchlist.yaml:12:5 unknown key");
  });
});

describe("suggestName", () => {
  it("suggests a key one typo away", () => {
    const known = ["number", "label", "court", "notify"];

    expect(suggestName("numbr", known)).toBe("number");
    expect(suggestName("notfy", known)).toBe("notify");
  });

  it("counts two swapped letters as one typo and prefers the swap on a tie", () => {
    const aliases = ["tjes", "tjsp", "tjse"];

    const suggestion = suggestName("tjps", aliases);

    expect(suggestion).toBe("tjsp");
  });

  it("maps snake_case and other casings onto the camelCase key", () => {
    const known = ["requestsPerMinute", "timeoutMs"];

    expect(suggestName("requests_per_minute", known)).toBe("requestsPerMinute");
    expect(suggestName("TIMEOUTMS", known)).toBe("timeoutMs");
  });

  it("suggests nothing for a name that is not close to any", () => {
    const known = ["number", "label", "court", "notify"];

    expect(suggestName("priority", known)).toBeUndefined();
  });
});

describe("decodeUtf8", () => {
  it("decodes valid UTF-8 and drops a byte-order mark", () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("ação: 1\n")]);

    const decoded = decodeUtf8(bytes, "f.yaml");

    expect(decoded).toEqual({ text: "ação: 1\n", error: null });
  });

  it("reports the line and column of the first byte that is not UTF-8", () => {
    // "ção" in UTF-8 before the bad byte: columns count characters, not bytes.
    const head = new TextEncoder().encode("a: 1\nção x");
    const bytes = new Uint8Array([...head, 0xe7, 0x41, 0x0a, 0xff]);

    const decoded = decodeUtf8(bytes, "f.yaml");

    expect(decoded.error).toEqual({
      file: "f.yaml",
      line: 2,
      col: 6,
      message: expect.stringContaining("byte 0xE7 is not UTF-8"),
    });
    expect(decoded.text.startsWith("a: 1\nção x")).toBe(true);
  });

  it("treats a multi-byte sequence cut off at the end as invalid", () => {
    const bytes = new Uint8Array([0x61, 0x62, 0xe2, 0x82]);

    const decoded = decodeUtf8(bytes, "f.yaml");

    expect(decoded.error).toMatchObject({ line: 1, col: 3 });
  });
});

describe("describePath", () => {
  it("writes keys with dots and list indexes in brackets", () => {
    expect(describePath(["cases", 2, "notify", 0])).toBe("cases[2].notify[0]");
    expect(describePath([])).toBe("the file");
  });
});
