import { describe, expect, it } from "vitest";
import { DataJudError } from "../../../src/datajud/errors.js";
import { errorPayload, sdkErrorPayload, ToolError } from "../../../src/mcp/tool-errors.js";
import { ToolErrorPayload } from "../../../src/mcp/tool-schemas.js";

describe("tool error envelopes", () => {
  it("a DataJud outage is retryable and its hint says it is no answer about the case", () => {
    const payload = errorPayload(new DataJudError("server", "DataJud answered 503"));

    expect(ToolErrorPayload.parse(payload)).toEqual(payload);
    expect(payload.error).toMatchObject({ kind: "server", retryable: true });
    expect(payload.error.hint).toMatch(/says nothing about the case/);
  });

  it("a rejected key is not retryable and its hint names the variable and the wiki", () => {
    const payload = errorPayload(new DataJudError("auth", "DataJud answered 401"));

    expect(payload.error.retryable).toBe(false);
    expect(payload.error.hint).toContain("DATAJUD_API_KEY");
    expect(payload.error.hint).toContain("datajud-wiki.cnj.jus.br");
  });

  it("a server error keeps its own hint", () => {
    const payload = errorPayload(
      new ToolError("no_database", "no database at /x", { hint: "set MONITOR_DB" }),
    );

    expect(payload.error).toEqual({
      kind: "no_database",
      message: "no database at /x",
      retryable: false,
      hint: "set MONITOR_DB",
    });
  });

  it("anything else is internal and not retryable", () => {
    const payload = errorPayload(new TypeError("boom"));

    expect(payload.error).toMatchObject({ kind: "internal", message: "boom", retryable: false });
  });

  it("the SDK's own messages: bad arguments are the caller's, a result off its schema is ours", () => {
    const input = sdkErrorPayload(
      "MCP error -32602: Input validation error: Invalid arguments for tool get_case: ...",
    );
    const unknown = sdkErrorPayload("MCP error -32602: Tool nope not found");
    const output = sdkErrorPayload(
      "MCP error -32602: Output validation error: Invalid structured content for tool get_case",
    );

    expect(input.error.kind).toBe("invalid_input");
    expect(unknown.error.kind).toBe("invalid_input");
    expect(output.error.kind).toBe("internal");
  });
});
