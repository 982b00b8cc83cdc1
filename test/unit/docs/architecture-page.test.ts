import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/*
 * ARCHITECTURE.md's "What each folder leaves out" has one line per module of its import table
 * (which test/unit/architecture.test.ts enforces against src/): a new folder gets both.
 */

const text = readFileSync(
  fileURLToPath(new URL("../../../ARCHITECTURE.md", import.meta.url)),
  "utf8",
);

function firstColumn(heading: string): string[] {
  const section = text.split(`\n## ${heading}\n`)[1]?.split(/\n## /)[0] ?? "";
  return [...section.matchAll(/^\|\s*`([^`]+)`\s*\|/gm)].map((m) => m[1] ?? "");
}

describe("ARCHITECTURE.md", () => {
  it("says what each folder of the import table deliberately leaves out, and no other", () => {
    const folders = firstColumn("Folders and what each may import");

    expect(folders.length).toBeGreaterThan(20);
    expect(firstColumn("What each folder leaves out")).toEqual(folders);
  });

  it("names the entry points in their order: main, runCli, openMonitor, runSweep", () => {
    const section = text.split("\n## Entry points\n")[1]?.split(/\n## /)[0] ?? "";
    const at = ["main.ts", "runCli", "openMonitor", "runSweep"].map((name) =>
      section.indexOf(name),
    );

    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });
});
