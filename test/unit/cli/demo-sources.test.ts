import { describe, expect, it } from "vitest";
import { recordedSources } from "../../../src/cli/demo.js";
import { djenSample } from "../../../src/demo/recordings.js";
import { FakeClock, fakeSystem } from "../../fakes/fake-clock.js";

/** Noon of Fri 07/11/2025 in São Paulo (15:00 UTC): the demo's day. */
const NOON = Date.UTC(2025, 10, 7, 15, 0);

async function djenDays(fetch: typeof globalThis.fetch): Promise<string[]> {
  const response = await fetch("https://djen.example/api/v1/comunicacao");
  const body = (await response.json()) as { items: Array<{ data_disponibilizacao: string }> };
  return body.items.map((i) => i.data_disponibilizacao).sort();
}

describe("the demo's recorded sources", () => {
  it("DJEN holds the baseline sample, each item dated its days before the demo's day; the later day adds the later items", async () => {
    const sources = recordedSources(fakeSystem(new FakeClock({ now: NOON })));
    const sample = djenSample();
    const daysAgo = (items: ReadonlyArray<{ availableDaysAgo: number }>) =>
      items
        .map((s) => new Date(Date.UTC(2025, 10, 7 - s.availableDaysAgo)).toISOString().slice(0, 10))
        .sort();

    expect(sample.baseline.length).toBeGreaterThan(0);
    expect(sample.later.length).toBeGreaterThan(0);
    expect(await djenDays(sources.djen.fetch)).toEqual(daysAgo(sample.baseline));
    sources.toLaterDay();
    expect(await djenDays(sources.djen.fetch)).toEqual(
      daysAgo([...sample.later, ...sample.baseline]),
    );
  });
});
