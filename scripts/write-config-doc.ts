import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import type { z } from "zod";
import { RELOADED_ON_SIGHUP } from "../src/cli/reload-closures.js";
import { ConfigSettings, ENV_ONLY_SETTINGS, ENV_SETTINGS } from "../src/config/config-schema.js";

/*
 * Writes docs/configuration.md (`npm run docs`) from what the monitor itself reads: the settings
 * and their bounds from the zod schema (src/config/config-schema.ts), each default and its
 * meaning from the built-in config/default.yaml (the comment above the key), the environment
 * names from ENV_SETTINGS with the meaning of the environment-only ones from
 * config/monitor.example.env, and what SIGHUP reloads from the daemon's own list. A unit test
 * compares the committed page with this output, so a setting cannot change without its page.
 */

export const PAGE = "docs/configuration.md";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const DEFAULT_YAML = "config/default.yaml";
const EXAMPLE_ENV = "config/monitor.example.env";

type Schema = z.core.$ZodType;

interface Def {
  type: string;
  innerType?: Schema;
  shape?: Record<string, Schema>;
  element?: Schema;
  valueType?: Schema;
  options?: Schema[];
  entries?: Record<string, string>;
  values?: unknown[];
}

function defOf(schema: Schema): Def {
  return (schema as unknown as { def: Def }).def;
}

function descriptionOf(schema: Schema): string | undefined {
  return (schema as unknown as { description?: string }).description;
}

/** The schema under nullable and optional, and whether either was there. */
function unwrapped(schema: Schema): { inner: Schema; optional: boolean; nullable: boolean } {
  let inner = schema;
  let optional = false;
  let nullable = false;
  for (;;) {
    const def = defOf(inner);
    if (def.type === "optional" && def.innerType) optional = true;
    else if (def.type === "nullable" && def.innerType) nullable = true;
    else return { inner, optional, nullable };
    inner = def.innerType;
  }
}

/** What a value of the schema is, in a reader's words. */
function typeText(schema: Schema): string {
  const { inner, nullable } = unwrapped(schema);
  const def = defOf(inner);
  const base = ((): string => {
    switch (def.type) {
      case "string":
        return "text";
      case "number":
        return "number";
      case "boolean":
        return "`true` or `false`";
      case "enum":
        return Object.values(def.entries ?? {})
          .map((v) => `\`${v}\``)
          .join(", ");
      case "literal":
        return (def.values ?? []).map((v) => `\`${String(v)}\``).join(", ");
      case "union":
        return (def.options ?? []).map(typeText).join(" or ");
      case "array":
        return def.element ? `list of ${typeText(def.element)}` : "list";
      case "record":
        return "names, each with the keys below";
      case "object":
        return "the keys below";
      default:
        return def.type;
    }
  })();
  return nullable ? `${base} or \`null\`` : base;
}

/** One key of a nested object (an endpoint's, a closure's), merged over a union's options. */
export interface FieldRow {
  key: string;
  type: string;
  required: boolean;
  /** The options of a union it belongs to (an endpoint's channels); empty outside a union. */
  variants: string[];
  description: string | undefined;
}

function objectFields(schema: Schema): FieldRow[] | null {
  const { inner } = unwrapped(schema);
  const def = defOf(inner);
  if (def.type === "array" && def.element) return objectFields(def.element);
  if (def.type === "record" && def.valueType) return objectFields(def.valueType);
  if (def.type === "object" && def.shape) {
    return Object.entries(def.shape).map(([key, field]) => ({
      key,
      type: typeText(field),
      required: !unwrapped(field).optional,
      variants: [],
      description: descriptionOf(field) ?? descriptionOf(unwrapped(field).inner),
    }));
  }
  if (def.type === "union" && def.options?.every((o) => defOf(o).type === "object")) {
    const rows = new Map<string, FieldRow>();
    for (const option of def.options) {
      const shape = defOf(option).shape ?? {};
      const name = (defOf(shape.channel ?? option).values ?? [])[0];
      for (const field of objectFields(option) ?? []) {
        const row = rows.get(field.key);
        const variant = name === undefined ? [] : [String(name)];
        if (row === undefined) {
          rows.set(field.key, { ...field, variants: variant });
          continue;
        }
        row.variants.push(...variant);
        row.required &&= field.required;
        row.description ??= field.description;
        if (field.key === "channel") row.type = `${row.type}, ${field.type}`;
      }
    }
    return [...rows.values()];
  }
  return null;
}

export interface SettingRow {
  /** `section.key`, as in YAML. */
  path: string;
  section: string;
  /** The built-in default, as YAML writes it; null for a setting only the environment gives. */
  defaultValue: unknown;
  envNames: readonly string[];
  envOnly: boolean;
  secret: boolean;
  reload: "SIGHUP" | "restart";
  type: string;
  /** The comment above the key in config/default.yaml (or the variable in the example .env). */
  comment: string[];
  fields: FieldRow[] | null;
}

function read(path: string): string {
  return readFileSync(`${ROOT}${path}`, "utf8");
}

/** `section.key` -> the comment lines right above that key in config/default.yaml. */
function yamlComments(text: string): Map<string, string[]> {
  const comments = new Map<string, string[]>();
  const lines = text.split("\n");
  let section = "";
  lines.forEach((line, i) => {
    const top = /^(\w+):/.exec(line);
    if (top?.[1]) section = top[1];
    const key = /^ {2}(\w+):/.exec(line)?.[1];
    if (key === undefined) return;
    const above: string[] = [];
    for (let j = i - 1; j >= 0 && /^\s*#/.test(lines[j] ?? ""); j--) {
      above.unshift((lines[j] ?? "").replace(/^\s*# ?/, ""));
    }
    comments.set(`${section}.${key}`, above);
  });
  return comments;
}

/** NAME -> the comment lines above `#NAME=` in the example .env, up to a header or another variable. */
function envComments(text: string): Map<string, string[]> {
  const comments = new Map<string, string[]>();
  const lines = text.split("\n");
  lines.forEach((line, i) => {
    const name = /^#([A-Z][A-Z0-9_]*)=/.exec(line)?.[1];
    if (name === undefined || comments.has(name)) return;
    const above: string[] = [];
    for (let j = i - 1; j >= 0; j--) {
      const prev = lines[j] ?? "";
      if (!prev.startsWith("#") || /^#[A-Z][A-Z0-9_]*=/.test(prev) || prev.startsWith("# ---")) {
        break;
      }
      above.unshift(prev.replace(/^# ?/, ""));
    }
    comments.set(name, above);
  });
  return comments;
}

export function settingRows(): SettingRow[] {
  const defaults = parse(read(DEFAULT_YAML)) as Record<string, Record<string, unknown>>;
  const comments = yamlComments(read(DEFAULT_YAML));
  const envText = envComments(read(EXAMPLE_ENV));
  const sections = ConfigSettings.shape as unknown as Record<string, Schema>;
  return Object.entries(sections).flatMap(([section, sectionSchema]) =>
    Object.entries(defOf(sectionSchema).shape ?? {}).map(([key, schema]) => {
      const path = `${section}.${key}`;
      const env = ENV_SETTINGS.find((e) => e.setting === path);
      const envOnly = path in ENV_ONLY_SETTINGS;
      const firstName = env?.names[0];
      return {
        path,
        section,
        defaultValue: envOnly ? null : defaults[section]?.[key],
        envNames: env?.names ?? [],
        envOnly,
        secret: env?.secret ?? false,
        reload: RELOADED_ON_SIGHUP.includes(path) ? "SIGHUP" : "restart",
        type: typeText(schema),
        comment: envOnly ? (envText.get(firstName ?? "") ?? []) : (comments.get(path) ?? []),
        fields: objectFields(schema),
      } satisfies SettingRow;
    }),
  );
}

/** Markdown's special characters in prose, outside `code`: `<` (HTML), `*` and a lone `_`. */
function prose(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part
            .replace(/[<*]/g, (c) => `\\${c}`)
            .replace(/(^|[^\p{L}\p{N}])_/gu, "$1\\_")
            .replace(/\|/g, "\\|"),
    )
    .join("");
}

/** A paragraph's lines as one, a word the comment hyphenated at a line's end whole again. */
function joined(lines: readonly string[]): string {
  return lines.reduce((text, line) =>
    /\p{L}-$/u.test(text) ? `${text}${line}` : `${text} ${line}`,
  );
}

/** Comment lines as Markdown: paragraphs, with indented lines (examples) as a YAML block. */
function commentMarkdown(lines: readonly string[]): string[] {
  const out: string[] = [];
  let paragraph: string[] = [];
  let code: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) out.push(prose(joined(paragraph)), "");
    if (code.length > 0) {
      const indent = Math.min(...code.map((l) => /^ */.exec(l)?.[0].length ?? 0));
      out.push("```yaml", ...code.map((l) => l.slice(indent)), "```", "");
    }
    paragraph = [];
    code = [];
  };
  for (const line of lines) {
    if (line.trim() === "") {
      flush();
    } else if (/^ {2}/.test(line)) {
      if (paragraph.length > 0) {
        out.push(prose(joined(paragraph)), "");
        paragraph = [];
      }
      code.push(line);
    } else {
      if (code.length > 0) flush();
      paragraph.push(line.trim());
    }
  }
  flush();
  return out;
}

function defaultText(row: SettingRow): string {
  if (row.envOnly) return "unset";
  const value = row.defaultValue;
  return typeof value === "string" ? `\`${value}\`` : `\`${JSON.stringify(value)}\``;
}

function envText(row: SettingRow): string {
  return row.envNames.length === 0 ? "" : row.envNames.map((n) => `\`${n}\``).join(", ");
}

function reloadText(row: SettingRow): string {
  return row.reload === "SIGHUP" ? "SIGHUP" : "restart";
}

/** GitHub's anchor of "### `a.b`". */
function anchorOf(path: string): string {
  return path.toLowerCase().replace(/[^\p{L}\p{N}_ -]/gu, "");
}

/** A table padded as the formatter (biome) pads it. */
function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((h, c) =>
    Math.max(3, h.length, ...rows.map((r) => (r[c] ?? "").length)),
  );
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join(" | ")} |`;
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)];
}

const INTRO = [
  "# Configuration",
  "",
  "<!-- Generated by `npm run docs` (scripts/write-config-doc.ts) from src/config/config-schema.ts,",
  "config/default.yaml and config/monitor.example.env: edit those, then run it. A test fails when",
  "this page differs from what they generate. -->",
  "",
  "Settings come in three layers, the last one winning: the built-in `config/default.yaml`, your",
  "config file (`MONITOR_CONFIG`, else `config/monitor.yaml` if present) with only the settings you",
  "change, and the environment. `monitor validate` checks them all (`file:line:col` for a config",
  "file's mistakes) and `monitor doctor` says where each changed setting came from.",
  "",
  "Any variable may be given as `X_FILE` (a path whose content is the value), and systemd credentials",
  "in `$CREDENTIALS_DIRECTORY/X` are read the same way. Secrets come only from the environment, never",
  "from a YAML file, and never appear in logs or error messages, valid or not: a refused key,",
  "`SMTP_URL` or heartbeat URL is never quoted, and a base URL a message quotes has its user,",
  "password and query masked (`ftp://***@proxy.example/?***`).",
  "",
  "**When a change takes effect.** `run-once`, `status` and every other command read the",
  "configuration each time they start. The daemon reads it once: a setting marked _restart_ takes",
  "`systemctl restart datajud-monitor`; one marked _SIGHUP_ is read again on",
  "`systemctl reload datajud-monitor` (an invalid edit is logged and what is in force stays). The",
  "watchlist is not a setting: the daemon reloads it when the file changes and on SIGHUP",
  "([Watchlist](watchlist.md)).",
  "",
];

export function configurationPage(): string {
  const rows = settingRows();
  const out = [...INTRO, "## Every setting", ""];
  out.push(
    ...table(
      ["setting", "default", "environment", "the daemon"],
      rows.map((r) => [
        `[\`${r.path}\`](#${anchorOf(r.path)})`,
        defaultText(r),
        envText(r),
        reloadText(r),
      ]),
    ),
    "",
    "`MONITOR_CONFIG` names the config file (default: `config/monitor.yaml` if present, else only the",
    "built-in defaults).",
    "",
  );
  for (const section of [...new Set(rows.map((r) => r.section))]) {
    out.push(`## ${section}`, "");
    for (const row of rows.filter((r) => r.section === section)) {
      out.push(`### \`${row.path}\``, "");
      const facts = [
        row.envOnly ? "Only in the environment" : `Default ${defaultText(row)}`,
        ...(row.envNames.length > 0 ? [`environment ${envText(row)}`] : []),
        ...(row.secret ? ["a secret"] : []),
        `the daemon: ${reloadText(row)}`,
        `value: ${row.envOnly ? row.type.replace(" or `null`", "") : row.type}`,
      ];
      out.push(`${facts.join("; ")}.`, "");
      out.push(...commentMarkdown(row.comment));
      if (row.fields !== null) {
        const union = row.fields.some((f) => f.variants.length > 0);
        out.push(
          ...table(
            union
              ? ["key", "channels", "value", "required", "meaning"]
              : ["key", "value", "required", "meaning"],
            row.fields.map((f) => [
              `\`${f.key}\``,
              ...(union ? [f.variants.join(", ")] : []),
              f.type.replace(/\|/g, "\\|"),
              f.required ? "yes" : "no",
              prose(f.description ?? ""),
            ]),
          ),
          "",
        );
      }
    }
  }
  while (out.at(-1) === "") out.pop();
  return `${out.join("\n")}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(`${ROOT}${PAGE}`, configurationPage());
  process.stdout.write(`wrote ${PAGE}\n`);
}
