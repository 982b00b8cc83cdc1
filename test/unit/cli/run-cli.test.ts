import { describe, expect, it } from "vitest";
import { type CliIo, programName } from "../../../src/cli/command.js";
import { COMMANDS } from "../../../src/cli/commands.js";
import { runCli } from "../../../src/cli/run-cli.js";

function io(argv: string[]): CliIo & { out: () => string; err: () => string } {
  let out = "";
  let err = "";
  return {
    argv,
    env: {},
    cwd: process.cwd(),
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    signal: new AbortController().signal,
    out: () => out,
    err: () => err,
  };
}

describe("monitor CLI entry", () => {
  it("lists every command with --help", async () => {
    const run = io(["--help"]);

    const code = await runCli(run);

    expect(code).toBe(0);
    for (const command of COMMANDS) expect(run.out()).toContain(command.name);
  });

  it("exits 2 with a usage line for an unknown command", async () => {
    const run = io(["frobnicate"]);

    const code = await runCli(run);

    expect(code).toBe(2);
    expect(run.err()).toContain('unknown command "frobnicate"');
    expect(run.err()).toContain("usage: datajud-monitor <command>");
  });

  it.each(COMMANDS.map((c) => c.name))("%s --help prints its usage and exits 0", async (name) => {
    const run = io([name, "--help"]);

    const code = await runCli(run);

    expect(code).toBe(0);
    expect(run.out()).toContain(`usage: datajud-monitor ${name}`);
  });

  it.each(COMMANDS.map((c) => c.name))("%s rejects an unknown flag with exit 2", async (name) => {
    const run = io([name, "--no-such-flag"]);

    const code = await runCli(run);

    expect(code).toBe(2);
    expect(run.err()).toContain("--no-such-flag");
    expect(run.err()).toContain(`usage: datajud-monitor ${name}`);
  });

  it("suggests the closest flag for a misspelt one, without Node's parser text", async () => {
    const run = io(["run-once", "--dryrun"]);

    const code = await runCli(run);

    expect(code).toBe(2);
    expect(run.err()).toBe(
      "datajud-monitor run-once: unknown option --dryrun; did you mean --dry-run?\nusage: datajud-monitor run-once [--case CNJ]... [--force] [--dry-run] [--json]\n",
    );
  });

  it.each([
    [["status", "--jsn"], "unknown option --jsn; did you mean --json?"],
    [["run-once", "--case"], "--case needs a value, as in --case VALUE"],
    [
      ["run-once", "--case", "--force"],
      "--case needs a value, as in --case VALUE (--force is an option)",
    ],
    [["run-once", "--json=yes"], "--json takes no value; write it alone"],
    [["validate", "extra"], 'unexpected argument "extra"'],
    [["doctor", "-x"], "unknown option -x; this command takes only --help"],
  ])("%j is refused in plain words: %s", async (argv, message) => {
    const run = io(argv);

    const code = await runCli(run);

    expect(code).toBe(2);
    expect(run.err()).toContain(message);
    expect(run.err()).not.toMatch(/Unknown option '|To specify a positional|ERR_PARSE_ARGS/);
  });

  it("suggests the closest command for a misspelt one", async () => {
    const run = io(["run-onec"]);

    const code = await runCli(run);

    expect(code).toBe(2);
    expect(run.err()).toContain('unknown command "run-onec"; did you mean "run-once"?');
  });

  it("names datajud-monitor, and monitor as its alias, in the overview", async () => {
    const run = io(["--help"]);

    await runCli(run);

    expect(run.out()).toMatch(/^usage: datajud-monitor <command>/);
    expect(run.out()).toContain("`monitor` is the same command");
  });
});

describe("programName: messages start with the name the user typed", () => {
  it("keeps monitor and datajud-monitor as installed, and names anything else datajud-monitor", () => {
    expect(programName("/usr/lib/node_modules/.bin/monitor")).toBe("monitor");
    expect(programName("/srv/app/node_modules/.bin/datajud-monitor")).toBe("datajud-monitor");
    expect(programName("C:\\app\\node_modules\\.bin\\monitor.js")).toBe("monitor");
    expect(programName("/work/repo/src/cli/main.ts")).toBe("datajud-monitor");
    expect(programName(undefined)).toBe("datajud-monitor");
  });

  it("starts a command's error with it", async () => {
    const typed = { ...io(["run-once", "--dryrun"]), program: "monitor" };

    const code = await runCli(typed);

    expect(code).toBe(2);
    expect(typed.err()).toMatch(/^monitor run-once: unknown option --dryrun/);
  });
});
