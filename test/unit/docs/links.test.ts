import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { headingAnchors, headingSlug, relativeLinks } from "../../support/markdown.js";

/*
 * The documents a reader follows from the README: every relative link leads to a file that exists
 * and, with `#anchor`, to a heading of that page, so moving a section breaks a test, not a reader.
 */

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const DOCS = join(ROOT, "docs");

const pages = readdirSync(DOCS)
  .filter((name) => name.endsWith(".md"))
  .map((name) => `docs/${name}`);
const documents = ["README.md", "ARCHITECTURE.md", ...pages];

function brokenLinks(document: string): string[] {
  const from = join(ROOT, document);
  const text = readFileSync(from, "utf8");
  return relativeLinks(text).flatMap((link) => {
    const target = link.path === "" ? from : resolve(dirname(from), link.path);
    const where = `${document}:${link.line}: ${link.path}${link.anchor === null ? "" : `#${link.anchor}`}`;
    if (!existsSync(target)) return [`${where}: no such file`];
    if (link.anchor === null || !target.endsWith(".md")) return [];
    if (statSync(target).isDirectory()) return [`${where}: a directory has no anchors`];
    return headingAnchors(readFileSync(target, "utf8")).has(link.anchor)
      ? []
      : [`${where}: no heading ${link.anchor} in ${relative(ROOT, target)}`];
  });
}

describe("the documents' relative links", () => {
  it.each(documents)("%s: every file and #anchor it links to exists", (document) => {
    expect(brokenLinks(document)).toEqual([]);
  });

  it("the README links every page of docs/", () => {
    const linked = new Set(
      relativeLinks(readFileSync(join(ROOT, "README.md"), "utf8")).map((link) => link.path),
    );

    expect(pages.filter((page) => !linked.has(page))).toEqual([]);
  });
});

describe("headingSlug, as GitHub makes anchors", () => {
  it.each([
    ["Publications (DJEN)", "publications-djen"],
    ["What is worth an e-mail (alert policy)", "what-is-worth-an-e-mail-alert-policy"],
    [
      "A sample alert (text part, from `npm run demo`)",
      "a-sample-alert-text-part-from-npm-run-demo",
    ],
    ["Claude Desktop / Claude Code", "claude-desktop--claude-code"],
    ["Não é aconselhamento", "não-é-aconselhamento"],
  ])("%s -> %s", (heading, slug) => {
    expect(headingSlug(heading)).toBe(slug);
  });

  it("numbers a repeated heading as GitHub does", () => {
    expect([...headingAnchors("# A\n## Limits\n```\n# not a heading\n```\n### Limits\n")]).toEqual([
      "a",
      "limits",
      "limits-1",
    ]);
  });
});
