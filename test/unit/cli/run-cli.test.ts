import { describe, expect, it } from "vitest";
import type { CliIo } from "../../../src/cli/command.js";
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
    expect(run.err()).toContain("usage: monitor <command>");
  });

  it.each(COMMANDS.map((c) => c.name))("%s --help prints its usage and exits 0", async (name) => {
    const run = io([name, "--help"]);

    const code = await runCli(run);

    expect(code).toBe(0);
    expect(run.out()).toContain(`usage: monitor ${name}`);
  });

  it.each(COMMANDS.map((c) => c.name))("%s rejects an unknown flag with exit 2", async (name) => {
    const run = io([name, "--no-such-flag"]);

    const code = await runCli(run);

    expect(code).toBe(2);
    expect(run.err()).toContain("--no-such-flag");
    expect(run.err()).toContain(`usage: monitor ${name}`);
  });
});
