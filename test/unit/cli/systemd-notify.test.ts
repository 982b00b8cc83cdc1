import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { systemdNotifier } from "../../../src/cli/systemd-notify.js";
import { makeTempDir } from "../../support/temp-dir.js";

/** A systemd-notify on PATH that records its arguments and the socket it was given. */
function fakeSystemdNotify(exitCode = 0): { bin: string; calls: () => string[] } {
  const bin = makeTempDir("fake-systemd-notify-");
  const log = join(bin, "calls");
  writeFileSync(
    join(bin, "systemd-notify"),
    `#!/bin/sh\necho "$* $NOTIFY_SOCKET" >> "${log}"\n${exitCode === 0 ? "" : "echo 'Failed to notify' >&2\n"}exit ${exitCode}\n`,
  );
  chmodSync(join(bin, "systemd-notify"), 0o755);
  return {
    bin,
    calls: () => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []),
  };
}

function recordingLogger() {
  const lines: Array<{ level: string; message: string }> = [];
  const at = (level: string) => (_fields: unknown, message: string) =>
    lines.push({ level, message });
  return { lines, logger: { error: at("error"), warn: at("warn") } as never };
}

describe("telling systemd the daemon is ready (Type=notify)", () => {
  it("runs systemd-notify READY=1, then STOPPING=1, with the unit's NOTIFY_SOCKET", async () => {
    const fake = fakeSystemdNotify();
    const { lines, logger } = recordingLogger();
    const env = { PATH: `${fake.bin}:/usr/bin:/bin`, NOTIFY_SOCKET: "/run/systemd/notify" };
    const systemd = systemdNotifier(env, logger);
    await systemd.tell("READY=1");
    await systemd.tell("STOPPING=1");
    expect(fake.calls()).toEqual(["READY=1 /run/systemd/notify", "STOPPING=1 /run/systemd/notify"]);
    expect(lines).toEqual([]);
  });

  it("does nothing outside a Type=notify unit (no NOTIFY_SOCKET)", async () => {
    const fake = fakeSystemdNotify();
    const systemd = systemdNotifier(
      { PATH: `${fake.bin}:/usr/bin:/bin` },
      recordingLogger().logger,
    );
    await systemd.tell("READY=1");
    expect(fake.calls()).toEqual([]);
  });

  it("says what to do when systemd-notify fails or is missing, and never throws", async () => {
    const failing = fakeSystemdNotify(1);
    const { lines, logger } = recordingLogger();
    const env = { PATH: `${failing.bin}:/usr/bin:/bin`, NOTIFY_SOCKET: "/run/systemd/notify" };
    await systemdNotifier(env, logger).tell("READY=1");
    await systemdNotifier(env, logger).tell("STOPPING=1");
    const empty = makeTempDir("no-systemd-notify-");
    await systemdNotifier({ PATH: empty, NOTIFY_SOCKET: "/run/systemd/notify" }, logger).tell(
      "READY=1",
    );
    expect(lines.map((l) => l.level)).toEqual(["error", "warn", "error"]);
    expect(lines[0]?.message).toMatch(/TimeoutStartSec.*NotifyAccess=all.*Type=exec/);
  });
});
