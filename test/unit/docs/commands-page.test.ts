import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../../src/cli/commands.js";

/*
 * The exit codes are a contract scripts rely on: each command's --help says them ("Exit codes:
 * ..."), and docs/commands.md and the README's daily table must say the same codes, command by
 * command, so a changed code or a new command changes its pages too.
 */

function read(path: string): string {
  return readFileSync(fileURLToPath(new URL(`../../../${path}`, import.meta.url)), "utf8");
}

/** The codes a text names: numbers standing alone ("2xx" is not a code). */
function codes(text: string): number[] {
  return [
    ...new Set([...text.matchAll(/(?:^|[\s,(])(\d{1,3})(?=[\s,)]|$)/g)].map((m) => Number(m[1]))),
  ].sort((a, b) => a - b);
}

function helpCodes(name: string): number[] {
  const command = COMMANDS.find((c) => c.name === name);
  const text = command?.details.join(" ") ?? "";
  const at = text.indexOf("Exit codes:");
  return at === -1 ? [] : codes(text.slice(at + "Exit codes:".length));
}

/** `datajud-monitor NAME ...` rows of a page's tables: NAME -> the last cell. */
function exitCells(page: string): Map<string, string> {
  const cells = new Map<string, string>();
  for (const line of read(page).split("\n")) {
    const name = /^\|\s*`datajud-monitor ([a-z-]+)/.exec(line)?.[1];
    if (name === undefined) continue;
    const row = line.split(/(?<!\\)\|/);
    cells.set(name, row.at(-2) ?? "");
  }
  return cells;
}

describe("exit codes", () => {
  it("every command's --help says its exit codes", () => {
    expect(COMMANDS.filter((c) => helpCodes(c.name).length === 0).map((c) => c.name)).toEqual([]);
  });

  it("docs/commands.md has a row for every command, with the codes its --help says", () => {
    const cells = exitCells("docs/commands.md");

    const differing = COMMANDS.map((c) => c.name).filter(
      (name) => JSON.stringify(codes(cells.get(name) ?? "")) !== JSON.stringify(helpCodes(name)),
    );

    expect(differing).toEqual([]);
  });

  it("the README's daily commands say the codes their --help says", () => {
    const cells = exitCells("README.md");

    expect(cells.size).toBeGreaterThanOrEqual(5);
    expect(
      [...cells].filter(
        ([name, cell]) => JSON.stringify(codes(cell)) !== JSON.stringify(helpCodes(name)),
      ),
    ).toEqual([]);
  });

  it("reads codes as numbers standing alone", () => {
    expect(codes("0 the endpoint answered 2xx, 1 it refused, 2 bad config (exit 70)")).toEqual([
      0, 1, 2, 70,
    ]);
  });
});
