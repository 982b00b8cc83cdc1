/**
 * Writes test/fixtures/schema-2/monitor.db with the PREVIOUS version of the monitor, exactly as a
 * user's database was written before movements became a multiset and dates wall clocks:
 *
 *   git worktree add /tmp/schema-2 aac334a && ln -s "$PWD/node_modules" /tmp/schema-2/node_modules
 *   node --import tsx test/support/make-schema-2-database.ts /tmp/schema-2 test/fixtures/schema-2/monitor.db
 *
 * It starts that version's fake DataJud, serves it the scenario of upgrade-scenario.ts, and runs
 * that version's `monitor run-once` twice (state "baseline", then "moved"), in process. Nothing of
 * this checkout's src/ is used to write the database.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { UPGRADE_WATCHLIST, type UpgradeState, upgradeAnswers } from "./upgrade-scenario.js";

interface OldFake {
  url: string;
  apiKey: string;
  setDocuments(alias: string, docs: unknown[]): void;
  close(): Promise<void>;
}

const [oldTree, output] = process.argv.slice(2);
if (oldTree === undefined || output === undefined) {
  throw new Error("usage: make-schema-2-database.ts OLD_WORKTREE OUTPUT_DB");
}

async function load<T>(path: string): Promise<T> {
  return (await import(pathToFileURL(resolve(oldTree as string, path)).href)) as T;
}

const { startFakeDataJud } = await load<{ startFakeDataJud(o: object): Promise<OldFake> }>(
  "test/fakes/fake-datajud.ts",
);
const { runCli } = await load<{ runCli(io: unknown): Promise<number> }>("src/cli/run-cli.ts");
const { captureIo } = await load<{
  captureIo(env: object, cwd: string, argv: string[]): { out(): string; err(): string };
}>("test/integration/cli/cli-io.ts");

const dir = mkdtempSync(join(tmpdir(), "schema-2-"));
writeFileSync(join(dir, "watchlist.yaml"), UPGRADE_WATCHLIST);
const fake = await startFakeDataJud({ apiKey: "schema-2-key" });
const env = {
  DATAJUD_BASE_URL: fake.url,
  DJEN_ENABLED: "false",
  DATAJUD_API_KEY: fake.apiKey,
  MONITOR_WATCHLIST: join(dir, "watchlist.yaml"),
  MONITOR_DB: join(dir, "monitor.db"),
  MONITOR_OUTBOX_DIR: join(dir, "outbox"),
  MONITOR_LOG_LEVEL: "silent",
};

async function sweep(state: UpgradeState): Promise<void> {
  for (const [alias, docs] of Object.entries(upgradeAnswers(state))) fake.setDocuments(alias, docs);
  const io = captureIo(env, dir, ["run-once", "--json"]);
  const code = await runCli(io);
  const report = JSON.parse(io.out()) as { cases: Array<{ outcome: string }> };
  console.log(state, code, report.cases.map((c) => c.outcome).join(" "));
  if (code !== 0) throw new Error(`the old run-once failed: ${io.err()}`);
}

try {
  await sweep("baseline");
  await sweep("moved");
  rmSync(output, { force: true });
  // One self-contained file, WAL folded in: what `monitor db backup` would write.
  const db = new Database(env.MONITOR_DB, { readonly: true });
  db.prepare("VACUUM INTO ?").run(resolve(output));
  db.close();
} finally {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
}
