import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DjenError } from "../../../src/djen/errors.js";
import {
  DjenClient,
  type DjenClientEvent,
  type DjenClientOptions,
} from "../../../src/djen/http-client.js";
import { djenQuery } from "../../../src/djen/query.js";
import { readAllPages, searchOab } from "../../../src/djen/search.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import { djenItem, type FakeDjen, startFakeDjen } from "../../fakes/fake-djen.js";
import { waitFor } from "../../support/wait-for.js";

const CASE = "0713383-43.2025.8.07.0006";
const SP = { number: "123456", uf: "SP" } as const;
const WINDOW = { from: "2025-09-29", to: "2025-09-30" };

let fake: FakeDjen;
let clock: FakeClock;
let events: DjenClientEvent[];

function client(options: Partial<DjenClientOptions> = {}): DjenClient {
  return new DjenClient({
    baseUrl: fake.url,
    clock,
    random: () => 0.5,
    onEvent: (event) => events.push(event),
    ...options,
  });
}

async function failure(promise: Promise<unknown>): Promise<DjenError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(DjenError);
    return error as DjenError;
  }
  throw new Error("expected the DJEN call to fail");
}

beforeEach(async () => {
  fake = await startFakeDjen();
  clock = new FakeClock({ now: Date.UTC(2025, 8, 30, 12), autoAdvance: true });
  events = [];
});

afterEach(async () => {
  await fake.close();
});

describe("reading a query", () => {
  it("reads every page of a case's communications, 50 at a time", async () => {
    fake.setItems(Array.from({ length: 120 }, (_, i) => djenItem({ id: 1000 + i })));
    fake.add(djenItem({ id: 1, caseNumber: "09199921120238190001" }));

    const result = await readAllPages(client(), djenQuery({ caseNumber: CASE }));

    expect(result.publications).toHaveLength(120);
    expect(result.count).toBe(120);
    expect(result.pages).toBe(3);
    expect(fake.requests.map((r) => [r.params.pagina, r.params.itensPorPagina])).toEqual([
      ["1", "50"],
      ["2", "50"],
      ["3", "50"],
    ]);
    expect(fake.requests[0]?.params.numeroProcesso).toBe("07133834320258070006");
  });

  it("reads zero items as zero when DJEN counts zero", async () => {
    const result = await readAllPages(client(), djenQuery({ caseNumber: CASE, ...WINDOW }));

    expect(result).toMatchObject({ publications: [], count: 0, pages: 1, requests: 1 });
  });

  it("retries an empty page served while fewer than count items were read", async () => {
    fake.setItems(Array.from({ length: 60 }, (_, i) => djenItem({ id: 2000 + i })));
    fake.failNext({}, { emptyPage: true });

    const result = await readAllPages(client(), djenQuery({ caseNumber: CASE }));

    expect(result.publications).toHaveLength(60);
    expect(fake.requests.map((r) => r.params.pagina)).toEqual(["1", "2", "2"]);
    expect(events.filter((e) => e.type === "retry")).toMatchObject([
      { attempt: 1, error: { kind: "incomplete" } },
    ]);
  });

  it("fails as incomplete, never as fewer items, when the empty page persists", async () => {
    fake.setItems(Array.from({ length: 60 }, (_, i) => djenItem({ id: 2000 + i })));
    fake.failNext({}, ...Array.from({ length: 4 }, () => ({ emptyPage: true })));

    const error = await failure(readAllPages(client(), djenQuery({ caseNumber: CASE })));

    expect(error).toMatchObject({ kind: "incomplete", retryable: true, attempts: 4 });
    expect(error.message).toMatch(/page 2 empty although it counts 60 items and 50 were read/);
  });

  it("refuses an answer that ignored its filter, using none of it", async () => {
    fake.setItems([djenItem({ id: 1 }), djenItem({ id: 2, caseNumber: "09199921120238190001" })]);
    fake.ignoreFilters = true;

    const error = await failure(readAllPages(client(), djenQuery({ caseNumber: CASE })));

    expect(error.kind).toBe("filter_ignored");
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/item 2 is for case 09199921120238190001.*none of it is used/);
    expect(fake.requests).toHaveLength(1);
  });

  it("says so when count reaches DJEN's cap of 10,000, before reading 200 pages", async () => {
    fake.setItems(Array.from({ length: 10_050 }, (_, i) => djenItem({ id: 10_000 + i })));

    const error = await failure(readAllPages(client(), djenQuery({ caseNumber: CASE })));

    expect(error).toMatchObject({ kind: "too_many", retryable: false });
    expect(error.message).toMatch(/counts 10000 or more .* narrow the window/);
    expect(fake.requests).toHaveLength(1);
  });

  it("takes an item with camelCase names and one cancelled, with HTML text", async () => {
    fake.setItems([
      djenItem({ id: 7, camelCase: true }),
      djenItem({ id: 8, cancelled: "Publicação em duplicidade" }),
    ]);

    const result = await readAllPages(client(), djenQuery({ caseNumber: CASE, ...WINDOW }));

    expect(
      result.publications.map((p) => [p.id, p.active, p.cancellation?.reason ?? null]),
    ).toEqual([
      ["7", true, null],
      ["8", false, "Publicação em duplicidade"],
    ]);
    expect(result.publications[0]?.text).toContain("<b>intimada</b>");
  });

  it("asks for pages of 50: larger pages have come back empty", async () => {
    fake.setItems([djenItem({ id: 1 })]);
    fake.maxPageSize = 50;

    const result = await readAllPages(client(), djenQuery({ caseNumber: CASE }));

    expect(result.publications).toHaveLength(1);
  });
});

describe("failures", () => {
  it("rides out a burst of 429 (with Retry-After) and 500 answers", async () => {
    fake.setItems([djenItem({ id: 1 })]);
    fake.failNext(
      { status: 429, headers: { "retry-after": "7" } },
      { status: 500 },
      { status: 502 },
    );

    const result = await readAllPages(client(), djenQuery({ caseNumber: CASE }));

    expect(result.publications).toHaveLength(1);
    expect(result.requests).toBe(4);
    expect(
      events
        .filter((e) => e.type === "retry")
        .map((e) => [e.type === "retry" && e.error.kind, e.type === "retry" && e.delayMs]),
    ).toEqual([
      ["rate_limited", 7000],
      ["server", 2000],
      ["server", 4000],
    ]);
  });

  it("gives up after maxAttempts with the last error, retryable for the next sweep", async () => {
    fake.failAlways({ status: 503 });

    const error = await failure(
      client({ maxAttempts: 3 }).page(djenQuery({ caseNumber: CASE }), 1),
    );

    expect(error).toMatchObject({ kind: "server", status: 503, attempts: 3, retryable: true });
  });

  it("answers a 403 from abroad with one clear error, not retried", async () => {
    fake.foreign = true;

    const error = await failure(readAllPages(client(), djenQuery({ caseNumber: CASE })));

    expect(error).toMatchObject({
      kind: "geo_blocked",
      status: 403,
      retryable: false,
      attempts: 1,
    });
    expect(error.message).toMatch(/answers only addresses in Brazil.*djen\.enabled: false/);
    expect(fake.requests).toHaveLength(1);
  });

  it("turns a 200 that says it failed into a bad answer, not zero items", async () => {
    fake.failAlways({ body: { status: "error", message: "falha interna" } });

    const error = await failure(
      client({ maxAttempts: 2 }).page(djenQuery({ caseNumber: CASE }), 1),
    );

    expect(error.kind).toBe("bad_response");
    expect(error.message).toMatch(/not a list of communications.*"falha interna"/);
  });

  it("turns garbage and items without ids into bad answers", async () => {
    fake.failNext(
      { body: "<html>gateway</html>", status: 200 },
      { body: { status: "success", count: 1, items: [{ texto: "sem id" }] } },
    );

    const error = await failure(
      client({ maxAttempts: 2 }).page(djenQuery({ caseNumber: CASE }), 1),
    );

    expect(error).toMatchObject({ kind: "bad_response", attempts: 2 });
    expect(error.message).toMatch(/item 1 on page 1 has no numeric id/);
  });

  it("stops reading an endless answer at the size cap: too_large, not retried, the connection closed", async () => {
    fake.failAlways({ endless: true });

    const error = await failure(client().page(djenQuery({ caseNumber: CASE }), 1));
    await waitFor(() => fake.endless.hungUp === 1, "the client to hang up");

    expect(error).toMatchObject({ kind: "too_large", attempts: 1, retryable: false });
    expect(error.message).toBe(
      "DJEN's answer for case 07133834320258070006 (page 1) is larger than 8 MiB (djen.maxResponseMb); it was not read",
    );
    expect(fake.requests).toHaveLength(1);
    // What the fake wrote before the client hung up: the cap and what sockets buffer, no more.
    expect(fake.endless.bytes).toBeLessThan(8 * 2 ** 20 + 8 * 2 ** 20);
  });

  it("takes a smaller cap (djen.maxResponseMb 1) and a page under it", async () => {
    fake.setItems([
      djenItem({ id: 1, caseNumber: CASE.replace(/\D/g, ""), texto: "x".repeat(600_000) }),
    ]);

    const read = await client({ maxResponseBytes: 2 ** 20 }).page(
      djenQuery({ caseNumber: CASE }),
      1,
    );
    fake.failNext({ endless: true });
    const error = await failure(
      client({ maxResponseBytes: 2 ** 20 }).page(djenQuery({ caseNumber: CASE }), 1),
    );

    expect(read.publications).toHaveLength(1);
    expect(error.kind).toBe("too_large");
    expect(error.message).toContain("larger than 1 MiB");
  });

  it("times out a hung attempt and tries again", async () => {
    fake.setItems([djenItem({ id: 1 })]);
    fake.failNext({ hang: true });

    const result = await readAllPages(client({ timeoutMs: 30 }), djenQuery({ caseNumber: CASE }));

    expect(result.publications).toHaveLength(1);
    expect(events.find((e) => e.type === "retry")).toMatchObject({ error: { kind: "timeout" } });
  });

  it("reports a refused connection as a network failure", async () => {
    const url = fake.url;
    await fake.close();
    fake = await startFakeDjen();

    const error = await failure(
      new DjenClient({ baseUrl: url, clock, random: Math.random, maxAttempts: 1 }).page(
        djenQuery({ caseNumber: CASE }),
        1,
      ),
    );

    expect(error.kind).toBe("network");
    expect(error.message).toMatch(/could not reach DJEN/);
  });

  it("stops with `cancelled` when the caller aborts during a back-off", async () => {
    clock.autoAdvance = false;
    fake.failAlways({ status: 500 });
    const controller = new AbortController();

    const pending = failure(
      client().page(djenQuery({ caseNumber: CASE }), 1, { signal: controller.signal }),
    );
    while (clock.pending === 0) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    const error = await pending;

    expect(error).toMatchObject({ kind: "cancelled", retryable: false, attempts: 1 });
  });

  it("keeps to the requests-per-minute limit over a sliding window", async () => {
    fake.setItems(Array.from({ length: 250 }, (_, i) => djenItem({ id: 5000 + i })));
    const start = clock.now();

    await readAllPages(client({ requestsPerMinute: 2 }), djenQuery({ caseNumber: CASE }));

    expect(fake.requests).toHaveLength(5);
    expect(clock.now() - start).toBeGreaterThanOrEqual(120_000);
  });

  it("says before each wait for the limit that it waits, and about how long", async () => {
    fake.setItems(Array.from({ length: 150 }, (_, i) => djenItem({ id: 5000 + i })));

    await readAllPages(client({ requestsPerMinute: 2 }), djenQuery({ caseNumber: CASE }));

    const throttled = events.filter((e) => e.type === "throttled");
    expect(throttled).toHaveLength(1);
    expect(throttled[0]).toMatchObject({ attempt: 1, limit: 2 });
    const waitMs = throttled[0]?.type === "throttled" ? throttled[0].waitMs : 0;
    expect(waitMs).toBeGreaterThan(55_000);
    expect(waitMs).toBeLessThanOrEqual(62_000);
  });
});

describe("searchOab", () => {
  it("asks for every suffix variant and merges what they find by id", async () => {
    fake.setItems([
      djenItem({ id: 1, lawyers: [{ name: "ANA", oab: "123456", uf: "SP" }] }),
      djenItem({ id: 2, lawyers: [{ name: "ANA", oab: "123456-A", uf: "SP" }] }),
      djenItem({
        id: 3,
        lawyers: [
          { name: "ANA", oab: "123456-O", uf: "SP" },
          { name: "ANA", oab: "123456", uf: "SP" },
        ],
      }),
      djenItem({ id: 4, lawyers: [{ name: "ANA", oab: "123456", uf: "RJ" }] }),
    ]);

    const result = await searchOab(client(), SP, WINDOW);

    expect(result.publications.map((p) => p.id).sort()).toEqual(["1", "2", "3"]);
    expect(result.complete).toBe(true);
    expect(fake.requests.map((r) => r.params.numeroOab)).toEqual([
      "123456",
      "123456-O",
      "123456-A",
      "123456-N",
      "123456-B",
      "123456-S",
      "123456-E",
    ]);
    expect(fake.requests.every((r) => r.params.ufOab === "SP")).toBe(true);
  });

  it("keeps what the other variants found when one fails, and says the search is incomplete", async () => {
    fake.setItems([djenItem({ id: 1 })]);
    fake.failNext({}, ...Array.from({ length: 4 }, () => ({ status: 500 })));

    const result = await searchOab(client(), SP, WINDOW);

    expect(result.publications.map((p) => p.id)).toEqual(["1"]);
    expect(result.complete).toBe(false);
    expect(result.variants[1]).toMatchObject({ number: "123456-O", count: null });
    expect(result.variants[1]?.error?.kind).toBe("server");
  });

  it("stops at the first variant when DJEN refuses the address", async () => {
    fake.foreign = true;

    const error = await failure(searchOab(client(), SP, WINDOW));

    expect(error.kind).toBe("geo_blocked");
    expect(fake.requests).toHaveLength(1);
  });

  it("rejects a variant answer that named someone else, as a filter DJEN ignored", async () => {
    fake.setItems([djenItem({ id: 1, lawyers: [{ name: "OUTRO", oab: "999", uf: "SP" }] })]);
    fake.ignoreFilters = true;

    const result = await searchOab(client(), SP, WINDOW);

    expect(result.complete).toBe(false);
    expect(result.publications).toEqual([]);
    expect(result.variants.every((v) => v.error?.kind === "filter_ignored")).toBe(true);
  });
});
