import { writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliIo } from "../../../src/cli/command.js";
import { runCli } from "../../../src/cli/run-cli.js";
import type { FakeDataJud } from "../../fakes/fake-datajud.js";
import { type FakeHeartbeat, startFakeHeartbeat } from "../../fakes/fake-heartbeat.js";
import {
  baseEnv,
  cliInProcess,
  emlFiles,
  moveCase,
  n,
  startDataJud,
  type Workspace,
  workspace,
} from "../../support/cli-harness.js";
import { readIcs } from "../../support/ics-reader.js";
import { sample } from "../../support/prometheus-text.js";
import { waitFor } from "../../support/wait-for.js";

const TOKEN = "operations-token-0123456789abcdef";
const P = "datajud_monitor_";

let datajud: FakeDataJud;
let heartbeat: FakeHeartbeat;
let ws: Workspace;
let logs = "";
let base = "";
let stop: AbortController;
let exit: Promise<number>;
let env: Record<string, string>;

function get(path: string, token: string | null = TOKEN): Promise<Response> {
  return fetch(
    `${base}${path}`,
    token === null ? {} : { headers: { authorization: `Bearer ${token}` } },
  );
}

/** fetch will not send another Host: a DNS-rebinding page's request, by hand. */
function statusAsHost(path: string, host: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    request(`${base}${path}`, { headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode);
    })
      .on("error", reject)
      .end();
  });
}

async function metricsText(): Promise<string> {
  return (await get("/metrics")).text();
}

/** Polls /metrics until `holds` is true of it. */
async function metricsWhen(holds: (text: string) => boolean, what: string): Promise<string> {
  let text = "";
  let asking = false;
  await waitFor(() => {
    if (!asking) {
      asking = true;
      metricsText()
        .then((t) => {
          text = t;
        })
        .catch(() => undefined)
        .finally(() => {
          asking = false;
        });
    }
    return holds(text);
  }, what);
  return text;
}

function sweepsOk(text: string): number {
  return sample(text, `${P}sweeps_total`, { trigger: "schedule", result: "ok" }) ?? 0;
}

beforeAll(async () => {
  datajud = await startDataJud("operations-key");
  heartbeat = await startFakeHeartbeat();
  ws = workspace("daemon-operations-");
  const config = join(ws.dir, "monitor.yaml");
  // A sweep every second, on the real clock: the scheduler is what is under test.
  writeFileSync(
    config,
    'schedule:\n  cron: "* * * * * *"\n  startJitterSeconds: 0\nhttp:\n  listen: "127.0.0.1:0"\ncalendarFeed:\n  serve: true\n',
  );
  env = baseEnv(ws, datajud, {
    MONITOR_CONFIG: config,
    MONITOR_LOG_LEVEL: "info",
    MCP_HTTP_TOKEN: TOKEN,
    MONITOR_HEARTBEAT_URL: `${heartbeat.url}/ping/check-uuid`,
  });
  stop = new AbortController();
  const io: CliIo = {
    argv: ["daemon"],
    env,
    cwd: ws.dir,
    stdout: { write: () => undefined },
    stderr: {
      write: (chunk: string) => {
        logs += chunk;
      },
    },
    signal: stop.signal,
  };
  exit = runCli(io);
  await waitFor(() => /"msg":"HTTP server listening"/.test(logs), "the HTTP server");
  base = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(logs)?.[1] ?? "";
}, 30_000);

afterAll(async () => {
  stop?.abort();
  await exit;
  await heartbeat?.close();
  await datajud?.close();
});

describe("the daemon's operations endpoints", () => {
  it("counts its sweeps, DataJud's answers and the cases they left, and pings the heartbeat", async () => {
    const text = await metricsWhen((t) => sweepsOk(t) >= 1, "a first scheduled sweep");

    expect(
      sample(text, `${P}datajud_requests_total`, { index: "api_publica_tjdft", status: "200" }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, `${P}datajud_request_duration_seconds_count`, { index: "api_publica_tjdft" }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, `${P}sweep_duration_seconds_count`, { trigger: "schedule" })).toBe(
      sweepsOk(text),
    );
    const cases = ["baseline", "unchanged"].reduce(
      (sum, outcome) => sum + (sample(text, `${P}cases`, { outcome }) ?? 0),
      0,
    );
    expect(cases).toBe(3);
    expect(text).toContain("process_resident_memory_bytes");
    await waitFor(() => heartbeat.pings.length >= 1, "a heartbeat ping");
    expect(heartbeat.pings[0]?.path).toBe("/ping/check-uuid");
  });

  it("counts the alert a moved case sends, and the outbox row it leaves", async () => {
    moveCase(datajud, "trt2", n.trt2Reclamacao);

    const text = await metricsWhen(
      (t) => (sample(t, `${P}mails_total`, { result: "sent" }) ?? 0) >= 1,
      "the alert sent",
    );

    expect(sample(text, `${P}outbox_rows`, { state: "sent" })).toBeGreaterThanOrEqual(1);
    expect(emlFiles(ws).length).toBeGreaterThanOrEqual(1);
  });

  it("answers /livez and /readyz without the token, /metrics only with it", async () => {
    const live = await get("/livez", null);
    const ready = await get("/readyz", null);
    const metrics = await get("/metrics", null);

    expect(live.status).toBe(200);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: "ready",
      checks: [
        { name: "database", ok: true, problem: null },
        { name: "watchlist", ok: true, problem: null },
        { name: "sweep", ok: true, problem: null },
      ],
    });
    expect(metrics.status).toBe(401);
  });

  it("is not ready while the watchlist file's last edit is invalid, and ready again once fixed", async () => {
    const good = `defaults:\n  notify: [ana@example.com]\ncases:\n  - number: "${n.tjdftDespejo}"\n`;
    writeFileSync(ws.watchlistPath, "cases:\n  - number: 123\n");
    await waitFor(() => logs.includes("keeping the last good one"), "the invalid edit");

    const broken = await get("/readyz", null);
    writeFileSync(ws.watchlistPath, good);
    await waitFor(() => logs.includes("watchlist reloaded"), "the fix");
    const fixed = await get("/readyz", null);

    expect(broken.status).toBe(503);
    const body = (await broken.json()) as { checks: Array<{ name: string; ok: boolean }> };
    expect(body.checks.find((c) => c.name === "watchlist")?.ok).toBe(false);
    expect(fixed.status).toBe(200);
  });

  it("serves a watcher's calendar at its private address only, and never logs the address", async () => {
    const created = await cliInProcess(
      ["calendar-token", "create", "--watcher", "ana@example.com", "--label", "Ana, Outlook"],
      env,
      ws.dir,
    );
    const path = new URL(created.stdout.trim()).pathname;
    const token = path.slice("/calendar/".length, -".ics".length);
    const wrong = `/calendar/${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}.ics`;

    const served = await get(path, null);
    const refused = await get(wrong, null);
    const rebound = await statusAsHost(path, "evil.example");
    const revoked = await cliInProcess(["calendar-token", "revoke", "1"], env, ws.dir);
    const afterRevoke = await get(path, null);

    expect(created.code).toBe(0);
    expect(path).toMatch(/^\/calendar\/cal_[A-Za-z0-9_-]{43}\.ics$/u);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(readIcs(await served.text()).calendar.getFirstPropertyValue("x-wr-calname")).toBe(
      "Prazos e sessões: ana@example.com",
    );
    expect(refused.status).toBe(404);
    expect(rebound).toBe(421);
    expect(revoked.code).toBe(0);
    expect(afterRevoke.status).toBe(404);
    expect(logs).toContain('"path":"/calendar/…"');
    expect(logs).not.toContain(token);
  });
});
