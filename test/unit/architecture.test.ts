import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/*
 * The folder graph of ARCHITECTURE.md, enforced. Its table "Folders and what each may import" is
 * the one map: read here, so the doc and this test cannot drift apart. A folder of src/ is a
 * module (notify/ counts as its three parts); the "may import" column says what each may import
 * ("a, b; c types only": c only through `import type`; "notify/*": its three parts; "everything":
 * any module), and "(pure)" in the "owns" column marks pure domain code.
 */

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));
const DOC = fileURLToPath(new URL("../../ARCHITECTURE.md", import.meta.url));

interface ImportMap {
  /** What each module may import. */
  mayImport: Record<string, readonly string[]>;
  /** What each may import for types only (`import type`): e.g. pure code naming the store's rows. */
  typeOnly: Record<string, readonly string[]>;
  /** Pure domain code: decides and renders from what it is given, with no I/O of its own. */
  pure: Set<string>;
}

function names(list: string): string[] {
  return list
    .replace(/\([^)]*\)/g, "")
    .split(",")
    .map((s) => s.trim().replace(/^`|`$/g, ""))
    .filter((s) => s !== "" && s !== "-");
}

/** The table's rows: `| \`folder/\` | owns | may import |`. */
function readImportMap(markdown: string): ImportMap {
  const section = markdown.split(/^## Folders and what each may import$/m)[1]?.split(/^## /m)[0];
  if (section === undefined)
    throw new Error("ARCHITECTURE.md: no section 'Folders and what each may import'");
  const map: ImportMap = { mayImport: {}, typeOnly: {}, pure: new Set() };
  const all: string[] = [];
  for (const line of section.split("\n")) {
    const cells = /^\|\s*`([^`]+)`\s*\|([^|]*)\|([^|]*)\|\s*$/.exec(line);
    if (cells === null) continue;
    const module = (cells[1] ?? "").replace(/\/$/, "").replace(/\.ts$/, "");
    const [allowed = "", typesOnly = ""] = (cells[3] ?? "").split(";");
    all.push(module);
    map.mayImport[module] = names(allowed);
    map.typeOnly[module] = names(typesOnly.replace(/\btypes only\s*$/, ""));
    if (/\(pure\)/.test(cells[2] ?? "")) map.pure.add(module);
  }
  const expand = (list: readonly string[], module: string): string[] =>
    list.flatMap((name) => {
      if (name === "everything") return all.filter((m) => m !== module);
      if (name.endsWith("/*")) return all.filter((m) => m.startsWith(name.slice(0, -1)));
      return [name];
    });
  for (const module of all) {
    map.mayImport[module] = expand(map.mayImport[module] ?? [], module);
    map.typeOnly[module] = expand(map.typeOnly[module] ?? [], module);
  }
  return map;
}

const {
  mayImport: MAY_IMPORT,
  typeOnly: TYPE_ONLY,
  pure: PURE,
} = readImportMap(readFileSync(DOC, "utf8"));

/** Packages that do I/O: never reached, even through another module, from pure code. */
const IO_PACKAGES = [
  /^node:(fs|net|http|https|child_process|os|dgram|dns|tls|worker_threads|process)(\/|$)/,
  /^better-sqlite3$/,
  /^nodemailer/,
  /^pino/,
  /^@anthropic-ai\/sdk$/,
  /^@modelcontextprotocol\/sdk\/(client|server)/,
];

const SQL =
  /\b(SELECT\s+[\w*(]|INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(TABLE|INDEX)|PRAGMA\s+\w+|VACUUM\b)/;

interface Import {
  spec: string;
  typeOnly: boolean;
}

interface SourceFile {
  path: string;
  module: string;
  text: string;
  imports: Import[];
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return walk(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

function moduleOf(path: string): string {
  const parts = relative(SRC, path).split("/");
  if (parts.length === 1) return (parts[0] ?? "").replace(/\.ts$/, "");
  if (parts[0] === "notify" && parts.length > 2) return `notify/${parts[1]}`;
  return parts[0] ?? "";
}

function importsOf(text: string): Import[] {
  const out: Import[] = [];
  const statement = /^\s*(import|export)\s+([^;]*?)\s*from\s+"([^"]+)"/gms;
  for (const match of text.matchAll(statement)) {
    const clause = (match[2] ?? "").trim();
    const braces = /^\{([^}]*)\}$/s.exec(clause);
    const specifiers = braces?.[1]
      ?.split(",")
      .map((s) => s.trim())
      .filter((s) => s !== "");
    const typeOnly =
      clause.startsWith("type ") ||
      (specifiers !== undefined &&
        specifiers.length > 0 &&
        specifiers.every((s) => s.startsWith("type ")));
    out.push({ spec: match[3] ?? "", typeOnly });
  }
  for (const match of text.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g)) {
    out.push({ spec: match[1] ?? "", typeOnly: false });
  }
  return out;
}

const files: SourceFile[] = walk(SRC).map((path) => {
  const text = readFileSync(path, "utf8");
  return { path, module: moduleOf(path), text, imports: importsOf(text) };
});
const byPath = new Map(files.map((f) => [f.path, f]));

function target(file: SourceFile, spec: string): string | null {
  if (!spec.startsWith(".")) return null;
  return resolve(dirname(file.path), spec).replace(/\.js$/, ".ts");
}

function name(path: string): string {
  return relative(join(SRC, ".."), path);
}

describe("ARCHITECTURE.md's table, as read", () => {
  it("reads each row's imports, those for types only, the wildcards and the pure folders", () => {
    const map = readImportMap(
      [
        "## Folders and what each may import",
        "| folder | owns | may import |",
        "| --- | --- | --- |",
        "| `text.ts` | accents (pure) | - |",
        "| `notify/render/` | e-mails (pure) | text; store types only |",
        "| `notify/outbox/` | queueing | notify/render, text (words) |",
        "| `store/` | SQLite | text |",
        "| `cli/` | commands | everything |",
        "| `monitor/` | the sweep | notify/*, store |",
        "## Invariants",
        "| `ignored/` | not the table | text |",
      ].join("\n"),
    );

    expect(map.mayImport).toEqual({
      text: [],
      "notify/render": ["text"],
      "notify/outbox": ["notify/render", "text"],
      store: ["text"],
      cli: ["text", "notify/render", "notify/outbox", "store", "monitor"],
      monitor: ["notify/render", "notify/outbox", "store"],
    });
    expect(map.typeOnly["notify/render"]).toEqual(["store"]);
    expect([...map.pure]).toEqual(["text", "notify/render"]);
  });
});

describe("the folder graph", () => {
  it("knows every module of src/", () => {
    const unknown = [...new Set(files.map((f) => f.module))].filter((m) => !(m in MAY_IMPORT));

    expect(unknown, "add a row for the new folder to ARCHITECTURE.md's table").toEqual([]);
  });

  it("names only modules of src/ in ARCHITECTURE.md's table", () => {
    const modules = new Set(files.map((f) => f.module));
    const named = Object.keys(MAY_IMPORT).flatMap((m) => [
      m,
      ...(MAY_IMPORT[m] ?? []),
      ...(TYPE_ONLY[m] ?? []),
    ]);

    expect([...new Set(named)].filter((m) => !modules.has(m))).toEqual([]);
  });

  it("is one-way: no module reaches itself through what it may import", () => {
    const cycles: string[] = [];
    const visit = (from: string, path: readonly string[]): void => {
      for (const to of MAY_IMPORT[from] ?? []) {
        if (to === path[0]) cycles.push([...path, to].join(" -> "));
        else if (!path.includes(to)) visit(to, [...path, to]);
      }
    };
    for (const module of Object.keys(MAY_IMPORT)) visit(module, [module]);

    expect(cycles).toEqual([]);
  });

  it("holds: every import between modules is one the map allows", () => {
    const refused: string[] = [];
    for (const file of files) {
      for (const { spec, typeOnly } of file.imports) {
        const path = target(file, spec);
        const other = path === null ? undefined : byPath.get(path);
        if (other === undefined || other.module === file.module) continue;
        const allowed =
          (MAY_IMPORT[file.module] ?? []).includes(other.module) ||
          (typeOnly && (TYPE_ONLY[file.module] ?? []).includes(other.module));
        if (!allowed) refused.push(`${name(file.path)} -> ${name(other.path)}`);
      }
    }

    expect(refused).toEqual([]);
  });
});

describe("the file graph", () => {
  /** Every cycle of files, type-only imports included (what `madge --circular` reports). */
  function fileCycles(): string[] {
    const edges = new Map(
      files.map((f) => [
        f.path,
        f.imports.flatMap(({ spec }) => {
          const path = target(f, spec);
          return path !== null && byPath.has(path) ? [path] : [];
        }),
      ]),
    );
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const stack: string[] = [];
    const visit = (path: string): void => {
      state.set(path, "open");
      stack.push(path);
      for (const next of edges.get(path) ?? []) {
        if (state.get(next) === "open") {
          cycles.push([...stack.slice(stack.indexOf(next)), next].map(name).join(" -> "));
        } else if (!state.has(next)) visit(next);
      }
      stack.pop();
      state.set(path, "done");
    };
    for (const f of files) if (!state.has(f.path)) visit(f.path);
    return cycles;
  }

  it("has no cycle, not even through type-only imports: a phase names what it uses, not the orchestrator's types", () => {
    expect(fileCycles()).toEqual([]);
  });
});

describe("SQL", () => {
  it("lives in src/store only: no better-sqlite3 import, no SQL text, no prepare or pragma elsewhere", () => {
    const outside = files.filter((f) => f.module !== "store");

    const offenders = outside.flatMap((f) => {
      const found: string[] = [];
      if (f.imports.some((i) => i.spec === "better-sqlite3")) found.push("imports better-sqlite3");
      if (/\.(prepare|pragma|exec)\(\s*[`"']/.test(f.text)) found.push("runs SQL");
      const strings = f.text.match(/(["'`])(?:\\.|(?!\1)[^\\])*\1/g) ?? [];
      if (strings.some((s) => SQL.test(s))) found.push("holds SQL text");
      return found.map((what) => `${name(f.path)} ${what}`);
    });

    expect(offenders).toEqual([]);
  });
});

describe("pure domain code", () => {
  it("does no I/O, not even through a module it imports", () => {
    const impure = new Map<string, string | null>();
    const reason = (file: SourceFile, seen: Set<string>): string | null => {
      const known = impure.get(file.path);
      if (known !== undefined) return known;
      if (seen.has(file.path)) return null;
      seen.add(file.path);
      let found: string | null = null;
      for (const { spec, typeOnly } of file.imports) {
        if (typeOnly) continue;
        if (IO_PACKAGES.some((p) => p.test(spec))) found = `${name(file.path)} imports ${spec}`;
        const path = target(file, spec);
        const other = path === null ? undefined : byPath.get(path);
        if (found === null && other !== undefined) found = reason(other, seen);
        if (found !== null) break;
      }
      impure.set(file.path, found);
      return found;
    };

    const offenders = files
      .filter((f) => PURE.has(f.module))
      .flatMap((f) => {
        const why = reason(f, new Set());
        return why === null ? [] : [`${name(f.path)}: ${why}`];
      });

    expect(offenders).toEqual([]);
  });
});
