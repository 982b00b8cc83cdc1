import { describe, expect, it } from "vitest";
import {
  durationText,
  liveProgress,
  renderProgress,
  SweepProgress,
} from "../../../src/cli/sweep-progress.js";
import { LiveLines } from "../../../src/cli/terminal.js";
import { FakeClock, fakeSystem } from "../../fakes/fake-clock.js";

const T0 = Date.UTC(2026, 11, 2, 13, 0, 0);

function planned(byCourt: Record<string, number>): SweepProgress {
  const progress = new SweepProgress(T0);
  const cases = Object.values(byCourt).reduce((n, c) => n + c, 0);
  progress.onSweep({ type: "planned", cases, byIndex: byCourt, byCourt }, T0);
  return progress;
}

describe("renderProgress: the DJEN phase beside DataJud's courts", () => {
  it("adds a line of DJEN sources checked, failed and left, with its time", () => {
    const progress = planned({ tjdft: 2 });
    progress.onSweep({ type: "djen-planned", sources: 3 }, T0);
    progress.onSweep({ type: "djen-checked", kind: "case", ok: true }, T0 + 1_000);
    progress.onSweep({ type: "djen-checked", kind: "oab", ok: false }, T0 + 2_000);

    const running = renderProgress(progress, T0 + 4_000).at(-1);
    progress.onSweep({ type: "djen-deferred", sources: 1 }, T0 + 5_000);
    const stopped = renderProgress(progress, T0 + 9_000).at(-1);

    expect(running).toBe("DJEN: 2 of 3 sources checked, 1 failed, 4 s");
    expect(stopped).toBe(
      "DJEN: 2 of 3 sources checked, 1 failed, 1 left for the next sweep, done in 5 s",
    );
  });

  it("says when DJEN waits on our rate limit, and for how long, until the request leaves", () => {
    const progress = planned({ tjdft: 1 });
    progress.onSweep({ type: "djen-planned", sources: 30 }, T0);
    progress.onDjen({ type: "throttled", attempt: 1, waitMs: 42_000, limit: 20 }, T0 + 18_000);

    const waiting = renderProgress(progress, T0 + 30_000).slice(-2);
    progress.onDjen({ type: "request", attempt: 1, status: 200, durationMs: 300 }, T0 + 60_000);
    const sent = renderProgress(progress, T0 + 61_000).slice(-1);

    expect(waiting).toEqual([
      "DJEN: 0 of 30 sources checked, 30 s",
      "  next DJEN request in 30 s: waiting on our rate limit (djen.requestsPerMinute: 20)",
    ]);
    expect(sent).toEqual(["DJEN: 0 of 30 sources checked, 1 min 01 s"]);
  });

  it("says when DJEN asked us to slow down (HTTP 429), with the pause before the retry", () => {
    const progress = planned({ tjdft: 1 });
    progress.onSweep({ type: "djen-planned", sources: 2 }, T0);
    progress.onDjen(
      {
        type: "retry",
        attempt: 1,
        delayMs: 20_000,
        error: { kind: "rate_limited", message: "DJEN is rate limiting requests (HTTP 429)" },
      },
      T0 + 1_000,
    );

    expect(renderProgress(progress, T0 + 6_000).at(-1)).toBe(
      "  next DJEN request in 15 s: DJEN asked us to slow down (HTTP 429)",
    );
  });

  it("shows no DJEN line when DJEN is off or has nothing to ask", () => {
    const off = planned({ tjdft: 2 });
    const empty = planned({ tjdft: 2 });
    empty.onSweep({ type: "djen-planned", sources: 0 }, T0);

    expect(renderProgress(off, T0).some((l) => l.startsWith("DJEN"))).toBe(false);
    expect(renderProgress(empty, T0).some((l) => l.startsWith("DJEN"))).toBe(false);
  });
});

describe("renderProgress: per court, cases checked of total, requests, elapsed, the wait now", () => {
  it("shows every court queued before the first request", () => {
    const progress = planned({ tjdft: 200, stj: 5 });

    expect(renderProgress(progress, T0)).toEqual([
      "DataJud: 0 of 205 cases checked, 0 requests, 0 s",
      "  tjdft  0/200  0 requests  queued",
      "  stj      0/5  0 requests  queued",
    ]);
  });

  it("counts requests by index and shows how long the oldest one in flight has waited", () => {
    const progress = planned({ tjdft: 200, stj: 5 });
    progress.onSweep({ type: "batch-start", step: "fingerprint", index: "tjdft", cases: 100 }, T0);
    progress.onDataJud({ type: "send", index: "api_publica_tjdft", attempt: 1, inFlight: 1 }, T0);
    progress.onDataJud(
      { type: "send", index: "api_publica_tjdft", attempt: 1, inFlight: 2 },
      T0 + 2_000,
    );
    for (let i = 0; i < 120; i++) {
      progress.onSweep({ type: "case-checked", court: "tjdft", outcome: "unchanged" }, T0 + 9_000);
    }

    const lines = renderProgress(progress, T0 + 12_000);

    expect(lines[0]).toBe("DataJud: 120 of 205 cases checked, 2 requests, 12 s");
    expect(lines[1]).toBe("  tjdft  120/200  2 requests  12 s  waiting 12 s for DataJud");
  });

  it("takes the oldest request as answered, so the wait shown is the next one's", () => {
    const progress = planned({ tjdft: 10 });
    progress.onDataJud({ type: "send", index: "api_publica_tjdft", attempt: 1, inFlight: 1 }, T0);
    progress.onDataJud(
      { type: "send", index: "api_publica_tjdft", attempt: 1, inFlight: 2 },
      T0 + 5_000,
    );

    progress.onDataJud(
      { type: "request", index: "api_publica_tjdft", attempt: 1, status: 200, durationMs: 6_000 },
      T0 + 6_000,
    );

    expect(renderProgress(progress, T0 + 7_000)[1]).toBe(
      "  tjdft  0/10  2 requests  7 s  waiting 2 s for DataJud",
    );
  });

  it("shows a retry's countdown and cause while nothing is in flight", () => {
    const progress = planned({ stj: 5 });
    progress.onDataJud({ type: "send", index: "api_publica_stj", attempt: 1, inFlight: 1 }, T0);
    progress.onDataJud(
      {
        type: "unanswered",
        index: "api_publica_stj",
        attempt: 1,
        kind: "timeout",
        durationMs: 75_000,
      },
      T0 + 75_000,
    );
    progress.onDataJud(
      {
        type: "retry",
        index: "api_publica_stj",
        attempt: 1,
        delayMs: 8_000,
        error: { kind: "timeout", message: "DataJud did not answer" },
      },
      T0 + 75_000,
    );

    expect(renderProgress(progress, T0 + 79_000)[1]).toBe(
      "  stj  0/5  1 request  1 min 19 s  retry in 4 s after timeout",
    );
  });

  it("freezes a finished court at its own time, with its failures", () => {
    const progress = planned({ tjsp: 2, trt2: 1 });
    progress.onSweep({ type: "batch-start", step: "fingerprint", index: "tjsp", cases: 2 }, T0);
    progress.onDataJud({ type: "send", index: "api_publica_tjsp", attempt: 1, inFlight: 1 }, T0);
    progress.onDataJud(
      { type: "request", index: "api_publica_tjsp", attempt: 1, status: 200, durationMs: 3_000 },
      T0 + 3_000,
    );
    progress.onSweep({ type: "case-checked", court: "tjsp", outcome: "unchanged" }, T0 + 3_000);
    progress.onSweep({ type: "case-checked", court: "tjsp", outcome: "failed" }, T0 + 3_000);

    const lines = renderProgress(progress, T0 + 60_000);

    expect(lines[1]).toBe("  tjsp  2/2  1 request   done in 3 s, 1 failed");
    expect(lines[2]).toBe("  trt2  0/1  0 requests  queued");
  });

  it("stops DataJud's clock when detection ends, while DJEN goes on", () => {
    const progress = planned({ tjsp: 2 });
    progress.onDataJud({ type: "send", index: "api_publica_tjsp", attempt: 1, inFlight: 1 }, T0);
    progress.onSweep({ type: "case-checked", court: "tjsp", outcome: "unchanged" }, T0 + 2_000);
    progress.onSweep({ type: "case-checked", court: "tjsp", outcome: "unchanged" }, T0 + 3_000);
    progress.onSweep({ type: "detection-end", interrupted: false }, T0 + 4_000);
    progress.onSweep({ type: "djen-planned", sources: 5 }, T0 + 4_000);

    const lines = renderProgress(progress, T0 + 90_000);

    expect(lines[0]).toBe("DataJud: 2 of 2 cases checked, 1 request, done in 4 s");
    expect(lines.at(-1)).toBe("DJEN: 0 of 5 sources checked, 1 min 30 s");
  });

  it("says which courts were left unchecked when detection stopped early", () => {
    const progress = planned({ tjsp: 3 });
    progress.onDataJud({ type: "send", index: "api_publica_tjsp", attempt: 1, inFlight: 1 }, T0);
    progress.onSweep({ type: "case-checked", court: "tjsp", outcome: "failed" }, T0 + 2_000);
    progress.onSweep({ type: "detection-end", interrupted: true }, T0 + 2_000);

    const lines = renderProgress(progress, T0 + 30_000);

    expect(lines).toEqual([
      "DataJud: 1 of 3 cases checked, 1 request, done in 2 s",
      "  tjsp  1/3  1 request  stopped, 2 not checked, 1 failed",
    ]);
  });

  it("shows an index asked for another court's cases (TRF6 for TRF1 numbers) with its requests alone", () => {
    const progress = planned({ trf1: 3 });
    progress.onDataJud({ type: "send", index: "api_publica_trf6", attempt: 1, inFlight: 1 }, T0);

    const lines = renderProgress(progress, T0 + 4_000);

    expect(lines[2]).toBe("  trf6    -  1 request   waiting 4 s for DataJud");
    expect(lines[0]).toBe("DataJud: 0 of 3 cases checked, 1 request, 4 s");
  });
});

describe("durationText", () => {
  it("says whole seconds, and minutes past one", () => {
    expect(durationText(999)).toBe("0 s");
    expect(durationText(59_999)).toBe("59 s");
    expect(durationText(125_000)).toBe("2 min 05 s");
  });
});

describe("liveProgress", () => {
  it("draws nothing at all when stderr is not a terminal", () => {
    expect(liveProgress(null, fakeSystem(new FakeClock()))).toBeNull();
  });

  it("redraws on events and every second on the injected clock, and clears the lines on stop", async () => {
    const clock = new FakeClock({ now: T0 });
    let text = "";
    const lines = new LiveLines({ write: (chunk: string) => (text += chunk), columns: 100 });
    const progress = liveProgress(lines, fakeSystem(clock));

    progress?.onSweep({ type: "planned", cases: 1, byIndex: { stj: 1 }, byCourt: { stj: 1 } });
    progress?.onDataJud({ type: "send", index: "api_publica_stj", attempt: 1, inFlight: 1 });
    await clock.advance(3_000);
    const drawn = text;
    progress?.stop();
    const cleared = text.slice(drawn.length);

    expect(drawn).toContain("  stj  0/1  1 request  3 s  waiting 3 s for DataJud\n");
    expect(cleared).toBe("\x1b[2A\r\x1b[J");
  });
});
