import { describe, expect, it } from "vitest";
import { describePath } from "../../../src/yaml/yaml-source.js";

describe("describePath", () => {
  it("writes keys with dots and list indexes in brackets", () => {
    expect(describePath(["cases", 2, "notify", 0])).toBe("cases[2].notify[0]");
    expect(describePath([])).toBe("the file");
  });
});
