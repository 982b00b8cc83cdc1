import { spawn } from "node:child_process";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { inject } from "vitest";

export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const CLI_ENTRY = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));

/** Resolved here, so a child started in a temp directory still finds the loader. */
const TSX_LOADER = import.meta.resolve("tsx");

/**
 * The arguments for Node to run one of the repository's TypeScript files in a child process: its
 * JavaScript from the run's compiled copy (test/support/compiled-source.ts), else through tsx.
 */
export function nodeArgs(script: string): string[] {
  const compiled = inject("compiledRoot") as string | undefined;
  if (compiled === undefined) return ["--import", TSX_LOADER, script];
  return [join(compiled, relative(REPO_ROOT, script)).replace(/\.ts$/, ".js")];
}

/** How tests start the CLI: the source, compiled as tsx would, the same code the build ships. */
export function cliCommand(): { command: string; args: string[] } {
  return { command: process.execPath, args: nodeArgs(CLI_ENTRY) };
}

/**
 * A command run as root, but without the capabilities that let root read, write and enter what
 * its permissions forbid (util-linux's setpriv drops them from the bounding set before exec): it
 * meets a directory's mode as its owner would. Not another user such as nobody: that user could
 * not reach a checkout inside a private directory (a home, `mktemp -d`), nor the copy the run
 * compiled there.
 */
export function withFilePermissions(run: { command: string; args: string[] }): {
  command: string;
  args: string[];
} {
  return {
    command: "setpriv",
    args: ["--bounding-set=-dac_override,-dac_read_search,-fowner", run.command, ...run.args],
  };
}

/** An environment without the developer's own settings leaking into a test. */
export function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const keep = ["PATH", "HOME", "TMPDIR", "LANG", "SystemRoot"];
  const env: Record<string, string> = { NO_COLOR: "1" };
  for (const key of keep) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return { ...env, ...extra };
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function runCliProcess(
  argv: readonly string[],
  options: {
    env: Record<string, string>;
    cwd: string;
    timeoutMs?: number;
    /**
     * Run as root without the capabilities that let root ignore file permissions (a test
     * checking what a user who may not write somewhere is told). See `withFilePermissions`.
     */
    filePermissions?: boolean;
  },
): Promise<CliRun> {
  const cli = cliCommand();
  const { command, args } = options.filePermissions ? withFilePermissions(cli) : cli;
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args, ...argv], {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 30_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
