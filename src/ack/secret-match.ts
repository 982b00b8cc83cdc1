import { createHash, timingSafeEqual } from "node:crypto";

/** Whether `given` is `expected`, in constant time whatever either's length. */
export function secretMatches(expected: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  const a = createHash("sha256").update(expected, "utf8").digest();
  const b = createHash("sha256").update(given, "utf8").digest();
  return timingSafeEqual(a, b);
}
