import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/*
 * The README is the front door: short, with the set-up commands CI itself runs and the first real
 * run's mail settings; everything else lives in docs/.
 */

function read(path: string): string {
  return readFileSync(fileURLToPath(new URL(`../../../${path}`, import.meta.url)), "utf8");
}

const readme = read("README.md");

describe("README.md", () => {
  it("stays under 300 lines", () => {
    expect(readme.split("\n").length).toBeLessThan(300);
  });

  it("gives the test command .ci/run runs, after npm ci as CI does", () => {
    const ci = read(".ci/run").split("\n");
    const install = ci.find((line) => line.startsWith("npm ci"));
    const test = ci.find((line) => /^npm (run )?test\b/.test(line));

    expect(install).toBeDefined();
    expect(test).toBeDefined();
    expect(readme).toContain(`npm ci && ${test}`);
  });

  it("says where alerts go on the first real run: SMTP_URL, MAIL_FROM and the example .env", () => {
    const firstRun =
      readme.split("\n## The first real run, with mail\n")[1]?.split(/\n## /)[0] ?? "";

    expect(firstRun).toContain("export SMTP_URL=");
    expect(firstRun).toContain("export MAIL_FROM=");
    expect(firstRun).toContain("](config/monitor.example.env)");
  });
});
