import { describe, expect, it } from "vitest";
import { deadlineMessage } from "../../../src/pacing/retry.js";

describe("deadlineMessage", () => {
  it("says how long, how many attempts, the wait that would cross the deadline and the last error", () => {
    const message = deadlineMessage(
      "DJEN",
      "case 0713383-43.2025.8.07.0006",
      120_000,
      3,
      { message: "DJEN answered HTTP 500" },
      45_200,
    );

    expect(message).toBe(
      "DJEN gave no complete answer for case 0713383-43.2025.8.07.0006 within 120 s (3 attempts); the next try would start 46 s from now, past the deadline; last error: DJEN answered HTTP 500",
    );
  });

  it("names one attempt, a fraction of a second, and nothing it does not know", () => {
    expect(deadlineMessage("DataJud", "api_publica_tjdft", 1_250, 1, undefined)).toBe(
      "DataJud gave no complete answer for api_publica_tjdft within 1.3 s (1 attempt)",
    );
  });
});
