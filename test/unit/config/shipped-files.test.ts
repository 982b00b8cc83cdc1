import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  ConfigFile,
  ConfigSettings,
  ENV_ONLY_SETTINGS,
  ENV_SETTINGS,
} from "../../../src/config/config-schema.js";
import { builtInConfigPath } from "../../../src/config/load-config.js";
import { parseYamlSource } from "../../../src/yaml/yaml-source.js";

const DEFAULT_YAML = fileURLToPath(new URL("../../../config/default.yaml", import.meta.url));
const EXAMPLE_ENV = fileURLToPath(new URL("../../../config/monitor.example.env", import.meta.url));

function settingPaths(): string[] {
  return Object.entries(ConfigSettings.shape).flatMap(([section, schema]) =>
    Object.keys(schema.shape).map((key) => `${section}.${key}`),
  );
}

describe("config/default.yaml", () => {
  it("is the file loadConfig uses", () => {
    expect(builtInConfigPath()).toBe(DEFAULT_YAML);
  });

  it("parses and sets every setting that is not a secret", () => {
    const text = readFileSync(DEFAULT_YAML, "utf8");

    const { source, errors } = parseYamlSource(text, DEFAULT_YAML);
    const parsed = ConfigFile.safeParse(source.doc.toJS());

    expect(errors).toEqual([]);
    expect(parsed.success).toBe(true);
    const values = parsed.data as Record<string, Record<string, unknown>>;
    const missing = settingPaths().filter((path) => {
      const [section = "", key = ""] = path.split(".");
      return ENV_ONLY_SETTINGS[path] === undefined && values[section]?.[key] === undefined;
    });
    expect(missing).toEqual([]);
  });

  it("has a comment right above every setting", () => {
    const rows = readFileSync(DEFAULT_YAML, "utf8").split("\n");

    const undocumented = rows
      .map((row, i) => ({ row, above: rows[i - 1]?.trim() ?? "" }))
      .filter(({ row }) => /^ {2}\w+:/.test(row))
      .filter(({ above }) => !above.startsWith("#"))
      .map(({ row }) => row.trim());

    expect(undocumented).toEqual([]);
  });
});

describe("config/monitor.example.env", () => {
  it("lists every environment variable the config reads", () => {
    const text = readFileSync(EXAMPLE_ENV, "utf8");
    const names = ["MONITOR_CONFIG", ...ENV_SETTINGS.flatMap((e) => e.names)];

    const missing = names.filter((name) => !text.includes(name));

    expect(missing).toEqual([]);
  });
});

describe("the repository's documents", () => {
  it("point at no file outside the repository (../shared is the team's, not the user's)", () => {
    const docs = readdirSync(fileURLToPath(new URL("../../../docs/", import.meta.url)))
      .filter((name) => name.endsWith(".md"))
      .map((name) => `docs/${name}`);
    const documents = [
      "README.md",
      "ARCHITECTURE.md",
      ...docs,
      "watchlist.example.yaml",
      "config/default.yaml",
    ];

    const outside = documents.filter((name) =>
      readFileSync(fileURLToPath(new URL(`../../../${name}`, import.meta.url)), "utf8").includes(
        "../shared",
      ),
    );

    expect(outside).toEqual([]);
  });
});
