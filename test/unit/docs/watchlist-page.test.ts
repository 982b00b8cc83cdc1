import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { COURTS } from "../../../src/datajud/courts.js";

/* docs/watchlist.md's "Court aliases" is the list an unknown `court:` is pointed at: every index. */

const page = readFileSync(
  fileURLToPath(new URL("../../../docs/watchlist.md", import.meta.url)),
  "utf8",
);

describe("docs/watchlist.md", () => {
  it("lists every DataJud court alias under Court aliases, and nothing else", () => {
    const section = page.split("\n## Court aliases\n")[1]?.split(/\n## /)[0] ?? "";
    const table = section.split("\n").filter((line) => line.startsWith("| "));
    const listed = table.flatMap((line) =>
      [...(line.split("|")[2] ?? "").matchAll(/`([^`]+)`/g)].map((m) => m[1]),
    );

    expect([...listed].sort()).toEqual(COURTS.map((c) => c.alias).sort());
  });
});
