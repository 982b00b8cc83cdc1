import { describe, expect, it } from "vitest";
import {
  alertMessageId,
  caseThreadKey,
  domainFromAddress,
  isSafeMessageId,
  threadId,
  watchlistListId,
} from "../../../../src/notify/outbox/message-ids.js";

const CASE = caseThreadKey("0713383-43.2025.8.07.0006", "tjdft");

describe("threadId", () => {
  it("is stable per case and watcher, whatever the address case", () => {
    const first = threadId(CASE, "ana@example.com", "monitor.example.com");

    const again = threadId(CASE, " Ana@Example.com ", "monitor.example.com");

    expect(again).toBe(first);
    expect(first).toMatch(/^<case\.[0-9a-f]{32}@monitor\.example\.com>$/);
  });

  it("differs between watchers and between cases, and reveals neither", () => {
    const ana = threadId(CASE, "ana@example.com", "monitor.example.com");
    const bruno = threadId(CASE, "bruno@example.com", "monitor.example.com");
    const other = threadId(
      caseThreadKey("1035289-48.2022.8.26.0602", "tjsp"),
      "ana@example.com",
      "monitor.example.com",
    );

    expect(new Set([ana, bruno, other]).size).toBe(3);
    expect(ana).not.toContain("ana");
    expect(ana).not.toContain("0713383");
  });

  it("refuses a domain that could break a header", () => {
    const attempt = (): string => threadId(CASE, "ana@example.com", "example.com>\r\nBcc: x@y");

    expect(attempt).toThrow(TypeError);
  });
});

describe("alertMessageId", () => {
  it("is the same for the same outbox key and different for another", () => {
    const key = "alert:7:2026-03-01T10:00:00.000Z:07133834320258070006.tjdft:ana@example.com";

    const a = alertMessageId(key, "monitor.example.com");
    const b = alertMessageId(key, "monitor.example.com");
    const c = alertMessageId(`${key}x`, "monitor.example.com");

    expect(a).toBe(b);
    expect(c).not.toBe(a);
    expect(isSafeMessageId(a)).toBe(true);
  });
});

describe("helpers", () => {
  it("finds the domain of a From address", () => {
    expect(domainFromAddress("Monitor <monitor@Escritorio.com.br>")).toBe("escritorio.com.br");
    expect(domainFromAddress("monitor@example.com")).toBe("example.com");
    expect(domainFromAddress("no address")).toBeNull();
  });

  it("turns a watchlist name into a List-Id", () => {
    expect(watchlistListId("Escritório São Paulo", "example.com")).toBe(
      "escritorio-sao-paulo.example.com",
    );
    expect(watchlistListId("***", "example.com")).toMatch(/^watchlist-[0-9a-f]{8}\.example\.com$/);
  });

  it("rejects message ids with spaces, brackets or line breaks", () => {
    expect(isSafeMessageId("<a@b.c>")).toBe(true);
    expect(isSafeMessageId("<a b@c>")).toBe(false);
    expect(isSafeMessageId("<a@b>\r\nX: y")).toBe(false);
  });
});
