import { describe, expect, it } from "vitest";
import { DataJudError } from "../../../src/datajud/errors.js";
import { nextOffset, sinceInstant } from "../../../src/mcp/history-view.js";

describe("since arguments", () => {
  it("a day starts at midnight in São Paulo", () => {
    expect(sinceInstant("2026-03-02")).toBe("2026-03-02T03:00:00.000Z");
  });

  it("a date-time without a zone is São Paulo time; with one it is that instant", () => {
    expect(sinceInstant("2026-03-02T09:30")).toBe("2026-03-02T12:30:00.000Z");
    expect(sinceInstant("2026-03-02T09:30:00Z")).toBe("2026-03-02T09:30:00.000Z");
    expect(sinceInstant("2026-03-02T09:30:00+01:00")).toBe("2026-03-02T08:30:00.000Z");
  });

  it("anything else is invalid input saying what to write", () => {
    const attempt = (): string => sinceInstant("last week");

    expect(attempt).toThrow(DataJudError);
    expect(attempt).toThrow(/YYYY-MM-DD/);
  });
});

describe("nextOffset", () => {
  it("points past the page while something is left, null at the end", () => {
    expect(nextOffset(0, 100, 590)).toBe(100);
    expect(nextOffset(500, 100, 590)).toBeNull();
    expect(nextOffset(0, 10, 10)).toBeNull();
    expect(nextOffset(20, 10, 5)).toBeNull();
  });
});
