import { type Db, immediate, statement } from "./database.js";

/*
 * DataJud's budget as every process on one database shares it (migration 024): each search a
 * process starts is a row, and a search goes only while the rows of the last window leave room.
 * The same rules as one process's limiter and MCP share (pacing/limiter.ts, budget-share.ts),
 * across processes: `monitor mcp` beside a daemon no longer adds a budget of its own.
 */

export interface GrantRule {
  /** Searches allowed in any window (datajud.requestsPerMinute). */
  limit: number;
  windowMs: number;
  /** Of those, the MCP tools' while a sweep is on (datajud.mcpSharePercent of `limit`). */
  toolLimit: number;
}

export type Grantee = "sweep" | "tool";

interface GrantRow {
  atMs: number;
  sweep: number;
}

/** waitMs 0: granted and recorded; otherwise the ms until `who` may, and what is full. */
export type GrantTurn = { waitMs: 0 } | { waitMs: number; cause: "budget" | "share" };

/**
 * Whether `who` may start a search at `nowMs` (then it is recorded), or how many ms until it
 * may, nothing recorded: the window's `limit` is used (`budget`), or, for a tool, the tools'
 * share while a sweep is on (`share`). A sweep is on while one of its searches is less than a
 * window old, in any process; then the tools get at most `toolLimit` of the window.
 */
export function takeDataJudGrant(
  db: Db,
  who: Grantee,
  nowMs: number,
  rule: GrantRule,
  pid: number,
): GrantTurn {
  return immediate(db, () => {
    const since = nowMs - rule.windowMs;
    // A row a window ahead of now was taken before the clock went back: it counts no more.
    statement<[number, number]>(db, "DELETE FROM datajud_grants WHERE at_ms <= ? OR at_ms > ?").run(
      since,
      nowMs + rule.windowMs,
    );
    const rows = statement<[number], GrantRow>(
      db,
      "SELECT at_ms AS atMs, sweep FROM datajud_grants WHERE at_ms > ? ORDER BY at_ms, id",
    ).all(since);
    const roomAfter = (times: readonly number[], most: number): number | null => {
      if (times.length < most) return null;
      const freeing = times[times.length - most];
      return freeing === undefined ? null : freeing + rule.windowMs;
    };
    const whole = roomAfter(
      rows.map((r) => r.atMs),
      rule.limit,
    );
    if (whole !== null) return { waitMs: Math.max(1, whole - nowMs), cause: "budget" };
    if (who === "tool") {
      const sweeps = rows.filter((r) => r.sweep === 1).map((r) => r.atMs);
      const lastSweep = sweeps.at(-1);
      const tools = rows.filter((r) => r.sweep === 0).map((r) => r.atMs);
      if (lastSweep !== undefined && tools.length >= rule.toolLimit) {
        // A share of 0 has room only once the sweep may be over.
        const roomAt = roomAfter(tools, rule.toolLimit) ?? lastSweep + rule.windowMs;
        return { waitMs: Math.max(1, roomAt - nowMs), cause: "share" };
      }
    }
    statement<[number, number, number]>(
      db,
      "INSERT INTO datajud_grants (at_ms, sweep, pid) VALUES (?, ?, ?)",
    ).run(nowMs, who === "sweep" ? 1 : 0, pid);
    return { waitMs: 0 };
  });
}
