import { describe, expect, it } from "vitest";
import { DataJudError } from "../../../src/datajud/errors.js";
import { DjenError } from "../../../src/djen/errors.js";
import { UpstreamError } from "../../../src/pacing/upstream-error.js";

describe("UpstreamError: DataJud's and DJEN's failures, one shape", () => {
  it("decides retryable by each service's kinds unless told, and says so in JSON", () => {
    const datajud = new DataJudError("rate_limited", "429", { status: 429 });
    const djen = new DjenError("geo_blocked", "403", { status: 403 });
    const forced = new DjenError("server", "500", { retryable: false });

    expect(datajud).toBeInstanceOf(UpstreamError);
    expect(djen).toBeInstanceOf(UpstreamError);
    expect([datajud.retryable, djen.retryable, forced.retryable]).toEqual([true, false, false]);
    expect(JSON.parse(JSON.stringify(djen))).toEqual({
      kind: "geo_blocked",
      message: "403",
      retryable: false,
      status: 403,
    });
  });

  it("copies itself with the attempts made, keeping everything else (DataJud's index too)", () => {
    const cause = new Error("socket hang up");
    const datajud = new DataJudError("server", "503", {
      status: 503,
      index: "api_publica_tjdft",
      retryAfterSeconds: 7,
      cause,
    }).withAttempts(3);
    const djen = new DjenError("deadline", "too slow", { retryable: true }).withAttempts(2);

    expect(datajud).toBeInstanceOf(DataJudError);
    expect([datajud.attempts, datajud.status, datajud.index, datajud.retryAfterSeconds]).toEqual([
      3,
      503,
      "api_publica_tjdft",
      7,
    ]);
    expect(datajud.cause).toBe(cause);
    expect(djen).toBeInstanceOf(DjenError);
    expect([djen.attempts, djen.retryable, djen.retryNow]).toEqual([2, true, false]);
  });
});
