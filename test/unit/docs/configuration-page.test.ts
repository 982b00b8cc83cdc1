import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { configurationPage, PAGE, settingRows } from "../../../scripts/write-config-doc.js";
import { ConfigSettings, ENV_SETTINGS } from "../../../src/config/config-schema.js";

/*
 * docs/configuration.md is generated from the zod schema, config/default.yaml and the example
 * .env (scripts/write-config-doc.ts): a setting added, renamed, given another default or another
 * variable changes the page, and this test fails until `npm run docs` writes it again.
 */

const committed = readFileSync(fileURLToPath(new URL(`../../../${PAGE}`, import.meta.url)), "utf8");

describe(PAGE, () => {
  it("is what `npm run docs` generates from the schema, the defaults and the example .env", () => {
    expect(committed, "run `npm run docs` and commit docs/configuration.md").toBe(
      configurationPage(),
    );
  });

  it("has a section for every setting of the schema", () => {
    const paths = Object.entries(ConfigSettings.shape).flatMap(([section, schema]) =>
      Object.keys(schema.shape).map((key) => `${section}.${key}`),
    );

    expect(paths.filter((path) => !committed.includes(`### \`${path}\``))).toEqual([]);
  });

  it("names every environment variable the configuration reads, and MONITOR_CONFIG", () => {
    const names = ["MONITOR_CONFIG", ...ENV_SETTINGS.flatMap((e) => e.names)];

    expect(names.filter((name) => !committed.includes(`\`${name}\``))).toEqual([]);
  });

  it("says what every setting means: a comment in config/default.yaml or the example .env", () => {
    const silent = settingRows().filter((row) => row.comment.join("").trim() === "");

    expect(silent.map((row) => row.path)).toEqual([]);
  });

  it("describes every key of an endpoint, a closure and the quiet hours in the schema", () => {
    const undescribed = settingRows().flatMap((row) =>
      (row.fields ?? []).filter((f) => !f.description).map((f) => `${row.path}.${f.key}`),
    );

    expect(undescribed).toEqual([]);
  });

  it("lists Telegram's and WhatsApp's apiBase, with their defaults", () => {
    const endpoints = settingRows().find((row) => row.path === "notify.endpoints");
    const apiBase = endpoints?.fields?.find((f) => f.key === "apiBase");

    expect(apiBase?.variants).toEqual(["telegram", "whatsapp"]);
    expect(apiBase?.description).toContain("https://api.telegram.org");
    expect(apiBase?.description).toContain("https://graph.facebook.com");
  });

  it("marks calendar.closures as read again on SIGHUP, and every other setting as a restart", () => {
    const sections = committed.split("\n### ").slice(1);
    const onHangup = sections.filter((s) => s.includes("the daemon: SIGHUP"));
    const restart = sections.filter((s) => s.includes("the daemon: restart"));

    expect(onHangup.map((s) => s.split("\n")[0])).toEqual(["`calendar.closures`"]);
    expect(restart).toHaveLength(sections.length - 1);
  });
});
