import { describe, expect, it } from "vitest";
import {
  computeCheckDigits,
  formatCnjNumber,
  parseCnjNumber,
} from "../../../src/datajud/cnj-number.js";
import { isDataJudError } from "../../../src/datajud/errors.js";

/** Numbers that appear in DataJud's own documentation examples and in our recorded fixtures. */
const VALID = [
  "0713383-43.2025.8.07.0006",
  "1035289-48.2022.8.26.0602",
  "0013075-90.2000.4.01.3800",
  "0022783-22.2017.8.08.0024",
  "0000832-35.2018.4.01.3202",
  "0722391-40.2017.8.07.0001",
  "0007303-97.2013.8.07.0015",
];

function digitsOf(formatted: string): string {
  return formatted.replace(/\D/g, "");
}

/** Independent check: a valid number, read as an integer with DD moved to the end, is 1 mod 97. */
function mod97IsOne(digits: string): boolean {
  const rearranged = `${digits.slice(0, 7)}${digits.slice(9)}${digits.slice(7, 9)}`;
  return BigInt(rearranged) % 97n === 1n;
}

describe("computeCheckDigits", () => {
  it.each(VALID)("reproduces the check digits of %s", (formatted) => {
    const d = digitsOf(formatted);

    const check = computeCheckDigits(
      d.slice(0, 7),
      d.slice(9, 13),
      d[13] ?? "",
      d.slice(14, 16),
      d.slice(16),
    );

    expect(check).toBe(d.slice(7, 9));
  });

  it("produces numbers that satisfy ISO 7064 mod 97-10 across segments and courts", () => {
    const samples = [
      ["0000001", "2024", "3", "00", "0000"],
      ["1234567", "2019", "4", "06", "3800"],
      ["0000000", "2000", "5", "24", "0001"],
      ["9999999", "2031", "6", "07", "0042"],
      ["0500123", "2015", "8", "26", "0100"],
      ["0000010", "2010", "9", "21", "0001"],
    ] as const;

    const built = samples.map(
      ([n, a, j, tr, o]) => `${n}${computeCheckDigits(n, a, j, tr, o)}${a}${j}${tr}${o}`,
    );

    for (const digits of built) {
      expect(digits).toHaveLength(20);
      expect(mod97IsOne(digits)).toBe(true);
      expect(parseCnjNumber(digits).ok).toBe(true);
    }
  });

  it("always returns two digits, padding with zero", () => {
    const found: string[] = [];

    for (let i = 0; i < 400 && found.length === 0; i++) {
      const sequence = String(i).padStart(7, "0");
      const check = computeCheckDigits(sequence, "2024", "8", "26", "0001");
      if (check.startsWith("0")) found.push(check);
    }

    expect(found[0]).toMatch(/^0\d$/);
  });

  it("rejects parts of the wrong length", () => {
    const call = (): string => computeCheckDigits("123", "2024", "8", "26", "0001");

    expect(call).toThrow(/sequence must be 7 digit/);
  });
});

describe("parseCnjNumber", () => {
  it("splits a valid formatted number into its parts", () => {
    const result = parseCnjNumber("0713383-43.2025.8.07.0006");

    expect(result).toEqual({
      ok: true,
      value: {
        digits: "07133834320258070006",
        formatted: "0713383-43.2025.8.07.0006",
        sequence: "0713383",
        checkDigits: "43",
        year: "2025",
        segment: "8",
        tribunal: "07",
        origin: "0006",
      },
    });
  });

  it.each(VALID)(
    "accepts %s formatted and as 20 bare digits, with the same result",
    (formatted) => {
      const fromFormatted = parseCnjNumber(formatted);
      const fromDigits = parseCnjNumber(digitsOf(formatted));

      expect(fromFormatted.ok).toBe(true);
      expect(fromDigits).toEqual(fromFormatted);
    },
  );

  it("trims whitespace and tolerates odd separators", () => {
    const inputs = [
      "  0713383-43.2025.8.07.0006\n",
      "0713383 43 2025 8 07 0006",
      "0713383.43.2025.8.07.0006",
      "0713383-43-2025-8-07-0006",
      "07133-83-43.2025.807.0006",
      "0713383–43.2025.8.07.0006",
      "0713383\u00a043.2025.8.07.0006",
    ];

    const results = inputs.map((input) => parseCnjNumber(input));

    for (const result of results) {
      expect(result.ok && result.value.formatted).toBe("0713383-43.2025.8.07.0006");
    }
  });

  it("names the wrong and the right check digits, for every wrong pair", () => {
    const base = "0713383-??.2025.8.07.0006";
    const wrong = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, "0")).filter(
      (dd) => dd !== "43",
    );

    const results = wrong.map((dd) => ({ dd, result: parseCnjNumber(base.replace("??", dd)) }));

    expect(results).toHaveLength(99);
    for (const { dd, result } of results) {
      expect(result).toEqual({
        ok: false,
        error: `"${base.replace("??", dd)}": check digits are ${dd} but should be 43; check the number against the court's record`,
      });
    }
  });

  it("catches any single mistyped digit outside the check digits", () => {
    const digits = digitsOf("1035289-48.2022.8.26.0602");
    const typos: string[] = [];
    for (let pos = 0; pos < 20; pos++) {
      if (pos === 7 || pos === 8) continue;
      const original = Number(digits[pos]);
      const replaced = (original + 1) % 10;
      typos.push(`${digits.slice(0, pos)}${replaced}${digits.slice(pos + 1)}`);
    }

    const accepted = typos.filter((t) => parseCnjNumber(t).ok);

    expect(typos).toHaveLength(18);
    expect(accepted).toEqual([]);
  });

  it("says how many digits a short or long number has", () => {
    const nineteen = "0713383-43.2025.8.07.000";
    const twentyOne = "0713383-43.2025.8.07.00061";

    const results = [parseCnjNumber("12345"), parseCnjNumber(nineteen), parseCnjNumber(twentyOne)];

    expect(results).toEqual([
      {
        ok: false,
        error: `"12345": a CNJ number has 20 digits (NNNNNNN-DD.AAAA.J.TR.OOOO), this has 5`,
      },
      {
        ok: false,
        error: `"${nineteen}": a CNJ number has 20 digits (NNNNNNN-DD.AAAA.J.TR.OOOO), this has 19`,
      },
      {
        ok: false,
        error: `"${twentyOne}": a CNJ number has 20 digits (NNNNNNN-DD.AAAA.J.TR.OOOO), this has 21`,
      },
    ]);
  });

  it("refuses letters, including accented ones, before counting digits", () => {
    const inputs = [
      "0713383-43.2025.8.07.000O",
      "Processo 0713383-43.2025.8.07.0006",
      "071338é-43.2025.8.07.0006",
    ];

    const results = inputs.map((input) => parseCnjNumber(input));

    for (const result of results) {
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toContain("letters are not allowed");
    }
  });

  it("reports a stray symbol", () => {
    const result = parseCnjNumber("0713383-43.2025.8.07.0006#");

    expect(result).toEqual({
      ok: false,
      error: `"0713383-43.2025.8.07.0006#": unexpected character "#"; a CNJ number has only digits, dots and dashes (NNNNNNN-DD.AAAA.J.TR.OOOO)`,
    });
  });

  it("rejects an empty input", () => {
    const result = parseCnjNumber("   ");

    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain("NNNNNNN-DD.AAAA.J.TR.OOOO");
  });

  it("rejects segment 0 even when the check digits fit", () => {
    const dd = computeCheckDigits("0000123", "2020", "0", "01", "0001");

    const result = parseCnjNumber(`0000123-${dd}.2020.0.01.0001`);

    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain("justice segment (J) 0 does not exist");
  });

  it("rejects years before 1900 even when the check digits fit", () => {
    const dd = computeCheckDigits("0000123", "1899", "8", "26", "0001");

    const result = parseCnjNumber(`0000123-${dd}.1899.8.26.0001`);

    expect(result).toEqual({
      ok: false,
      error: `"0000123-${dd}.1899.8.26.0001": year 1899 is not plausible; check the number`,
    });
  });
});

describe("formatCnjNumber", () => {
  it("inserts the separators without checking the check digits", () => {
    const formatted = formatCnjNumber("07133834420258070006");

    expect(formatted).toBe("0713383-44.2025.8.07.0006");
  });

  it("throws invalid_input unless given exactly 20 digits", () => {
    const attempts = ["0713383442025807000", "071338344202580700066", "0713383-44.2025.8.07."];

    const errors = attempts.map((a) => {
      try {
        formatCnjNumber(a);
        return null;
      } catch (error) {
        return error;
      }
    });

    for (const error of errors) {
      expect(isDataJudError(error) && error.kind).toBe("invalid_input");
    }
  });
});
