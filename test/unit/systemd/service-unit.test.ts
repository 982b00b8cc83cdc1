import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ENV_ONLY_SETTINGS } from "../../../src/config/config-schema.js";

const UNIT = fileURLToPath(new URL("../../../systemd/datajud-monitor.service", import.meta.url));
const SYSUSERS = fileURLToPath(new URL("../../../systemd/sysusers.conf", import.meta.url));

type Sections = Map<string, Array<[string, string]>>;

/** systemd's unit syntax as far as this file uses it: sections, Key=Value, comments. */
function parseUnit(text: string): Sections {
  const sections: Sections = new Map();
  let current: Array<[string, string]> | undefined;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header?.[1]) {
      current = [];
      sections.set(header[1], current);
      continue;
    }
    const eq = line.indexOf("=");
    if (eq <= 0 || !current) throw new Error(`not a unit file line: ${line}`);
    current.push([line.slice(0, eq), line.slice(eq + 1)]);
  }
  return sections;
}

const unit = parseUnit(readFileSync(UNIT, "utf8"));

function values(section: string, key: string): string[] {
  return (unit.get(section) ?? []).filter(([k]) => k === key).map(([, v]) => v);
}

function one(section: string, key: string): string | undefined {
  const found = values(section, key);
  return found.length === 1 ? found[0] : undefined;
}

describe("systemd/datajud-monitor.service", () => {
  it("starts the built daemon with node directly, ready when it says so (Type=notify)", () => {
    expect(one("Service", "ExecStart")).toBe(
      "/usr/bin/node /opt/datajud-monitor/dist/src/cli/main.js daemon",
    );
    expect(one("Service", "Type")).toBe("notify");
    // READY=1 comes from systemd-notify, a child of the daemon (src/cli/systemd-notify.ts).
    expect(one("Service", "NotifyAccess")).toBe("all");
    expect(one("Service", "ExecReload")).toBe("/bin/kill -HUP $MAINPID");
    expect(one("Install", "WantedBy")).toBe("multi-user.target");
  });

  it("runs as the static user that sysusers.conf creates, with its own state and config directories", () => {
    const sysusers = readFileSync(SYSUSERS, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "" && !l.startsWith("#"))
      .map((l) => l.trim().split(/\s+/));

    expect(one("Service", "User")).toBe("datajud-monitor");
    expect(one("Service", "DynamicUser")).toBeUndefined();
    expect(sysusers.some(([type, name]) => type === "u" && name === "datajud-monitor")).toBe(true);
    expect(one("Service", "StateDirectory")).toBe("datajud-monitor");
    expect(one("Service", "ConfigurationDirectory")).toBe("datajud-monitor");
    expect(values("Service", "Environment")).toEqual([
      "MONITOR_CONFIG=/etc/datajud-monitor/monitor.yaml",
      "MONITOR_WATCHLIST=/etc/datajud-monitor/watchlist.yaml",
    ]);
  });

  it("passes every secret the config reads as a credential named like its variable", () => {
    const ids = values("Service", "LoadCredential").map((v) => v.split(":")[0]);

    expect(ids.sort()).toEqual(Object.values(ENV_ONLY_SETTINGS).sort());
    // Secrets never go into the environment, where `systemctl show` would print them.
    const env = values("Service", "Environment").join(" ");
    for (const name of Object.values(ENV_ONLY_SETTINGS)) expect(env).not.toContain(name);
  });

  it("restarts on failure within a start limit, but not on a configuration error", () => {
    expect(one("Service", "Restart")).toBe("on-failure");
    expect(Number(one("Unit", "StartLimitBurst"))).toBeGreaterThan(0);
    expect(one("Unit", "StartLimitIntervalSec")).toMatch(/^\d+/);
    expect(one("Service", "RestartPreventExitStatus")).toBe("2");
    expect(one("Service", "TimeoutStopSec")).toMatch(/^\d+s$/);
  });

  it("is hardened, without MemoryDenyWriteExecute (V8's JIT needs it off)", () => {
    const yes = [
      "NoNewPrivileges",
      "PrivateTmp",
      "PrivateDevices",
      "PrivateUsers",
      "ProtectHome",
      "ProtectKernelTunables",
      "ProtectKernelModules",
      "ProtectControlGroups",
      "RestrictNamespaces",
      "RestrictSUIDSGID",
      "LockPersonality",
    ];

    for (const key of yes) expect(one("Service", key), key).toBe("yes");
    expect(one("Service", "ProtectSystem")).toBe("strict");
    expect(one("Service", "CapabilityBoundingSet")).toBe("");
    expect(values("Service", "SystemCallFilter")).toContain("@system-service");
    expect(one("Service", "RestrictAddressFamilies")?.split(" ").sort()).toEqual([
      "AF_INET",
      "AF_INET6",
      "AF_UNIX",
    ]);
    expect(one("Service", "MemoryDenyWriteExecute")).toBeUndefined();
  });
});
