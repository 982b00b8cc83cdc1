import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { loadProofKey } from "../../../src/cli/proof-key.js";
import { silentLogger } from "../../../src/log.js";
import { pruneLedger } from "../../../src/monitor/retention.js";
import type { FakeDataJud } from "../../fakes/fake-datajud.js";
import {
  baseEnv,
  cliInProcess,
  moveCase,
  n,
  runOnce,
  startDataJud,
  type Workspace,
  workspace,
} from "../../support/cli-harness.js";

/*
 * The record of watching end to end (issue 36): sweeps against the fake DataJud write an entry
 * per check and per delivery step; `proof CNJ` exports a case's chain and `proof verify` checks
 * it; an entry edited or deleted in the database with plain SQL (as sqlite3 would) breaks it.
 */

let datajud: FakeDataJud | null = null;
afterEach(async () => {
  await datajud?.close();
  datajud = null;
});

interface Exported {
  entries: Array<{ seq: number; kind: string; source: string; outcome: string; subject: string }>;
  head: { hash: string | null };
  startsAfter: string | null;
}

async function setUp(prefix: string): Promise<{ ws: Workspace; env: Record<string, string> }> {
  const ws = workspace(prefix);
  datajud = await startDataJud("proof-key");
  const env = baseEnv(ws, datajud);
  // baseline; the TJDFT case moves (one alert to ana@example.com, written as .eml); DataJud fails.
  await runOnce(ws, env);
  moveCase(datajud, "tjdft", n.tjdftDespejo);
  await runOnce(ws, env);
  datajud.failAlways({ status: 503, body: { error: "maintenance" } });
  await runOnce(ws, env);
  datajud.failAlways(null);
  return { ws, env };
}

async function exportTo(
  ws: Workspace,
  env: Record<string, string>,
  file: string,
  ...flags: string[]
) {
  const run = await cliInProcess(["proof", n.tjdftDespejo, ...flags], env, ws.dir);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const path = join(ws.dir, file);
  writeFileSync(path, run.stdout);
  return { path, text: run.stdout };
}

function sql(ws: Workspace, statement: string, ...params: unknown[]): void {
  const db = new Database(ws.dbPath, { fileMustExist: true });
  try {
    db.prepare(statement).run(...params);
  } finally {
    db.close();
  }
}

describe("proof: a case's record of watching", () => {
  it("lists every check and delivery of the case, and verifies as JSON and as a printable page", async () => {
    const { ws, env } = await setUp("proof-export");
    const json = await exportTo(ws, env, "record.json");
    const record = JSON.parse(json.text) as Exported;
    const digits = n.tjdftDespejo.replace(/\D/gu, "");
    expect(new Set(record.entries.map((e) => e.subject))).toEqual(new Set([digits]));
    expect(record.startsAfter).toBeNull();
    const checks = record.entries.filter((e) => e.kind === "datajud_check").map((e) => e.outcome);
    expect(checks).toEqual(["baseline", "changed", "failed"]);
    const deliveries = record.entries.filter((e) => e.kind === "delivery").map((e) => e.outcome);
    expect(deliveries).toEqual(["queued", "sent"]);

    const intact = await cliInProcess(["proof", "verify", json.path], env, ws.dir);
    expect(intact.code).toBe(0);
    expect(intact.stdout).toMatch(
      new RegExp(
        `^intact: ${record.entries.length} entries of ${n.tjdftDespejo.replace(/\./gu, "\\.")}`,
        "u",
      ),
    );

    const html = await exportTo(ws, env, "record.html", "--format", "html");
    expect(html.text).toContain("<table>");
    expect(html.text).toContain("Consulta ao DataJud (CNJ)");
    expect(html.text).toContain("com mudança");
    expect(html.text).not.toMatch(/<\/script>[\s\S]*<\/script>/u);
    expect((await cliInProcess(["proof", "verify", html.path], env, ws.dir)).code).toBe(0);
  });

  it("is broken by an entry edited or deleted in the database, naming the first bad entry", async () => {
    const { ws, env } = await setUp("proof-tamper");
    const before = JSON.parse((await exportTo(ws, env, "before.json")).text) as Exported;
    const failed = before.entries.find((e) => e.outcome === "failed");
    if (failed === undefined) throw new Error("no failed check recorded");

    // Someone makes the failed check look like a clean one.
    sql(ws, "UPDATE ledger SET outcome = 'unchanged' WHERE seq = ?", failed.seq);
    const edited = await exportTo(ws, env, "edited.json");
    const verdict = await cliInProcess(["proof", "verify", edited.path], env, ws.dir);
    expect(verdict.code).toBe(1);
    expect(verdict.stdout).toMatch(
      new RegExp(`^BROKEN: .*entry ${failed.seq} .*changed after it was written`, "u"),
    );
    sql(ws, "UPDATE ledger SET outcome = 'failed' WHERE seq = ?", failed.seq);
    expect(
      (
        await cliInProcess(
          ["proof", "verify", (await exportTo(ws, env, "again.json")).path],
          env,
          ws.dir,
        )
      ).code,
    ).toBe(0);

    // Someone deletes the e-mail's queued entry: the entry after it points at nothing.
    const queued = before.entries.find((e) => e.outcome === "queued");
    if (queued === undefined) throw new Error("no delivery recorded");
    sql(ws, "DELETE FROM ledger WHERE seq = ?", queued.seq);
    const deleted = await exportTo(ws, env, "deleted.json");
    const after = await cliInProcess(["proof", "verify", deleted.path], env, ws.dir);
    expect(after.code).toBe(1);
    const next = before.entries[before.entries.findIndex((e) => e.seq === queued.seq) + 1];
    expect(after.stdout).toContain(`entry ${next?.seq} `);
    expect(after.stdout).toMatch(/removed or changed/u);
  });

  it("refuses a file that is no record, and a record edited after export", async () => {
    const { ws, env } = await setUp("proof-file");
    const good = await exportTo(ws, env, "good.json");
    const record = JSON.parse(good.text) as Exported;
    record.entries[0] = {
      ...(record.entries[0] as Exported["entries"][number]),
      outcome: "unchanged",
    };
    const forged = join(ws.dir, "forged.json");
    writeFileSync(forged, JSON.stringify(record));
    expect((await cliInProcess(["proof", "verify", forged], env, ws.dir)).code).toBe(1);

    const notRecord = join(ws.dir, "other.json");
    writeFileSync(notRecord, JSON.stringify({ hello: "world" }));
    const refused = await cliInProcess(["proof", "verify", notRecord], env, ws.dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/not a record of watching/u);
  });

  it("stays verifiable after retention replaces old entries with a signed anchor", async () => {
    const { ws, env } = await setUp("proof-retention");
    const key = loadProofKey(env, ws.dir, ws.dbPath, { create: true });
    if (!key.ok) throw new Error(key.error);
    const db = new Database(ws.dbPath, { fileMustExist: true });
    let pruned: ReturnType<typeof pruneLedger>;
    try {
      // 400 days after a day from which every entry of these sweeps is older.
      pruned = pruneLedger(db, Date.now() + 401 * 86_400_000, 400, key.key, silentLogger());
    } finally {
      db.close();
    }
    expect(pruned.broken).toEqual([]);
    expect(pruned.subjects).toBeGreaterThanOrEqual(3);
    // A new sweep after the cut: its entry chains to the anchor.
    await runOnce(ws, env);
    const record = JSON.parse((await exportTo(ws, env, "anchored.json")).text) as Exported & {
      anchor: { hash: string; entries: number } | null;
    };
    expect(record.anchor?.entries).toBeGreaterThanOrEqual(5);
    expect(record.startsAfter).toBe(record.anchor?.hash);
    expect(record.entries.map((e) => e.outcome)).toEqual(["unchanged"]);
    const path = join(ws.dir, "anchored.json");
    expect((await cliInProcess(["proof", "verify", path], env, ws.dir)).code).toBe(0);

    sql(ws, "UPDATE ledger_anchors SET entries = 1");
    const forged = await exportTo(ws, env, "forged-anchor.json");
    const verdict = await cliInProcess(["proof", "verify", forged.path], env, ws.dir);
    expect(verdict.code).toBe(1);
    expect(verdict.stdout).toMatch(/anchor/u);
  });
});
