import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/log.js";

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
