import { describe, expect, it } from "vitest";
import { LookupPlan } from "../../../src/datajud/lookup-plan.js";

function drain(plan: LookupPlan<string>, absent: ReadonlySet<string>): string[] {
  const requests: string[] = [];
  for (let step = plan.next(); step !== undefined; step = plan.next()) {
    requests.push(`${step.index}: ${step.items.join(" ")}`);
    for (const item of step.items) if (absent.has(`${item}@${step.index}`)) plan.notFound(item);
  }
  return requests;
}

describe("LookupPlan", () => {
  it("asks each index once for every item waiting for it, fallbacks joining the later index", () => {
    const plan = new LookupPlan<string>();
    plan.add("a", ["trf1", "trf6"]);
    plan.add("b", ["trf6"]);
    plan.add("c", ["trf1", "trf6"]);

    const requests = drain(plan, new Set(["a@trf1"]));

    expect(requests).toEqual(["trf1: a c", "trf6: b a"]);
  });

  it("moves an item on only when told it was not there, and says when no index is left", () => {
    const plan = new LookupPlan<string>();
    plan.add("a", ["trf6", "trf1"]);

    const first = plan.next();
    const next = plan.notFound("a");
    const second = plan.next();
    const last = plan.notFound("a");

    expect(first).toEqual({ index: "trf6", items: ["a"] });
    expect(next).toBe("trf1");
    expect(second).toEqual({ index: "trf1", items: ["a"] });
    expect(last).toBeNull();
    expect(plan.next()).toBeUndefined();
  });

  it("with several indices asked at once, holds back an index that an item in flight may fall back to", () => {
    const plan = new LookupPlan<string>();
    plan.add("a", ["trf1", "trf6"]);
    plan.add("b", ["trf6"]);
    plan.add("c", ["tjsp"]);

    const first = plan.take();
    const second = plan.take();
    const blocked = plan.take();
    plan.notFound("a");
    const joined = plan.take();
    plan.settle("b");
    plan.settle("a");
    plan.settle("c");

    expect(first).toEqual({ index: "trf1", items: ["a"] });
    expect(second).toEqual({ index: "tjsp", items: ["c"] });
    expect(blocked).toBeUndefined();
    expect(joined).toEqual({ index: "trf6", items: ["b", "a"] });
    expect(plan.done).toBe(true);
  });

  it("is not done while an item taken is still unanswered", () => {
    const plan = new LookupPlan<string>();
    plan.add("a", ["tjsp"]);

    plan.take();
    const waiting = plan.done;
    plan.settle("a");

    expect(waiting).toBe(false);
    expect(plan.inFlight).toBe(0);
    expect(plan.done).toBe(true);
  });

  it("refuses a lookup without indices, or planned twice", () => {
    const plan = new LookupPlan<string>();
    plan.add("a", ["tjsp"]);

    expect(() => plan.add("b", [])).toThrow(RangeError);
    expect(() => plan.add("a", ["tjsp"])).toThrow(RangeError);
  });
});
