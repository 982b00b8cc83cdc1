#!/usr/bin/env node
import { programName } from "./command.js";
import { runCli } from "./run-cli.js";

// Messages start with the name the user typed: `datajud-monitor` or its alias `monitor`.
const program = programName(process.argv[1]);

const controller = new AbortController();
let signals = 0;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    signals++;
    // A second signal means "now": the first one lets the current case finish.
    if (signals > 1) process.exit(130);
    controller.abort(new Error(`received ${signal}`));
  });
}

try {
  const code = await runCli({
    argv: process.argv.slice(2),
    env: process.env,
    cwd: process.cwd(),
    stdout: process.stdout,
    stderr: process.stderr,
    signal: controller.signal,
    program,
  });
  process.exitCode = code;
} catch (error) {
  process.stderr.write(
    `${program}: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 70;
}
