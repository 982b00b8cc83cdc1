import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { ChunkedOutput } from "../../../src/cli/chunked-output.js";

/** A reader slower than the writer: takes one chunk per turn of the event loop. */
function slowReader(): Writable & { received: () => string; mostBuffered: () => number } {
  const parts: string[] = [];
  let most = 0;
  const stream = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _encoding, done) {
      parts.push(chunk.toString("utf8"));
      setImmediate(done);
    },
  });
  const write = stream.write.bind(stream);
  stream.write = ((chunk: string) => {
    const ok = write(chunk);
    most = Math.max(most, stream.writableLength);
    return ok;
  }) as typeof stream.write;
  return Object.assign(stream, { received: () => parts.join(""), mostBuffered: () => most });
}

describe("ChunkedOutput: an export written as fast as its reader takes it", () => {
  it("waits for a slow reader, so no more than a chunk or two is ever waiting", async () => {
    const reader = slowReader();
    const out = new ChunkedOutput(reader);
    const line = `${"x".repeat(99)}\n`;

    for (let i = 0; i < 20_000; i++) await out.write(line);
    await out.flush();

    // 2 MB written; without waiting for "drain" all of it would sit in the stream's buffer.
    expect(reader.received()).toBe(line.repeat(20_000));
    expect(reader.mostBuffered()).toBeLessThanOrEqual(2 * 64 * 1024);
  });

  it("fails when the reader goes away instead of waiting for ever", async () => {
    const reader = new Writable({ highWaterMark: 16, write: () => {} });
    const out = new ChunkedOutput(reader);

    const writing = out.write("y".repeat(70_000));
    reader.destroy();

    await expect(writing).rejects.toThrow(/closed before the export was written/);
  });
});
