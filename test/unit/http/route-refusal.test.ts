import { describe, expect, it } from "vitest";
import { routeRefusal } from "../../../src/http/server.js";

const TOKEN = "0123456789abcdef0123";
const gate = {
  origins: new Set(["http://127.0.0.1:8787"]),
  token: TOKEN,
  maxBodyBytes: 1000,
};

function refusal(headers: Record<string, string>, auth: "bearer" | "bearer-if-set" | "public") {
  return routeRefusal({ headers }, "/mcp", { auth }, gate);
}

describe("what turns a request away before its route", () => {
  it("lets through a request with the token, from no browser or an allowed origin", () => {
    const authorization = `Bearer ${TOKEN}`;
    expect(refusal({ authorization }, "bearer")).toBeNull();
    expect(refusal({ authorization, origin: "http://127.0.0.1:8787" }, "bearer")).toBeNull();
    expect(refusal({}, "public")).toBeNull();
  });

  it("refuses a browser page from elsewhere first, with a warning, whatever its token", () => {
    expect(
      refusal({ origin: "https://evil.example", authorization: `Bearer ${TOKEN}` }, "public"),
    ).toEqual({
      status: 403,
      error:
        "origin https://evil.example is not allowed; add it to http.allowedOrigins if it is yours",
      warning: "HTTP request from an origin not allowed",
    });
  });

  it("tells a missing token from a wrong one, as RFC 6750 does", () => {
    expect(refusal({}, "bearer")?.headers).toEqual({
      "www-authenticate": 'Bearer realm="datajud-monitor"',
    });
    expect(refusal({ authorization: "Bearer wrong" }, "bearer-if-set")).toMatchObject({
      status: 401,
      error: "the bearer token is wrong",
      headers: { "www-authenticate": 'Bearer realm="datajud-monitor", error="invalid_token"' },
    });
  });

  it("turns a bearer route off without a configured token, and bounds the body", () => {
    expect(
      routeRefusal({ headers: {} }, "/mcp", { auth: "bearer" }, { ...gate, token: null }),
    ).toEqual({
      status: 503,
      error: "/mcp is off: this server has no MCP_HTTP_TOKEN; set it and restart",
    });
    expect(
      routeRefusal(
        { headers: {} },
        "/metrics",
        { auth: "bearer-if-set" },
        { ...gate, token: null },
      ),
    ).toBeNull();
    expect(
      refusal({ authorization: `Bearer ${TOKEN}`, "content-length": "1001" }, "bearer"),
    ).toEqual({
      status: 413,
      error: "the request body is larger than 1000 bytes (http.maxBodyBytes)",
    });
  });
});
