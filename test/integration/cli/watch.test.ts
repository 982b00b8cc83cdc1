import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseWatchlist } from "../../../src/watchlist/parse-watchlist.js";
import { cliInProcess } from "../../support/cli-harness.js";

/*
 * `datajud-monitor watch CNJ`: the case the party radar found is added to the user's watchlist
 * with the YAML document API, every comment and blank line kept; an invalid watchlist is refused
 * and left byte for byte as it was.
 */

const NEW_CASE = "1035289-48.2022.8.26.0602";

const COMMENTED = `# Our firm's watchlist.
# Keep cases sorted by client.

defaults:
  notify: [escritorio@example.com] # everyone

cases:
  # ACME's eviction
  - number: "0713383-43.2025.8.07.0006"
    label: "Despejo"   # the landlord's

# Clients the radar watches.
parties:
  - name: "ACME Comércio Ltda."
`;

let dir: string;
let path: string;
let env: Record<string, string>;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "monitor-watch-"));
  path = join(dir, "watchlist.yaml");
  env = {
    MONITOR_WATCHLIST: path,
    MONITOR_DB: join(dir, "monitor.db"),
    MONITOR_LOG_LEVEL: "silent",
  };
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("datajud-monitor watch", () => {
  it("adds the case under cases:, keeping every comment, blank line and the rest as written", async () => {
    writeFileSync(path, COMMENTED, { mode: 0o640 });

    const result = await cliInProcess(
      ["watch", NEW_CASE, "--label", "ACME (nova ação)", "--watcher", "joao@example.com"],
      env,
      dir,
    );

    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${NEW_CASE} added to ${path} (line 11)\n`);
    const text = readFileSync(path, "utf8");
    expect(text).toBe(
      COMMENTED.replace(
        '    label: "Despejo"   # the landlord\'s\n',
        `    label: "Despejo"   # the landlord's\n  - number: "${NEW_CASE}"\n    label: ACME (nova ação)\n    notify:\n      - joao@example.com\n`,
      ),
    );
    const parsed = parseWatchlist(text, path);
    expect(parsed.ok && parsed.watchlist.cases.map((c) => c.number)).toEqual([
      "0713383-43.2025.8.07.0006",
      NEW_CASE,
    ]);
    expect(statSync(path).mode & 0o777).toBe(0o640);
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("does nothing for a case already watched", async () => {
    writeFileSync(path, COMMENTED);

    const result = await cliInProcess(["watch", "07133834320258070006"], env, dir);

    expect(result.code).toBe(0);
    expect(result.stdout).toContain("is already in");
    expect(readFileSync(path, "utf8")).toBe(COMMENTED);
  });

  it("refuses an invalid watchlist and writes nothing", async () => {
    const invalid = COMMENTED.replace('"0713383-43.2025.8.07.0006"', '"0713383-44.2025.8.07.0006"');
    writeFileSync(path, invalid);

    const result = await cliInProcess(["watch", NEW_CASE], env, dir);

    expect(result.code).toBe(2);
    expect(result.stderr).toContain("check digits are 44 but should be 43");
    expect(result.stderr).toContain("was not changed");
    expect(readFileSync(path, "utf8")).toBe(invalid);
    expect(readdirSync(dir)).toEqual(["watchlist.yaml"]);
  });

  it("refuses a case number with wrong check digits, naming the right ones", async () => {
    writeFileSync(path, COMMENTED);

    const result = await cliInProcess(["watch", "1035289-49.2022.8.26.0602"], env, dir);

    expect(result.code).toBe(2);
    expect(result.stderr).toContain("should be 48");
    expect(readFileSync(path, "utf8")).toBe(COMMENTED);
  });
});
