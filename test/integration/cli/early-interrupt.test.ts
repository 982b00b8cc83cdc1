import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../../src/cli/run-cli.js";
import type { FakeDataJud } from "../../fakes/fake-datajud.js";
import { baseEnv, query, startDataJud, workspace } from "../../support/cli-harness.js";
import { captureIo } from "../../support/cli-io.js";
import { cliCommand } from "../../support/cli-process.js";

// Issue 30: a Ctrl-C while the CLI started ended the process without a word.

const LINE = "datajud-monitor: interrupted before the sweep started; nothing was written\n";

/**
 * Loaded before the entry point: says on stderr when a SIGINT listener is added, so the test
 * sends its Ctrl-C the moment the entry point can catch one (while the rest of the CLI loads),
 * not after a guessed delay.
 */
const MARK = "[test] SIGINT listener added";
const PRELOAD = `data:text/javascript,${encodeURIComponent(
  `const on = process.on.bind(process);
process.on = (event, listener) => {
  const result = on(event, listener);
  if (event === "SIGINT") process.stderr.write(${JSON.stringify(`${MARK}\n`)});
  return result;
};`,
)}`;

let datajud: FakeDataJud;

beforeAll(async () => {
  datajud = await startDataJud("early-key");
});

afterAll(async () => {
  await datajud.close();
});

describe("Ctrl-C before the sweep started", () => {
  it("while the CLI loads: one line, exit 1, nothing written", async () => {
    const ws = workspace("early-interrupt-");
    const { command, args } = cliCommand();
    const child = spawn(command, ["--import", PRELOAD, ...args, "run-once"], {
      cwd: ws.dir,
      env: baseEnv(ws, datajud),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      const before = stderr;
      stderr += chunk.toString("utf8");
      if (!before.includes(MARK) && stderr.includes(MARK)) child.kill("SIGINT");
    });
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.once("close", (c, s) => resolve([c, s])),
    );

    expect(signal).toBeNull();
    expect(stderr.replace(`${MARK}\n`, "")).toBe(LINE);
    expect(stdout).toBe("");
    expect(code).toBe(1);
    // No sweep was opened: no database, or one without a run.
    if (existsSync(ws.dbPath)) expect(query(ws, "SELECT id FROM runs")).toEqual([]);
    expect(datajud.requests.length).toBe(0);
  });

  it("while the configuration and the database were read: the same line, no sweep opened", async () => {
    const ws = workspace("early-interrupt-loaded-");
    const io = captureIo(baseEnv(ws, datajud), ws.dir, ["run-once"]);
    const controller = new AbortController();
    controller.abort(new Error("received SIGINT"));
    const code = await runCli({ ...io, signal: controller.signal });

    expect(code).toBe(1);
    expect(io.err()).toBe(LINE);
    expect(io.out()).toBe("");
    expect(query(ws, "SELECT id FROM runs")).toEqual([]);
  });
});
