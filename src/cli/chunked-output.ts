import type { OutputStream } from "./terminal.js";

/** Bigger writes cost fewer system calls; smaller ones keep the export's memory flat. */
const CHUNK_CHARS = 64 * 1024;

/**
 * Text written to `stream` in chunks of about 64 KiB, each after the stream has taken the one
 * before (backpressure): an export of any size holds one chunk, never the whole file, even when
 * the reader (a pipe to gzip, a slow disk) is slower than the database.
 */
export class ChunkedOutput {
  private pending: string[] = [];
  private pendingChars = 0;

  constructor(private readonly stream: OutputStream) {}

  async write(text: string): Promise<void> {
    this.pending.push(text);
    this.pendingChars += text.length;
    if (this.pendingChars >= CHUNK_CHARS) await this.flush();
  }

  /** Writes what is pending and waits until the stream has taken it. */
  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const chunk = this.pending.join("");
    this.pending = [];
    this.pendingChars = 0;
    await writeInTurn(this.stream, chunk);
  }
}

/**
 * Writes `chunk` and, when the stream says its buffer is full (write returned false), waits for
 * it to drain; a stream that closes or fails meanwhile ends the wait with its error.
 */
export function writeInTurn(stream: OutputStream, chunk: string | Uint8Array): Promise<void> {
  const { once, off } = stream;
  if (stream.write(chunk) !== false || once === undefined || off === undefined) {
    return Promise.resolve();
  }
  return new Promise((resolve, reject) => {
    const events = {
      drain: (): void => done(null),
      error: (error?: unknown): void => done(error ?? new Error("the output failed")),
      close: (): void => done(new Error("the output closed before the export was written")),
    };
    const done = (error: unknown): void => {
      for (const [event, listener] of Object.entries(events)) {
        off.call(stream, event as keyof typeof events, listener);
      }
      if (error === null) resolve();
      else reject(error instanceof Error ? error : new Error(String(error)));
    };
    for (const [event, listener] of Object.entries(events)) {
      once.call(stream, event as keyof typeof events, listener);
    }
  });
}
