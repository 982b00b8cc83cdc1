import { describe, expect, it } from "vitest";
import { isLoopback, listenProblem, parseListenAddress } from "../../../src/http/listen-address.js";
import { tokenMatches } from "../../../src/http/server.js";

describe("[HOST:]PORT", () => {
  it("a port alone listens on 127.0.0.1", () => {
    expect(parseListenAddress("8765")).toEqual({
      ok: true,
      value: { host: "127.0.0.1", port: 8765 },
    });
  });

  it("reads a host and port, IPv6 in brackets", () => {
    expect(parseListenAddress("0.0.0.0:80")).toEqual({
      ok: true,
      value: { host: "0.0.0.0", port: 80 },
    });
    expect(parseListenAddress(" [::1]:8765 ")).toEqual({
      ok: true,
      value: { host: "::1", port: 8765 },
    });
    expect(parseListenAddress("localhost:0")).toEqual({
      ok: true,
      value: { host: "localhost", port: 0 },
    });
  });

  it("refuses what it cannot read, saying the form", () => {
    for (const bad of ["::1:80", "host:", ":80", "70000", "80a", "[nothost]:80", ""]) {
      const result = parseListenAddress(bad);
      expect(result.ok, bad).toBe(false);
      if (!result.ok) expect(result.error).toContain("[HOST:]PORT");
    }
  });
});

describe("who may listen without a token", () => {
  it("loopback addresses only", () => {
    expect(["127.0.0.1", "127.8.0.1", "::1", "[::1]", "localhost"].every(isLoopback)).toBe(true);
    expect(["0.0.0.0", "::", "192.168.0.10", "example.com"].some(isLoopback)).toBe(false);
  });

  it("refuses a public address without a token, and allows it with one", () => {
    expect(listenProblem({ host: "0.0.0.0", port: 80 }, null)).toMatch(/MCP_HTTP_TOKEN/);
    expect(listenProblem({ host: "0.0.0.0", port: 80 }, "a-long-enough-token")).toBeNull();
    expect(listenProblem({ host: "127.0.0.1", port: 80 }, null)).toBeNull();
  });
});

describe("the bearer token", () => {
  const token = "0123456789abcdef0123";

  it("matches only the exact token after Bearer", () => {
    expect(tokenMatches(token, `Bearer ${token}`)).toBe(true);
    expect(tokenMatches(token, `bearer  ${token} `)).toBe(true);
    expect(tokenMatches(token, `Bearer ${token}0`)).toBe(false);
    expect(tokenMatches(token, `Bearer ${token.slice(1)}`)).toBe(false);
    expect(tokenMatches(token, token)).toBe(false);
    expect(tokenMatches(token, "Bearer ")).toBe(false);
    expect(tokenMatches(token, undefined)).toBe(false);
  });
});
