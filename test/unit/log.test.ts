import { describe, expect, it } from "vitest";
import { createLogger, prettyLogLine } from "../../src/log.js";

function capture(): { lines: string[]; destination: { write(chunk: string): void } } {
  const lines: string[] = [];
  return { lines, destination: { write: (chunk: string) => lines.push(chunk) } };
}

describe("logger", () => {
  it("writes JSON lines with a static message and data in fields", () => {
    const out = capture();
    const logger = createLogger({ destination: out.destination });

    logger.info({ caseNumber: "0713383-43.2025.8.07.0006" }, "case changed");

    const line = JSON.parse(out.lines[0] ?? "{}");
    expect(line.msg).toBe("case changed");
    expect(line.caseNumber).toBe("0713383-43.2025.8.07.0006");
  });

  it("redacts secrets by field name and by value, wherever they appear", () => {
    const out = capture();
    const secret = "cDZHYzlZa0JadVREZDJCendQbXY6SkJlTzNjLV9TRENyQk1RdnFKZGRQdw==";
    const logger = createLogger({
      destination: out.destination,
      secrets: [secret, "smtp://u:hunter22@mail"],
    });

    logger.warn(
      { apiKey: secret, error: `request with APIKey ${secret} failed` },
      "DataJud failed",
    );
    logger.error({ transport: "smtp://u:hunter22@mail" }, "mail failed");

    const text = out.lines.join("");
    expect(text).not.toContain(secret);
    expect(text).not.toContain("hunter22");
    expect(text).toContain("[redacted]");
  });
});

describe("logger on a terminal (format pretty)", () => {
  it("writes one short human line: the time of day in the schedule's zone, the level, the message, the fields", () => {
    const out = capture();
    const logger = createLogger({
      destination: out.destination,
      format: "pretty",
      timezone: "America/Sao_Paulo",
    }).child({ command: "run-once" });

    logger.warn(
      { event: { type: "retry", index: "api_publica_tjdft", attempt: 1, delayMs: 2000 } },
      "DataJud request failed, retrying",
    );

    expect(out.lines).toHaveLength(1);
    expect(out.lines[0]).toMatch(
      /^\d\d:\d\d:\d\d WARN: DataJud request failed, retrying {2}event\.type=retry event\.index=api_publica_tjdft event\.attempt=1 event\.delayMs=2000\n$/,
    );
    expect(out.lines[0]).not.toContain("{");
  });

  it("shows our instants in São Paulo time, never UTC", () => {
    const line = prettyLogLine({ timezone: "America/Sao_Paulo" })(
      JSON.stringify({ level: 30, time: "2026-12-02T13:05:09.000Z", msg: "sweep finished" }),
    );

    expect(line).toBe("10:05:09 INFO: sweep finished\n");
  });

  it("quotes text with spaces, gives an error's message without its stack, and lets no control character through", () => {
    const line = prettyLogLine()(
      JSON.stringify({
        level: 50,
        time: "2026-12-02T13:05:09.000Z",
        msg: "scheduled sweep crashed",
        err: { type: "Error", message: "disk full", stack: "Error: disk full\n    at x" },
        court: "tj\u001b[31mdft",
        note: "two words",
      }),
    );

    expect(line).toBe(
      '10:05:09 ERROR: scheduled sweep crashed  err="disk full" court="tj\\u001b[31mdft" note="two words"\n',
    );
  });

  it("writes out bidi, zero-width and C1 characters of a message or a field, which JSON leaves raw", () => {
    const line = prettyLogLine()(
      JSON.stringify({
        level: 40,
        time: "2026-12-02T13:05:09.000Z",
        msg: "movement \u202eodahcepsed\u202c read\u001b]0;x\u0007",
        name: "ok",
        movement: "Juntada\u200b de\u009b31m petição",
      }),
    );

    expect(line).toBe(
      '10:05:09 WARN: movement \\u202Eodahcepsed\\u202C read\\x1B]0;x\\x07  movement="Juntada\\u200B de\\x9B31m petição"\n',
    );
  });

  it("removes secrets before formatting, as in JSON lines", () => {
    const out = capture();
    const secret = "cDZHYzlZa0JadVREZDJCendQbXY6SkJlTzNjLV9TRENyQk1RdnFKZGRQdw==";
    const logger = createLogger({
      destination: out.destination,
      format: "pretty",
      secrets: [secret],
    });

    logger.warn(
      { apiKey: secret, error: `request with APIKey ${secret} failed` },
      "DataJud failed",
    );

    expect(out.lines.join("")).not.toContain(secret);
    expect(out.lines.join("")).toContain("[redacted]");
  });
});
