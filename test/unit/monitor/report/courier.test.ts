import { describe, expect, it } from "vitest";
import { Courier } from "../../../../src/monitor/report/courier.js";

/** A drain the test finishes: each call waits for `finish`. */
function scriptedDrain() {
  const running: Array<{ finish: () => void; fail: (error: Error) => void }> = [];
  let calls = 0;
  const drain = () =>
    new Promise<void>((resolve, reject) => {
      calls++;
      running.push({ finish: resolve, fail: reject });
    });
  return { drain, running, calls: () => calls };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("Courier", () => {
  it("runs one drain at a time, and one more after it for everything kicked meanwhile", async () => {
    const d = scriptedDrain();
    const courier = new Courier(d.drain);

    courier.kick();
    courier.kick();
    courier.kick();
    await settle();
    expect(d.calls()).toBe(1);
    d.running[0]?.finish();
    await settle();
    expect(d.calls()).toBe(2);
    d.running[1]?.finish();
    await courier.idle();

    expect(d.calls()).toBe(2);
    courier.kick();
    await settle();
    expect(d.calls()).toBe(3);
    d.running[2]?.finish();
    await courier.idle();
  });

  it("is idle at once when never kicked, and tells a drain's error when asked", async () => {
    const d = scriptedDrain();
    const courier = new Courier(d.drain);
    await courier.idle();

    courier.kick();
    courier.kick();
    await settle();
    d.running[0]?.fail(new Error("SMTP down"));

    await expect(courier.idle()).rejects.toThrow("SMTP down");
    // No second round after a failed one: the error goes up with the phase.
    expect(d.calls()).toBe(1);
  });
});
