import { describe, expect, it } from "vitest";
import { formatPositionedError } from "../../../src/yaml/positioned-error.js";

describe("formatPositionedError", () => {
  it("prints file:line:col message", () => {
    const error = { file: "watchlist.yaml", line: 12, col: 5, message: "unknown key" };

    const text = formatPositionedError(error);

    expect(text).toBe("watchlist.yaml:12:5 unknown key");
  });
});
