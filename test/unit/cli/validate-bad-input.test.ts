import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli } from "../../../src/cli/run-cli.js";
import { computeCheckDigits, formatCnjNumber } from "../../../src/datajud/cnj-number.js";
import { captureIo } from "../../support/cli-io.js";
import { makeTempDir } from "../../support/temp-dir.js";

const FIXTURES = fileURLToPath(new URL("../../fixtures/watchlists/", import.meta.url));

async function validate(watchlist: string): Promise<{ code: number; out: string; err: string }> {
  const dir = makeTempDir("validate-bad-");
  const io = captureIo({ PATH: process.env.PATH ?? "", MONITOR_WATCHLIST: watchlist }, dir, [
    "validate",
  ]);
  const code = await runCli(io);
  return { code, out: io.out(), err: io.err() };
}

/** The error lines, as [line, col, message], with the file prefix checked and dropped. */
function positioned(stderr: string, file: string): Array<[number, number, string]> {
  return stderr
    .split("\n")
    .filter((l) => l.startsWith(`${file}:`) && !l.startsWith(`${file}: `))
    .map((l) => {
      const match = /^:(\d+):(\d+) (.*)$/.exec(l.slice(file.length));
      if (!match) throw new Error(`not file:line:col message: ${l}`);
      return [Number(match[1]), Number(match[2]), match[3] ?? ""];
    });
}

describe("monitor validate on watchlist.example.yaml as the README's quickstart copies it", () => {
  it("exits 0 with the default configuration: the example names no endpoint the config lacks", async () => {
    const example = fileURLToPath(new URL("../../../watchlist.example.yaml", import.meta.url));

    const run = await validate(example);

    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain("OK,");
  });
});

describe("monitor validate on a watchlist with every kind of mistake", () => {
  it("exits 2 with one file:line:col error per mistake", async () => {
    const file = join(FIXTURES, "every-mistake.yaml");

    const run = await validate(file);

    expect(run.code).toBe(2);
    expect(run.out).toBe("");
    const errors = positioned(run.err, file);
    expect(errors.map(([line, col]) => [line, col])).toEqual([
      [4, 13],
      [5, 13],
      [6, 13],
      [7, 13],
      [9, 13],
      [11, 5],
      [13, 14],
      [13, 28],
    ]);
    const messages = errors.map(([, , m]) => m);
    expect(messages[0]).toContain("should be 43");
    expect(messages[1]).toContain("this has 19");
    expect(messages[2]).toContain("this has 21");
    expect(messages[3]).toContain("letters are not allowed");
    expect(messages[4]).toContain("already listed on line 8");
    expect(messages[5]).toContain('unknown key "colour"');
    expect(messages[6]).toContain('"not-an-email" is not an e-mail address');
    expect(messages[7]).toContain('"ana@@example.com" is not an e-mail address');
    expect(run.err).toContain(`${file}: 8 error(s)`);
  });

  it.each([
    ["tabs.yaml", 3, 1, "tab is used for indentation"],
    ["latin1.yaml", 3, 14, "byte 0xE7 is not UTF-8"],
  ])("exits 2 for %s at its line and column", async (name, line, col, message) => {
    const file = join(FIXTURES, name);

    const run = await validate(file);

    expect(run.code).toBe(2);
    const [first] = positioned(run.err, file);
    expect(first?.slice(0, 2)).toEqual([line, col]);
    expect(first?.[2]).toContain(message);
  });

  it("accepts a 10,000-case watchlist", async () => {
    const rows = ["defaults:", "  notify: [escritorio@example.com]", "cases:"];
    for (let i = 0; i < 10_000; i += 1) {
      const sequence = String(i + 1).padStart(7, "0");
      const check = computeCheckDigits(sequence, "2024", "8", "26", "0100");
      rows.push(`  - number: "${formatCnjNumber(`${sequence}${check}20248260100`)}"`);
    }
    const file = join(makeTempDir("validate-big-"), "watchlist.yaml");
    writeFileSync(file, `${rows.join("\n")}\n`);

    const run = await validate(file);

    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain("OK, 10000 case(s) in 1 court(s)");
  });
});

describe("monitor validate on paths that are no file", () => {
  it("refuses /dev/zero and a FIFO as the watchlist, and as the config, with one line each", async () => {
    const dir = makeTempDir("validate-odd-");
    const pipe = join(dir, "fifo");
    execFileSync("mkfifo", [pipe]);
    const run = async (env: NodeJS.ProcessEnv): Promise<{ code: number; err: string }> => {
      const io = captureIo({ PATH: process.env.PATH ?? "", ...env }, dir, ["validate"]);
      const code = await runCli(io);
      return { code, err: io.err() };
    };

    const zeroWatchlist = await run({ MONITOR_WATCHLIST: "/dev/zero" });
    const pipeWatchlist = await run({ MONITOR_WATCHLIST: pipe });
    const zeroConfig = await run({ MONITOR_CONFIG: "/dev/zero" });
    const pipeSecret = await run({ DATAJUD_API_KEY_FILE: pipe });

    expect(zeroWatchlist.code).toBe(2);
    expect(zeroWatchlist.err).toContain(
      "/dev/zero:1:1 it is a device (such as /dev/zero), not a file; MONITOR_WATCHLIST must name a YAML file",
    );
    expect(pipeWatchlist.code).toBe(2);
    expect(pipeWatchlist.err).toContain("it is a named pipe (FIFO), not a file");
    expect(zeroConfig.code).toBe(2);
    expect(zeroConfig.err).toContain(
      "/dev/zero: cannot read the config file (it is a device (such as /dev/zero), not a file)",
    );
    expect(pipeSecret.code).toBe(2);
    expect(pipeSecret.err).toContain(
      `DATAJUD_API_KEY_FILE (${pipe}): cannot read the file (it is a named pipe (FIFO), not a file)`,
    );
  });
});

describe("a malformed heartbeat URL holding credentials", () => {
  it("is never echoed by validate, run-once or doctor", async () => {
    const dir = makeTempDir("validate-heartbeat-");
    const url = "https//ops:hb-pa55word@hc-ping.example/7e1e-capability";
    const outputs: string[] = [];

    for (const command of ["validate", "run-once", "doctor"]) {
      const io = captureIo(
        {
          PATH: process.env.PATH ?? "",
          MONITOR_HEARTBEAT_URL: url,
          DATAJUD_API_KEY: "k".repeat(20),
        },
        dir,
        [command],
      );
      const code = await runCli(io);
      outputs.push(`${command} ${code}: ${io.out()}${io.err()}`);
    }

    expect(outputs.join("\n")).toContain("MONITOR_HEARTBEAT_URL (monitor.heartbeatUrl): is not an");
    expect(outputs.join("\n")).not.toMatch(/pa55word|7e1e-capability|ops:|hc-ping\.example/);
  });
});

describe("monitor validate checks what the daemon checks at its start", () => {
  it("refuses a calendar feed on 0.0.0.0 without MCP_HTTP_TOKEN, at http.listen's line, and passes with a token", async () => {
    const dir = makeTempDir("validate-listen-");
    const config = join(dir, "monitor.yaml");
    writeFileSync(config, 'http:\n  listen: "0.0.0.0:8765"\ncalendarFeed:\n  serve: true\n');
    const watchlist = join(dir, "watchlist.yaml");
    writeFileSync(watchlist, "cases: []\n");
    const env = {
      PATH: process.env.PATH ?? "",
      MONITOR_CONFIG: config,
      MONITOR_WATCHLIST: watchlist,
    };
    const refused = captureIo(env, dir, ["validate"]);
    const withToken = captureIo({ ...env, MCP_HTTP_TOKEN: "t".repeat(32) }, dir, ["validate"]);

    const codes = [await runCli(refused), await runCli(withToken)];

    expect(codes).toEqual([2, 0]);
    expect(refused.err()).toMatch(
      new RegExp(
        `^${config}:2:\\d+ http\\.listen: the daemon would refuse to start \\(the calendar feed too\\): refusing to listen on 0\\.0\\.0\\.0:8765 without MCP_HTTP_TOKEN`,
        "u",
      ),
    );
  });
});
