import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { closeDatabase, type Db, openDatabase } from "../../../src/store/database.js";
import {
  acquireLease,
  holderIsDeadOnHost,
  leaseHolder,
  processIsAlive,
  releaseLease,
  renewLease,
} from "../../../src/store/lease.js";

const NOW = Date.parse("2026-03-01T10:00:00.000Z");
const TTL = 60_000;
const DAEMON = "101@server:aa11";
const CLI = "202@server:bb22";

let dir: string;
let daemon: Db;
let cli: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "store-lease-"));
  const path = join(dir, "monitor.db");
  daemon = openDatabase(path);
  cli = openDatabase(path);
});

afterEach(() => {
  closeDatabase(daemon);
  closeDatabase(cli);
  rmSync(dir, { recursive: true, force: true });
});

describe("acquireLease", () => {
  it("lets only one of two connections on the same file hold the lease", () => {
    const first = acquireLease(daemon, { holder: DAEMON, now: NOW, ttlMs: TTL });

    const second = acquireLease(cli, { holder: CLI, now: NOW + 1000, ttlMs: TTL });

    expect(first).toEqual({ ok: true });
    expect(second).toEqual({
      ok: false,
      holder: DAEMON,
      expiresAt: new Date(NOW + TTL).toISOString(),
    });
  });

  it("is free again once released", () => {
    acquireLease(daemon, { holder: DAEMON, now: NOW, ttlMs: TTL });

    releaseLease(daemon, DAEMON);
    const next = acquireLease(cli, { holder: CLI, now: NOW + 1000, ttlMs: TTL });

    expect(next).toEqual({ ok: true });
  });

  it("lets another holder take over an expired lease, after which the old holder cannot renew or release it", () => {
    acquireLease(daemon, { holder: DAEMON, now: NOW, ttlMs: TTL });

    const takeover = acquireLease(cli, { holder: CLI, now: NOW + TTL, ttlMs: TTL });
    const renewedByOld = renewLease(daemon, DAEMON, NOW + TTL + 1, TTL);
    releaseLease(daemon, DAEMON);
    const third = acquireLease(daemon, { holder: DAEMON, now: NOW + TTL + 2, ttlMs: TTL });

    expect(takeover).toEqual({ ok: true });
    expect(renewedByOld).toBe(false);
    expect(third).toMatchObject({ ok: false, holder: CLI });
  });

  it("extends the lease on renewal so it does not expire mid-sweep", () => {
    acquireLease(daemon, { holder: DAEMON, now: NOW, ttlMs: TTL });

    const renewed = renewLease(daemon, DAEMON, NOW + TTL / 2, TTL);
    const attempt = acquireLease(cli, { holder: CLI, now: NOW + TTL + 1, ttlMs: TTL });

    expect(renewed).toBe(true);
    expect(attempt).toEqual({
      ok: false,
      holder: DAEMON,
      expiresAt: new Date(NOW + TTL / 2 + TTL).toISOString(),
    });
  });

  it("lets the holder re-acquire its own lease", () => {
    acquireLease(daemon, { holder: DAEMON, now: NOW, ttlMs: TTL });

    const again = acquireLease(daemon, { holder: DAEMON, now: NOW + 10, ttlMs: TTL });

    expect(again).toEqual({ ok: true });
  });

  it("takes over at once from a holder known to be dead, and only then", () => {
    acquireLease(daemon, { holder: DAEMON, now: NOW, ttlMs: TTL });

    const alive = acquireLease(cli, {
      holder: CLI,
      now: NOW + 1,
      ttlMs: TTL,
      holderIsDead: () => false,
    });
    const dead = acquireLease(cli, {
      holder: CLI,
      now: NOW + 2,
      ttlMs: TTL,
      holderIsDead: (h) => h === DAEMON,
    });

    expect(alive.ok).toBe(false);
    expect(dead).toEqual({ ok: true });
  });

  it("cannot renew a lease nobody holds", () => {
    expect(renewLease(daemon, DAEMON, NOW, TTL)).toBe(false);
  });
});

describe("leaseHolder", () => {
  it("names the process, host and a random tag", () => {
    expect(leaseHolder(4242, "server", "9f3a")).toBe("4242@server:9f3a");
  });
});

describe("holderIsDeadOnHost", () => {
  it("judges only holders of this host, by whether their pid still runs", () => {
    const gone = (pid: number): boolean => pid === 4242;

    expect(holderIsDeadOnHost("4242@server:9f3a", "server", (pid) => !gone(pid))).toBe(true);
    expect(holderIsDeadOnHost("4243@server:9f3a", "server", (pid) => !gone(pid))).toBe(false);
    expect(holderIsDeadOnHost("4242@other:9f3a", "server", (pid) => !gone(pid))).toBe(false);
    expect(holderIsDeadOnHost("not a holder", "server", () => false)).toBe(false);
  });

  it("sees this process as alive", () => {
    expect(processIsAlive(process.pid)).toBe(true);
  });
});
