/**
 * The daemon in a child of its own, as `monitor daemon` runs it (runCli), its logs read for the
 * address of its HTTP server, which is sent to the bench over IPC: `{ type: "listening", url }`.
 * It stops on `{ type: "stop" }`. Environment and configuration come from the bench.
 */
import type { CliIo } from "../../src/cli/command.js";
import { boundHeapGrowth } from "../../src/cli/heap.js";
import { runCli } from "../../src/cli/run-cli.js";

// As src/cli/main.ts does before anything else.
boundHeapGrowth();

let logs = "";
let told = false;
const stop = new AbortController();
const io: CliIo = {
  argv: ["daemon"],
  env: Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
  ),
  cwd: process.cwd(),
  stdout: { write: () => undefined },
  stderr: {
    write: (chunk: string) => {
      if (told) return;
      logs += chunk;
      for (const line of logs.split("\n")) {
        let entry: { msg?: unknown; url?: unknown };
        try {
          entry = JSON.parse(line) as { msg?: unknown; url?: unknown };
        } catch {
          continue;
        }
        if (entry.msg === "HTTP server listening" && typeof entry.url === "string") {
          told = true;
          process.send?.({ type: "listening", url: entry.url });
          return;
        }
      }
    },
  },
  signal: stop.signal,
};
process.on("message", (message: { type: string }) => {
  if (message.type === "stop") stop.abort();
});
const code = await runCli(io);
if (!told) process.stderr.write(logs.slice(-4000));
process.exit(code);
