import { describe, expect, it } from "vitest";
import {
  formatOab,
  oabDigits,
  oabQueryVariants,
  parseOabRegistration,
  sameRegistration,
} from "../../../src/djen/oab.js";

describe("parseOabRegistration", () => {
  it.each([
    ["123456/SP", "123456", "SP"],
    ["123.456/sp", "123456", "SP"],
    ["OAB/RJ 094.719", "94719", "RJ"],
    ["SP123456", "123456", "SP"],
    ["sp-123456", "123456", "SP"],
    ["123456 SP", "123456", "SP"],
    ["123456-A/PR", "123456", "PR"],
    ["  098765/df ", "98765", "DF"],
  ])("reads %j as %s/%s", (input, number, uf) => {
    const parsed = parseOabRegistration(input);

    expect(parsed).toEqual({ ok: true, value: { number, uf } });
  });

  it("names an unknown state and shows how to write a registration", () => {
    const parsed = parseOabRegistration("123456/XX");

    expect(parsed).toEqual({
      ok: false,
      error:
        '"123456/XX": XX is not a Brazilian state (UF); write it as number/UF, like "123456/SP"',
    });
  });

  it.each(["123456", "SP", "abc/SP", "", "12345678/SP", "000/SP"])("refuses %j", (input) => {
    const parsed = parseOabRegistration(input);

    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? "" : parsed.error).toMatch(/like "123456\/SP"/);
  });
});

describe("variants and comparison", () => {
  const registration = { number: "123456", uf: "SP" } as const;

  it("asks for the bare number and every suffix a court may have stored", () => {
    expect(oabQueryVariants(registration)).toEqual([
      "123456",
      "123456-O",
      "123456-A",
      "123456-N",
      "123456-B",
      "123456-S",
      "123456-E",
    ]);
    expect(formatOab(registration)).toBe("123456/SP");
  });

  it.each([
    ["123456", "123456"],
    ["0123456", "123456"],
    ["123456-O", "123456"],
    ["123.456A", "123456"],
    ["SP123456", "123456"],
    ["", null],
    ["ABC", null],
    ["000", null],
  ])("reads the digits of a stored %j", (stored, digits) => {
    expect(oabDigits(stored)).toBe(digits);
  });

  it("matches a lawyer by digits and UF, whatever the suffix or the name", () => {
    expect(sameRegistration(registration, { oabNumber: "123456-N", uf: "sp" })).toBe(true);
    expect(sameRegistration(registration, { oabNumber: "0123456", uf: "SP" })).toBe(true);
  });

  it("does not match another UF, another number or a missing UF", () => {
    expect(sameRegistration(registration, { oabNumber: "123456", uf: "RJ" })).toBe(false);
    expect(sameRegistration(registration, { oabNumber: "1234567", uf: "SP" })).toBe(false);
    expect(sameRegistration(registration, { oabNumber: "123456", uf: null })).toBe(false);
  });
});
