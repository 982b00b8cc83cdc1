import { describe, expect, it } from "vitest";
import { addressProblem, isEmailAddress, normalizeEmailAddress } from "../../src/email-address.js";

describe("normalizeEmailAddress", () => {
  it("lower-cases the domain only and trims", () => {
    expect(normalizeEmailAddress("  Ana.Silva@Example.COM.br ")).toBe("Ana.Silva@example.com.br");
  });

  it("rejects addresses without a dotted domain, with names or with two @", () => {
    for (const bad of [
      "ana@example",
      "ana",
      "Ana <ana@x.com>",
      "a@b@c.com",
      "a..b@x.com",
      "a@-x.com",
      "a@x.com, b@y.com",
      "a\\b@x.com",
      "a\u0000b@x.com",
      "ana@x.com\r\nBcc: eve@y.com",
    ]) {
      expect(normalizeEmailAddress(bad)).toBeNull();
    }
  });
});

describe("isEmailAddress and addressProblem", () => {
  it("is the same rule, and says what is wrong with what it refuses", () => {
    expect(isEmailAddress("ti@example.com")).toBe(true);
    expect(isEmailAddress("ti@localhost")).toBe(false);
    expect(addressProblem("Ana <ana@x.com>")).toContain("without a name or <>");
    expect(addressProblem("a@x.com; b@y.com")).toContain("one address per list item");
  });
});
