import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const made = new Set<string>();

/**
 * A new private directory under the system's temp directory, removed once the test file that
 * made it has run (temp-dir-cleanup.ts, a vitest setup file), whatever its tests did to it.
 */
export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

/** Writable again, so a test that made a directory read-only does not keep it on disk. */
function unlock(path: string): void {
  try {
    chmodSync(path, 0o700);
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path)) unlock(join(path, entry));
    }
  } catch {
    // Gone already, or a link to nowhere: nothing to unlock.
  }
}

/** Removes every directory `makeTempDir` made so far. */
export function removeTempDirs(): void {
  for (const dir of made) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      unlock(dir);
      rmSync(dir, { recursive: true, force: true });
    }
  }
  made.clear();
}
