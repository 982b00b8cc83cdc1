import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UsageError } from "../../../src/cli/command.js";
import { dbCommand } from "../../../src/cli/db.js";
import { syncWatchedCases } from "../../../src/store/cases.js";
import { closeDatabase, openDatabase } from "../../../src/store/database.js";
import { captureIo } from "../../support/cli-io.js";

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "monitor-db-cli-"));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function env(): NodeJS.ProcessEnv {
  return { MONITOR_DB: join(dir, "monitor.db"), MONITOR_WATCHLIST: join(dir, "watchlist.yaml") };
}

async function db(positionals: string[], force = false) {
  const io = captureIo(env(), dir);
  const code = await dbCommand.run({ values: { force }, positionals }, io);
  return { code, out: io.out(), err: io.err() };
}

describe("monitor db backup", () => {
  it("backs up the live database to a relative PATH, and refuses to overwrite it without --force", async () => {
    const live = openDatabase(join(dir, "monitor.db"));
    syncWatchedCases(
      live,
      [
        {
          number: "0708123-34.2024.8.07.0001",
          digits: "07081233420248070001",
          court: "tjdft",
          label: "x",
          watchers: [],
        },
      ],
      "2025-11-01T00:00:00.000Z",
    );

    const first = await db(["backup", "nightly.db"]);
    const again = await db(["backup", "nightly.db"]);
    const forced = await db(["backup", "nightly.db"], true);
    closeDatabase(live);

    expect(first.code).toBe(0);
    expect(first.out).toContain(`to ${join(dir, "nightly.db")}`);
    expect(first.out).toContain("integrity_check ok");
    const copy = new Database(join(dir, "nightly.db"), { readonly: true });
    expect(copy.prepare("SELECT number FROM cases").all()).toEqual([
      { number: "0708123-34.2024.8.07.0001" },
    ]);
    copy.close();
    expect(again.code).toBe(1);
    expect(again.err).toContain("already exists");
    expect(forced.code).toBe(0);
  });

  it("exits 2 when there is no database, and 1 when the file is not one", async () => {
    const none = await db(["backup", "copy.db"]);
    writeFileSync(join(dir, "monitor.db"), "not sqlite at all ".repeat(20));
    const garbage = await db(["backup", "copy.db"]);

    expect(none.code).toBe(2);
    expect(none.err).toContain("no database at");
    expect(garbage.code).toBe(1);
    expect(garbage.err).toContain("not a database");
    expect(existsSync(join(dir, "copy.db"))).toBe(false);
  });

  it("refuses an unknown action or a missing PATH as usage errors", async () => {
    await expect(db(["restore", "x.db"])).rejects.toBeInstanceOf(UsageError);
    await expect(db(["backup"])).rejects.toThrow("backup needs a PATH");
    await expect(db([])).rejects.toThrow("backup PATH");
    await expect(db(["backup", "a.db", "b.db"])).rejects.toThrow('unexpected argument "b.db"');
  });
});
