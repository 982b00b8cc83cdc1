import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "../../../src/log.js";
import {
  type HeartbeatDeps,
  heartbeatSignal,
  heartbeatTarget,
  pingHeartbeat,
} from "../../../src/monitor/heartbeat.js";
import { type FakeHeartbeat, startFakeHeartbeat } from "../../fakes/fake-heartbeat.js";
import { closedPort } from "../../support/closed-port.js";
import { waitFor } from "../../support/wait-for.js";

let service: FakeHeartbeat;
let lines: Array<Record<string, unknown>>;

function logger(): ReturnType<typeof createLogger> {
  return createLogger({
    level: "debug",
    destination: { write: (chunk: string) => lines.push(JSON.parse(chunk)) },
  });
}

function deps(url: string | null, timeout?: (ms: number) => AbortSignal): HeartbeatDeps {
  return {
    url,
    fetch: globalThis.fetch,
    logger: logger(),
    timeoutMs: 5_000,
    ...(timeout === undefined ? {} : { timeout }),
  };
}

beforeEach(async () => {
  service = await startFakeHeartbeat();
  lines = [];
});

afterEach(async () => {
  await service.close();
});

describe("heartbeatTarget", () => {
  it("appends /fail to the path, whatever its trailing slash, and keeps the query", () => {
    expect(heartbeatTarget("https://hc-ping.com/abc", true)).toBe("https://hc-ping.com/abc/fail");
    expect(heartbeatTarget("https://hc-ping.com/abc/", true)).toBe("https://hc-ping.com/abc/fail");
    expect(heartbeatTarget("https://x.example/ping/k?create=1", true)).toBe(
      "https://x.example/ping/k/fail?create=1",
    );
    expect(heartbeatTarget("https://hc-ping.com/abc", false)).toBe("https://hc-ping.com/abc");
  });
});

describe("heartbeatSignal", () => {
  it("pings for a sweep that ended, /fail for one that failed, nothing for a dry or stopped one", () => {
    const signals = (["ok", "partial", "failed", "error", "interrupted"] as const).map((r) =>
      heartbeatSignal(r, false),
    );

    expect(signals).toEqual(["ok", "ok", "fail", "fail", null]);
    expect(heartbeatSignal("ok", true)).toBeNull();
    expect(heartbeatSignal("failed", true)).toBeNull();
  });
});

describe("pingHeartbeat", () => {
  it("requests the URL after a sweep, and its /fail sibling after a failed one", async () => {
    const url = `${service.url}/check-uuid`;

    const ok = await pingHeartbeat(deps(url), false);
    const fail = await pingHeartbeat(deps(url), true);

    expect([ok, fail]).toEqual([true, true]);
    expect(service.pings.map((p) => [p.method, p.path])).toEqual([
      ["GET", "/check-uuid"],
      ["GET", "/check-uuid/fail"],
    ]);
    expect(service.pings[0]?.userAgent).toBe("datajud-monitor");
  });

  it("sends nothing when no URL is configured", async () => {
    const sent = await pingHeartbeat(deps(null), false);

    expect(sent).toBe(false);
    expect(service.pings).toHaveLength(0);
  });

  it("logs a refused ping with the host only (the path is the secret), never throws", async () => {
    service.status = 404;

    const sent = await pingHeartbeat(deps(`${service.url}/secret-uuid`), false);

    expect(sent).toBe(false);
    const warning = lines.find((l) => l.level === 40);
    expect(warning?.msg).toBe("heartbeat ping refused; check monitor.heartbeatUrl");
    expect(warning?.status).toBe(404);
    expect(JSON.stringify(lines)).not.toContain("secret-uuid");
  });

  it("pings a URL with a user and password as Basic credentials, and logs none of it", async () => {
    const url = `${service.url.replace("://", "://ops:s3cr%40t@")}/ping/key-7f3e?token=q-91`;
    service.status = 404;

    const sent = await pingHeartbeat(deps(url), true);

    expect(sent).toBe(false);
    expect(service.pings.map((p) => p.path)).toEqual(["/ping/key-7f3e/fail?token=q-91"]);
    expect(service.pings[0]?.authorization).toBe(
      `Basic ${Buffer.from("ops:s3cr@t").toString("base64")}`,
    );
    const logged = JSON.stringify(lines);
    for (const secret of ["ops", "s3cr", "key-7f3e", "q-91", "/ping"]) {
      expect(logged).not.toContain(secret);
    }
    expect(lines.find((l) => l.level === 40)?.host).toBe(`${service.url}/…`);
  });

  it("cuts a URL an error quotes to its host: the path and query stay out of the log", async () => {
    const quoting: typeof fetch = async (input) => {
      throw new TypeError(`Request cannot be constructed from: ${String(input)}`);
    };

    await pingHeartbeat(
      { ...deps("https://hc.example/ping/key-7f3e?token=q-91"), fetch: quoting },
      false,
    );

    const warning = lines.find((l) => l.level === 40);
    expect(warning?.reason).toBe("Request cannot be constructed from: https://hc.example/…");
    expect(JSON.stringify(lines)).not.toMatch(/key-7f3e|q-91/u);
  });

  it("logs a service that cannot be reached, never throws", async () => {
    const port = await closedPort();

    const sent = await pingHeartbeat(deps(`http://127.0.0.1:${port}/uuid`), true);

    expect(sent).toBe(false);
    const warning = lines.find((l) => l.level === 40);
    expect(warning?.msg).toBe("heartbeat ping failed; the sweep itself is unaffected");
    expect(String(warning?.reason)).toMatch(/ECONNREFUSED|fetch failed/);
  });

  it("gives up on a service that does not answer once its time is up", async () => {
    service.hang = true;
    const expired = new AbortController();
    const asked: number[] = [];

    const ping = pingHeartbeat(
      deps(`${service.url}/uuid`, (ms) => {
        asked.push(ms);
        return expired.signal;
      }),
      false,
    );
    await waitFor(() => service.pings.length === 1, "the ping");
    expired.abort(new DOMException("timed out", "TimeoutError"));
    const sent = await ping;

    expect(sent).toBe(false);
    expect(asked).toEqual([5_000]);
    const warning = lines.find((l) => l.level === 40);
    expect(warning?.reason).toBe("no answer within 5000 ms");
  });
});
