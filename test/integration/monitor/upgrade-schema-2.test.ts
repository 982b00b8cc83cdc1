import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultMigrationsDir } from "../../../src/store/database.js";
import { latestMigrationVersion } from "../../../src/store/migrate.js";
import { type FakeDataJud, startFakeDataJud } from "../../fakes/fake-datajud.js";
import {
  baseEnv,
  cliInProcess,
  emlFiles,
  outcomes,
  query,
  runOnce,
  type Workspace,
} from "../../support/cli-harness.js";
import { makeTempDir } from "../../support/temp-dir.js";
import {
  UPGRADE_WATCHLIST,
  type UpgradeState,
  upgradeAnswers,
} from "../../support/upgrade-scenario.js";

/**
 * A database written by the previous version (test/fixtures/schema-2/README.md: its own code,
 * real DataJud hits) is upgraded and swept by this one with the same DataJud answers: nothing may
 * be reported, nothing mailed. Then exactly one genuinely new movement is.
 */

const FIXTURE = fileURLToPath(new URL("../../fixtures/schema-2/monitor.db.gz", import.meta.url));

const CASES = {
  "0800624-26.2020.8.23.0090@tjrr": 196,
  "0012590-61.2015.8.07.0018@tjdft": 662,
  "0003495-35.2017.8.27.2716@tjto": 110,
  "0010490-56.2025.8.26.0309@tjsp": 12,
  "1053565-57.2024.8.26.0053@tjsp": 5,
  "0000832-35.2018.4.01.3202@trf1": 2,
  "0001663-20.2011.8.02.0049@tjal": 48,
};
const ALL_UNCHANGED = Object.fromEntries(Object.keys(CASES).map((k) => [k, "unchanged"]));

let datajud: FakeDataJud;
let ws: Workspace;

function serve(state: UpgradeState): void {
  for (const [alias, docs] of Object.entries(upgradeAnswers(state))) {
    datajud.setDocuments(alias, docs);
  }
}

function count(sql: string): number {
  return query<{ n: number }>(ws, sql)[0]?.n ?? -1;
}

/** Stored movements per case; after the upgrade, only those DataJud still lists. */
function listedMovements(listedOnly = true): Record<string, number> {
  const listed = listedOnly ? "AND m.disappeared_at IS NULL" : "";
  const rows = query<{ key: string; n: number }>(
    ws,
    `SELECT c.number || '@' || c.court AS key, COUNT(m.id) AS n
     FROM cases c JOIN movements m ON m.case_id = c.id ${listed}
     GROUP BY c.id`,
  );
  return Object.fromEntries(rows.map((r) => [r.key, r.n]));
}

beforeAll(async () => {
  datajud = await startFakeDataJud({ apiKey: "upgrade-key" });
  const dir = makeTempDir("upgrade-schema-2-");
  ws = {
    dir,
    dbPath: join(dir, "state", "monitor.db"),
    outboxDir: join(dir, "state", "outbox"),
    watchlistPath: join(dir, "watchlist.yaml"),
  };
  writeFileSync(ws.watchlistPath, UPGRADE_WATCHLIST);
  mkdirSync(dirname(ws.dbPath), { recursive: true });
  writeFileSync(ws.dbPath, gunzipSync(readFileSync(FIXTURE)));
});

afterAll(async () => {
  await datajud.close();
});

describe("upgrading a database the previous version wrote", () => {
  it("starts from what that version stored: collapsed repeats, one change, one alert sent", () => {
    expect(query(ws, "PRAGMA user_version")).toEqual([{ user_version: 2 }]);
    expect(listedMovements(false)).toMatchObject({
      "0800624-26.2020.8.23.0090@tjrr": 146,
      "0012590-61.2015.8.07.0018@tjdft": 616,
    });
    expect([
      count("SELECT COUNT(*) AS n FROM changes"),
      count("SELECT COUNT(*) AS n FROM outbox"),
    ]).toEqual([1, 1]);
  });

  it("reports nothing and mails nothing on the same answers, reading every case once", async () => {
    serve("moved");

    const first = await runOnce(ws, baseEnv(ws, datajud));
    const second = await runOnce(ws, baseEnv(ws, datajud));

    expect(first.code).toBe(0);
    expect(outcomes(first.report)).toEqual(ALL_UNCHANGED);
    expect(first.report).toMatchObject({ changed: 0, emailsQueued: 0, emailsSent: 0 });
    // Six courts: one fingerprint and, this once, one full read each.
    expect(first.report.datajudRequests).toBe(12);
    expect(outcomes(second.report)).toEqual(ALL_UNCHANGED);
    expect(second.report.datajudRequests).toBe(6);
    expect(query(ws, "PRAGMA user_version")).toEqual([
      { user_version: latestMigrationVersion(defaultMigrationsDir()) },
    ]);
    expect(count("SELECT COUNT(*) AS n FROM changes")).toBe(1);
    expect(count("SELECT COUNT(*) AS n FROM outbox")).toBe(1);
    expect(count("SELECT COUNT(*) AS n FROM movement_events")).toBe(0);
    expect(emlFiles(ws)).toEqual([]);
  });

  it("holds DataJud's own counts afterwards, every movement re-keyed, the old change kept", () => {
    const pending = count("SELECT COUNT(*) AS n FROM movements WHERE identity IS NULL");
    const ofOldChange = count("SELECT COUNT(*) AS n FROM movements WHERE change_id IS NOT NULL");

    expect(listedMovements()).toEqual(CASES);
    expect(pending).toBe(0);
    expect(ofOldChange).toBe(1);
  });

  it("shows DataJud's counts in history", async () => {
    const history = await cliInProcess(
      ["history", "0800624-26.2020.8.23.0090"],
      baseEnv(ws, datajud),
      ws.dir,
    );

    expect(history.stdout).toContain("196 movements listed by DataJud, 1 change");
  });

  it("then alerts exactly the one genuinely new movement", async () => {
    serve("later");

    const run = await runOnce(ws, baseEnv(ws, datajud));

    expect(outcomes(run.report)).toEqual({
      ...ALL_UNCHANGED,
      "0012590-61.2015.8.07.0018@tjdft": "changed",
    });
    expect(run.report.cases.find((c) => c.court === "tjdft")?.newMovements).toBe(1);
    expect(run.report.emailsQueued).toBe(1);
    const mails = emlFiles(ws);
    expect(mails).toHaveLength(1);
    const mail = await simpleParser(mails[0] ?? "");
    expect(mail.text).toContain("MOVIMENTAÇÕES NOVAS (1)");
    expect(mail.text).toContain("- 04/11/2025 00:15 · Publicação · código 92 · 1º grau (G1)");
  });
});
