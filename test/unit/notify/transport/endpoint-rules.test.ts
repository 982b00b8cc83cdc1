import { describe, expect, it } from "vitest";
import {
  describeEndpoint,
  type Endpoint,
  scrubEndpoint,
} from "../../../../src/notify/transport/endpoint.js";
import { isLastAttempt, verdictOf } from "../../../../src/notify/transport/endpoint-verdict.js";
import {
  addressProblem,
  endpointUrlProblem,
} from "../../../../src/notify/transport/http-endpoint.js";

const answered = (status: number) =>
  ({ kind: "answered", status, body: "", retryAfterSeconds: null }) as const;

describe("addressProblem", () => {
  const none = { loopbackNamed: false, allowedPrivateNetworks: [] };

  it("lets public addresses through and refuses the rest, IPv4-mapped IPv6 included", () => {
    expect(addressProblem("93.184.216.34", none)).toBeNull();
    expect(addressProblem("2606:4700::1111", none)).toBeNull();
    for (const address of [
      "10.0.0.1",
      "192.168.1.1",
      "172.16.0.1",
      "169.254.169.254",
      "0.0.0.0",
      "::1",
      "::ffff:192.168.0.1",
      "fe80::1",
      "224.0.0.1",
    ]) {
      expect(addressProblem(address, none), address).not.toBeNull();
    }
  });

  it("allows a private network only when configured, and loopback only when the URL named it", () => {
    const allowed = { loopbackNamed: false, allowedPrivateNetworks: ["10.20.0.0/16"] };

    expect(addressProblem("10.20.3.4", allowed)).toBeNull();
    expect(addressProblem("10.21.3.4", allowed)).toMatch(/private/);
    expect(addressProblem("127.0.0.1", { ...none, loopbackNamed: true })).toBeNull();
    expect(addressProblem("127.0.0.1", none)).toMatch(/loopback/);
  });
});

describe("endpointUrlProblem", () => {
  it("takes https anywhere public and http only to this machine", () => {
    const check = (url: string): string | null =>
      endpointUrlProblem(new URL(url), { allowedPrivateNetworks: [] });

    expect(check("https://hooks.slack.com/services/T/B/x")).toBeNull();
    expect(check("http://127.0.0.1:8080/hook")).toBeNull();
    expect(check("http://[::1]:8080/hook")).toBeNull();
    expect(check("http://localhost:8080/hook")).toBeNull();
    expect(check("http://hooks.slack.com/services/T/B/x")).toMatch(/https/);
    expect(check("https://10.0.0.1/x")).toMatch(/private/);
  });

  it("never quotes the path or query, where tokens live", () => {
    const problem = endpointUrlProblem(
      new URL("http://hooks.example.com/services/SECRETPATH?sig=SECRETSIG"),
      {
        allowedPrivateNetworks: [],
      },
    );

    expect(problem).not.toMatch(/SECRET/);
  });
});

describe("verdictOf and isLastAttempt", () => {
  it("2xx delivered whatever the body, 410 gone, 4xx rejected, 5xx/408/429 retried", () => {
    expect(verdictOf({ ...answered(200), body: "error: nothing done" }).kind).toBe("delivered");
    expect(verdictOf(answered(202)).kind).toBe("delivered");
    expect(verdictOf(answered(410)).kind).toBe("gone");
    expect(verdictOf(answered(404)).kind).toBe("rejected");
    expect(verdictOf(answered(301)).kind).toBe("rejected");
    for (const status of [408, 429, 500, 502, 503])
      expect(verdictOf(answered(status)).kind).toBe("retry");
    expect(verdictOf({ kind: "failed", failure: "timeout", message: "" }).kind).toBe("retry");
    expect(verdictOf({ kind: "failed", failure: "blocked", message: "" }).kind).toBe("rejected");
  });

  it("gives a rejected row three attempts, a passing failure all of them, a gone endpoint one", () => {
    const rejected = verdictOf(answered(400));
    const retry = verdictOf(answered(500));

    expect([1, 2, 3].map((n) => isLastAttempt(rejected, n, 8))).toEqual([false, false, true]);
    expect(isLastAttempt(rejected, 1, 1)).toBe(true);
    expect(isLastAttempt(retry, 7, 8)).toBe(false);
    expect(isLastAttempt(retry, 8, 8)).toBe(true);
    expect(isLastAttempt(verdictOf(answered(410)), 1, 8)).toBe(true);
  });
});

describe("describeEndpoint and scrubEndpoint", () => {
  const slack: Endpoint = {
    name: "equipe",
    channel: "slack",
    url: "https://hooks.slack.com/services/T1/B2/abcdefSECRET",
  };
  const telegram: Endpoint = {
    name: "plantao",
    channel: "telegram",
    apiBase: "https://api.telegram.org",
    token: "123:TOKENVALUE",
    chatId: "1",
  };

  it("shows the name, channel and host only", () => {
    expect(describeEndpoint(slack)).toBe('slack endpoint "equipe" (hooks.slack.com)');
    expect(describeEndpoint(telegram)).toBe('telegram endpoint "plantao" (api.telegram.org)');
  });

  it("blanks the URL, its path and a token wherever an answer echoes them", () => {
    const echoed = "no_service for /services/T1/B2/abcdefSECRET and bot123:TOKENVALUE";

    expect(scrubEndpoint(echoed, slack)).not.toContain("SECRET");
    expect(scrubEndpoint(echoed, telegram)).not.toContain("TOKENVALUE");
  });
});
