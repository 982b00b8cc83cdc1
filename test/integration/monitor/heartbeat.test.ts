import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FakeDataJud } from "../../fakes/fake-datajud.js";
import { type FakeHeartbeat, startFakeHeartbeat } from "../../fakes/fake-heartbeat.js";
import {
  baseEnv,
  closedPort,
  loadFixtures,
  runOnce,
  startDataJud,
  type Workspace,
  workspace,
} from "../../support/cli-harness.js";

let datajud: FakeDataJud;
let service: FakeHeartbeat;
let ws: Workspace;

function env(extra: Record<string, string> = {}): Record<string, string> {
  return baseEnv(ws, datajud, {
    MONITOR_HEARTBEAT_URL: `${service.url}/ping/secret-check-uuid`,
    ...extra,
  });
}

beforeAll(async () => {
  datajud = await startDataJud("heartbeat-key");
  service = await startFakeHeartbeat();
});

afterAll(async () => {
  await service.close();
  await datajud.close();
});

beforeEach(() => {
  loadFixtures(datajud);
  service.pings.length = 0;
  service.status = 200;
  ws = workspace("heartbeat-");
});

describe("monitor.heartbeatUrl", () => {
  it("is pinged once after a sweep, before run-once exits", async () => {
    const run = await runOnce(ws, env());

    expect(run.code).toBe(0);
    expect(service.pings.map((p) => p.path)).toEqual(["/ping/secret-check-uuid"]);
  });

  it("gets /fail when DataJud could not be reached", async () => {
    const port = await closedPort();

    const run = await runOnce(ws, env({ DATAJUD_BASE_URL: `http://127.0.0.1:${port}` }));

    expect(run.code).toBe(1);
    expect(run.report.unreachable).not.toBeNull();
    expect(service.pings.map((p) => p.path)).toEqual(["/ping/secret-check-uuid/fail"]);
  });

  it("is not pinged by a dry run", async () => {
    const run = await runOnce(ws, env(), "--dry-run");

    expect(run.code).toBe(0);
    expect(service.pings).toHaveLength(0);
  });

  it("a ping the service refuses changes nothing of the sweep, and the URL stays out of the log", async () => {
    service.status = 500;

    const run = await runOnce(ws, env({ MONITOR_LOG_LEVEL: "info" }));

    expect(run.code).toBe(0);
    expect(run.report.checked).toBe(3);
    expect(service.pings).toHaveLength(1);
    expect(run.stderr).toContain("heartbeat ping refused");
    expect(run.stderr).not.toContain("secret-check-uuid");
  });
});
