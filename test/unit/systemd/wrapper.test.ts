import { spawnSync } from "node:child_process";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../support/temp-dir.js";

/*
 * systemd/datajud-monitor, the wrapper that runs a command as the service does, reads the unit
 * (`systemctl cat`: the file and its drop-ins) each time: every credential the unit loads, the
 * wrapper passes. Run here with a fake `systemctl` that prints the repository's unit and a
 * drop-in, and a fake `systemd-run` that prints what it was given.
 */

const WRAPPER = fileURLToPath(new URL("../../../systemd/datajud-monitor", import.meta.url));
const UNIT_FILE = fileURLToPath(
  new URL("../../../systemd/datajud-monitor.service", import.meta.url),
);
const UNIT = readFileSync(UNIT_FILE, "utf8");

const DROP_IN = `[Service]
# a chat endpoint of notify.endpoints, and more logging
LoadCredential=SLACK_WEBHOOK_URL:datajud-monitor.SLACK_WEBHOOK_URL
Environment=MONITOR_LOG_LEVEL=debug
`;

function run(
  args: string[],
  dropIn: string = DROP_IN,
  unit: string | null = UNIT,
): { code: number | null; argv: string[]; stderr: string } {
  const dir = makeTempDir("wrapper-");
  const catted =
    unit === null
      ? null
      : `# /etc/systemd/system/datajud-monitor.service\n${unit}\n# /etc/systemd/system/datajud-monitor.service.d/override.conf\n${dropIn}`;
  if (catted !== null) writeFileSync(join(dir, "unit.txt"), catted);
  writeFileSync(
    join(dir, "systemctl"),
    catted === null
      ? "#!/bin/sh\necho 'No files found for datajud-monitor.service.' >&2\nexit 1\n"
      : `#!/bin/sh\n[ "$1" = cat ] && [ "$3" = datajud-monitor.service ] || exit 3\ncat '${join(dir, "unit.txt")}'\n`,
  );
  writeFileSync(
    join(dir, "systemd-run"),
    '#!/bin/sh\nfor a in "$@"; do printf \'%s\\0\' "$a"; done\n',
  );
  chmodSync(join(dir, "systemctl"), 0o755);
  chmodSync(join(dir, "systemd-run"), 0o755);
  const result = spawnSync("bash", [WRAPPER, ...args], {
    env: { PATH: `${dir}:/usr/bin:/bin` },
    encoding: "utf8",
  });
  return {
    code: result.status,
    argv: result.stdout.split("\0").slice(0, -1),
    stderr: result.stderr,
  };
}

/** The unit's own values of a key, as systemd reads the file (no drop-in). */
function unitValues(key: string): string[] {
  return UNIT.split("\n")
    .map((l) => l.trim())
    .filter((l) => l.startsWith(`${key}=`))
    .map((l) => l.slice(key.length + 1));
}

describe("systemd/datajud-monitor (the wrapper)", () => {
  it("passes every credential of the unit and its drop-ins, then the program and the command", () => {
    const { code, argv, stderr } = run(["run-once", "--case", "0713383-43.2025.8.07.0006"]);

    expect(stderr).toBe("");
    expect(code).toBe(0);
    const credentials = argv.filter((a) => a.startsWith("--property=LoadCredential="));
    expect(credentials).toEqual([
      ...unitValues("LoadCredential").map((v) => `--property=LoadCredential=${v}`),
      "--property=LoadCredential=SLACK_WEBHOOK_URL:datajud-monitor.SLACK_WEBHOOK_URL",
    ]);
    // The ones the old hand-written wrapper left out are there.
    for (const name of ["WEBHOOK_URL", "WEBHOOK_SECRET", "MCP_HTTP_TOKEN"]) {
      expect(credentials.some((c) => c.startsWith(`--property=LoadCredential=${name}:`))).toBe(
        true,
      );
    }
    expect(argv.slice(0, 4)).toEqual(["--quiet", "--wait", "--pipe", "--collect"]);
    expect(argv).toContain("--property=User=datajud-monitor");
    expect(argv).toContain("--property=Group=datajud-monitor");
    expect(argv).toContain("--property=StateDirectory=datajud-monitor");
    expect(argv).toContain("--property=WorkingDirectory=/var/lib/datajud-monitor");
    expect(argv).toContain(
      "--property=Environment=MONITOR_CONFIG=/etc/datajud-monitor/monitor.yaml",
    );
    expect(argv).toContain("--property=Environment=MONITOR_LOG_LEVEL=debug");
    expect(argv.slice(argv.indexOf("--"))).toEqual([
      "--",
      "/usr/bin/node",
      "/opt/datajud-monitor/dist/src/cli/main.js",
      "run-once",
      "--case",
      "0713383-43.2025.8.07.0006",
    ]);
    // Nothing the wrapper does not read: the hardening stays the unit's own.
    expect(
      argv.filter((a) => a.startsWith("--property=")).map((a) => a.split("=")[1]),
    ).not.toContain("ProtectSystem");
  });

  it("reads a drop-in as systemd does: an empty LoadCredential= clears the list, a new ExecStart= replaces the program", () => {
    const { code, argv } = run(
      ["status"],
      "[Service]\nLoadCredential=\nLoadCredential=DATAJUD_API_KEY:/srv/keys/datajud\nExecStart=\nExecStart=/usr/local/bin/node \\\n  /srv/monitor/main.js daemon\n",
    );

    expect(code).toBe(0);
    expect(argv.filter((a) => a.startsWith("--property=LoadCredential="))).toEqual([
      "--property=LoadCredential=DATAJUD_API_KEY:/srv/keys/datajud",
    ]);
    expect(argv.slice(argv.indexOf("--"))).toEqual([
      "--",
      "/usr/local/bin/node",
      "/srv/monitor/main.js",
      "status",
    ]);
  });

  it("says what to do when the unit is not installed, or when called with no command", () => {
    const missing = run(["status"], "", null);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("the unit datajud-monitor.service is not installed");
    expect(missing.argv).toEqual([]);

    const bare = run([]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain("usage: datajud-monitor COMMAND");
  });
});
