import { describe, expect, it } from "vitest";
import { suggestName } from "../../src/text.js";

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
