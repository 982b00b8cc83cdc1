#!/usr/bin/env node
import { interruptedBeforeStartCode, interruptedBeforeStartLine } from "./early-interrupt.js";
import { boundHeapGrowth } from "./heap.js";
import { programName } from "./program-name.js";

// Before anything allocates: how far the heap may grow between full collections (heap.ts).
boundHeapGrowth();

// Only modules that import nothing (or only Node's own) are imported statically: ESM evaluates
// imports before this body, and loading the rest of the CLI takes long enough (hundreds of ms
// through tsx) for a Ctrl-C to land there and end the process silently, before any handler was
// installed.

// Messages start with the name the user typed: `datajud-monitor` or its alias `monitor`.
const program = programName(process.argv[1]);
const commandName = process.argv[2];

const controller = new AbortController();
/** Set once the CLI is loaded: from then on a signal stops the command, which says what it did. */
let loaded = false;
let signals = 0;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    signals++;
    if (!loaded) {
      process.stderr.write(interruptedBeforeStartLine(program, commandName));
      process.exit(interruptedBeforeStartCode(commandName));
    }
    // A second signal means "now": the first one lets the current case finish.
    if (signals > 1) process.exit(130);
    controller.abort(new Error(`received ${signal}`));
  });
}

try {
  const { runCli } = await import("./run-cli.js");
  loaded = true;
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
