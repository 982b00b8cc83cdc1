import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { type HealthCheck, healthRoutes } from "../../../src/http/health.js";
import { createHttpServer, type HttpServer } from "../../../src/http/server.js";
import { silentLogger } from "../../../src/log.js";
import { MonitorMetrics } from "../../../src/metrics/metrics.js";
import { sample } from "../../support/prometheus-text.js";

const TOKEN = "health-token-0123456789abcdef";

let server: HttpServer | null = null;
let checks: HealthCheck[];

async function serve(
  token: string | null,
  allowedHosts: string[] = [],
): Promise<{ url: string; metrics: MonitorMetrics }> {
  const metrics = new MonitorMetrics({ processMetrics: false });
  server = createHttpServer({
    listen: { host: "127.0.0.1", port: 0 },
    token,
    allowedOrigins: ["https://app.example.org"],
    allowedHosts,
    maxBodyBytes: 4096,
    logger: silentLogger(),
  });
  for (const route of healthRoutes(() => checks)) server.route(route);
  server.route(metrics.route());
  return { url: await server.start(), metrics };
}

afterEach(async () => {
  await server?.close();
  server = null;
  checks = [];
});

describe("/livez and /readyz", () => {
  it("answer without the token: live, and ready with every check", async () => {
    checks = [
      { name: "database", ok: true, problem: null },
      { name: "watchlist", ok: true, problem: null },
    ];
    const { url } = await serve(TOKEN);

    const live = await fetch(`${url}/livez`);
    const ready = await fetch(`${url}/readyz`);

    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: "ok" });
    expect(ready.status).toBe(200);
    expect(ready.headers.get("cache-control")).toBe("no-store");
    expect(await ready.json()).toEqual({ status: "ready", checks });
  });

  it("/readyz answers 503 with the failing check's problem, while /livez stays 200", async () => {
    checks = [
      { name: "database", ok: true, problem: null },
      { name: "sweep", ok: false, problem: "a sweep's lease expired" },
    ];
    const { url } = await serve(null);

    const live = await fetch(`${url}/livez`);
    const ready = await fetch(`${url}/readyz`);

    expect(live.status).toBe(200);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: "not ready", checks });
  });
});

describe("/metrics", () => {
  it("asks for the bearer token when one is set, and serves Prometheus text with it", async () => {
    const { url, metrics } = await serve(TOKEN);
    metrics.sweepEnded("schedule", "ok", 2000);

    const without = await fetch(`${url}/metrics`);
    const wrong = await fetch(`${url}/metrics`, { headers: { authorization: "Bearer nope" } });
    const right = await fetch(`${url}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const text = await right.text();

    expect(without.status).toBe(401);
    expect(without.headers.get("www-authenticate")).toContain("Bearer");
    expect(wrong.status).toBe(401);
    expect(right.status).toBe(200);
    expect(right.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(
      sample(text, "datajud_monitor_sweeps_total", { trigger: "schedule", result: "ok" }),
    ).toBe(1);
    expect(text).toContain("# HELP datajud_monitor_datajud_requests_total");
  });

  it("is open on a loopback server without a token", async () => {
    const { url } = await serve(null);

    const response = await fetch(`${url}/metrics`);

    expect(response.status).toBe(200);
    expect(await response.text()).toContain("# TYPE datajud_monitor_sweeps_total counter");
  });
});

/** A GET with the Host header a browser would send after resolving `host` to this server. */
function getAs(url: string, path: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the Host check (DNS rebinding)", () => {
  it("refuses every route under a name that is not the server's, and serves its own names and any address", async () => {
    checks = [{ name: "database", ok: true, problem: null }];
    const { url } = await serve(null, ["mcp.example.com"]);
    const port = new URL(url).port;
    const paths = ["/livez", "/readyz", "/metrics", "/mcp"];

    const rebound = await Promise.all(
      paths.map((p) => getAs(url, p, `rebind.evil.example:${port}`)),
    );
    const own = await Promise.all(
      [
        `127.0.0.1:${port}`,
        `localhost:${port}`,
        `LOCALHOST.:${port}`,
        "10.0.0.7",
        `[::1]:${port}`,
        "mcp.example.com",
        `app.example.org:${port}`,
      ].map((host) => getAs(url, "/livez", host)),
    );

    expect(rebound).toEqual([421, 421, 421, 421]);
    expect(own).toEqual([200, 200, 200, 200, 200, 200, 200]);
  });
});
