import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/*
 * docs/operations.md's troubleshooting table quotes the monitor's own messages in its symptom
 * column (`...` where a message varies). Each quoted message's longer pieces must still be in
 * src/, as written or as a template literal writes them (`${x}` read as `...`), so a reworded
 * message takes its row along.
 */

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

function sourceText(dir: string): string {
  return readdirSync(dir, { withFileTypes: true })
    .map((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sourceText(path);
      return entry.name.endsWith(".ts") ? readFileSync(path, "utf8") : "";
    })
    .join("\n");
}

const raw = sourceText(join(ROOT, "src"));
const templated = raw.replace(/\$\{(?:[^{}]|\{[^{}]*\})*\}/g, "...");

/** The quoted messages of the symptom column: code spans of three words or more. */
function quotedMessages(): string[] {
  const page = readFileSync(join(ROOT, "docs/operations.md"), "utf8");
  const table = page.split("\n## Troubleshooting\n")[1]?.split(/\n## /)[0] ?? "";
  return table
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("| symptom"))
    .flatMap((line) =>
      [...(line.split("|")[1] ?? "").matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? ""),
    )
    .filter((span) => span.trim().split(/\s+/).length >= 3);
}

describe("docs/operations.md, troubleshooting", () => {
  const messages = quotedMessages();

  it("quotes messages", () => {
    expect(messages.length).toBeGreaterThan(10);
  });

  it.each(messages)("%s: its words are the code's", (message) => {
    const pieces = message
      .split(/\.\.\.|: |\(|\)/)
      .map((piece) => piece.trim())
      .filter((piece) => piece.length >= 10);
    const missing = pieces.filter((piece) => !raw.includes(piece) && !templated.includes(piece));

    expect(missing).toEqual([]);
  });
});
