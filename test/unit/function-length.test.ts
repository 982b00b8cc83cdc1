import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/*
 * "No function longer than a screen without a reason" (issue 39), kept true: every function of
 * src/ (declarations, methods, arrows, function expressions) fits in 80 lines, counted from its
 * first line to its closing brace, nested functions included in their parent. A function that
 * must be longer goes in LONGER with the reason, where a reviewer sees it.
 */

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));
const LIMIT = 80;

/** `file:name` -> why it may be longer than a screen. Empty today. */
const LONGER: Record<string, string> = {};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name !== undefined) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))
    return parent.name.getText();
  return "(anonymous)";
}

/** Each function of one file longer than LIMIT lines: `file:name (N lines, line L)`. */
function longFunctionsIn(file: string, text: string): { key: string; text: string }[] {
  const found: { key: string; text: string }[] = [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const lines = source.getLineAndCharacterOfPosition(node.end).line - first + 1;
      if (lines > LIMIT) {
        const key = `${file}:${nameOf(node as ts.FunctionLikeDeclaration)}`;
        found.push({ key, text: `${key} (${lines} lines, line ${first + 1})` });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("function length", () => {
  const found = sourceFiles(SRC).flatMap((path) =>
    longFunctionsIn(relative(SRC, path), readFileSync(path, "utf8")),
  );

  it(`no function of src/ is longer than ${LIMIT} lines without a reason in LONGER`, () => {
    expect(found.filter((f) => LONGER[f.key] === undefined).map((f) => f.text)).toEqual([]);
  });

  it("every reason in LONGER still names a long function (none kept for one since cut)", () => {
    const keys = new Set(found.map((f) => f.key));
    expect(Object.keys(LONGER).filter((key) => !keys.has(key))).toEqual([]);
  });

  it("finds a long function when there is one, nested ones too (the check can fail)", () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`);
    const text = [
      "export const probe = () => {",
      ...body(LIMIT - 2), // 80 lines with its first and last: not too long
      "};",
      "export function outer() {",
      "  function inner() {",
      ...body(LIMIT),
      "  }",
      "  return inner;",
      "}",
    ].join("\n");
    expect(longFunctionsIn("probe.ts", text).map((f) => f.text)).toEqual([
      `probe.ts:outer (${LIMIT + 5} lines, line ${LIMIT + 1})`,
      `probe.ts:inner (${LIMIT + 2} lines, line ${LIMIT + 2})`,
    ]);
  });
});
