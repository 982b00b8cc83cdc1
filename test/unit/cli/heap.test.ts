import { describe, expect, it } from "vitest";
import { boundHeapGrowth, HEAP_GROWING_PERCENT } from "../../../src/cli/heap.js";

describe("boundHeapGrowth", () => {
  it("sets V8's heap growing percent for the process", () => {
    const set: string[] = [];

    boundHeapGrowth(["--enable-source-maps"], (flags) => set.push(flags));

    expect(set).toEqual([`--heap-growing-percent=${HEAP_GROWING_PERCENT}`]);
  });

  it("leaves the operator's own --heap-growing-percent alone, in either spelling", () => {
    const set: string[] = [];

    boundHeapGrowth(["--heap-growing-percent=100"], (flags) => set.push(flags));
    boundHeapGrowth(["--heap_growing_percent", "20"], (flags) => set.push(flags));

    expect(set).toEqual([]);
  });
});
