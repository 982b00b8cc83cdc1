import { describe, expect, it } from "vitest";
import { decodeUtf8 } from "../../../src/yaml/utf8.js";

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
