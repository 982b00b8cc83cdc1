import type { DataJudClientEvent } from "../datajud/http-client.js";
import type { DjenClientEvent } from "../djen/http-client.js";
import type { SweepEvent } from "../monitor/sweep.js";
import type { System } from "../system.js";
import type { LiveLines } from "./terminal.js";

/** One court's part of a sweep, as a progress display shows it. */
export interface CourtProgress {
  court: string;
  /** Cases of this court the sweep checks (0 for an index asked on another court's behalf). */
  total: number;
  checked: number;
  failed: number;
  /** DataJud HTTP requests sent to its index, retries included. */
  requests: number;
  startedAt: number | null;
  /** When its last case was checked. */
  doneAt: number | null;
  /** When each request now in flight left, oldest first. */
  inFlight: number[];
  /** A failed request's next attempt is due then (null: none waits). */
  retryAt: number | null;
  retryCause: string | null;
}

/** The DJEN phase's part of a sweep: sources (case numbers, OAB registrations) asked. */
export interface DjenProgress {
  total: number;
  checked: number;
  failed: number;
  /** Left for the next sweep when djen.maxMinutesPerSweep ran out. */
  deferred: number;
  doneAt: number | null;
  /** Nothing leaves for DJEN until then (our rate limit, or a retry's pause); null: no wait. */
  waitUntil: number | null;
  /** Why, as the line says it: "waiting on our rate limit (djen.requestsPerMinute: 20)". */
  waitCause: string | null;
}

const INDEX_PREFIX = "api_publica_";

/**
 * A sweep's progress, court by court, from the sweep's events and the DataJud client's: no I/O and
 * no clock of its own (each event comes with the time it was seen), so it is tested as it is.
 */
export class SweepProgress {
  readonly startedAt: number;
  readonly #courts = new Map<string, CourtProgress>();
  /** Null until the DJEN phase says what it will ask (never, with DJEN off). */
  djen: DjenProgress | null = null;
  /** When detection ended (every case asked, DataJud unreachable, or the sweep stopped). */
  dataJudDoneAt: number | null = null;

  constructor(startedAt: number) {
    this.startedAt = startedAt;
  }

  get courts(): readonly CourtProgress[] {
    return [...this.#courts.values()];
  }

  onSweep(event: SweepEvent, now: number): void {
    switch (event.type) {
      case "planned":
        for (const [court, cases] of Object.entries(event.byCourt))
          this.#court(court).total = cases;
        return;
      case "batch-start": {
        const court = this.#court(event.index);
        court.startedAt ??= now;
        return;
      }
      case "case-checked": {
        const court = this.#court(event.court);
        court.startedAt ??= now;
        court.checked++;
        if (event.outcome === "failed") court.failed++;
        if (court.checked >= court.total) court.doneAt = now;
        return;
      }
      case "detection-end":
        this.dataJudDoneAt = now;
        for (const court of this.#courts.values()) {
          court.inFlight = [];
          court.retryAt = null;
        }
        return;
      case "djen-planned":
        this.djen = {
          total: event.sources,
          checked: 0,
          failed: 0,
          deferred: 0,
          doneAt: event.sources === 0 ? now : null,
          waitUntil: null,
          waitCause: null,
        };
        return;
      case "djen-checked": {
        if (this.djen === null) return;
        this.djen.checked++;
        if (!event.ok) this.djen.failed++;
        if (this.djen.checked >= this.djen.total) {
          this.djen.doneAt = now;
          this.djen.waitUntil = null;
        }
        return;
      }
      case "djen-deferred":
        if (this.djen === null) return;
        this.djen.deferred = event.sources;
        this.djen.doneAt = now;
        this.djen.waitUntil = null;
        return;
      default:
        return;
    }
  }

  /** DJEN's client: a wait for the rate limit or before a retry is shown until a request leaves. */
  onDjen(event: DjenClientEvent, now: number): void {
    const djen = this.djen;
    if (djen === null || djen.doneAt !== null) return;
    switch (event.type) {
      case "throttled":
        djen.waitUntil = now + event.waitMs;
        djen.waitCause = `waiting on our rate limit (djen.requestsPerMinute: ${event.limit})`;
        return;
      case "retry":
        djen.waitUntil = now + event.delayMs;
        djen.waitCause =
          event.error.kind === "rate_limited"
            ? "DJEN asked us to slow down (HTTP 429)"
            : `retrying after ${event.error.kind}`;
        return;
      case "request":
      case "unanswered":
        djen.waitUntil = null;
        djen.waitCause = null;
        return;
      default:
        return;
    }
  }

  onDataJud(event: DataJudClientEvent, now: number): void {
    if (event.type === "concurrency") return;
    const alias = event.index.startsWith(INDEX_PREFIX)
      ? event.index.slice(INDEX_PREFIX.length)
      : event.index;
    const court = this.#court(alias);
    switch (event.type) {
      case "send":
        court.startedAt ??= now;
        court.requests++;
        court.inFlight.push(now);
        court.retryAt = null;
        court.retryCause = null;
        return;
      case "request":
      case "unanswered":
        // Answers are not matched to their requests: the oldest is taken as answered, so the
        // wait shown is at most the real longest one.
        court.inFlight.shift();
        return;
      case "retry":
        court.retryAt = now + event.delayMs;
        court.retryCause = event.error.kind;
        return;
      default:
        return;
    }
  }

  #court(court: string): CourtProgress {
    let progress = this.#courts.get(court);
    if (progress === undefined) {
      progress = {
        court,
        total: 0,
        checked: 0,
        failed: 0,
        requests: 0,
        startedAt: null,
        doneAt: null,
        inFlight: [],
        retryAt: null,
        retryCause: null,
      };
      this.#courts.set(court, progress);
    }
    return progress;
  }
}

/** "8 s", "2 min 05 s": whole seconds, as a person reads a wait. */
export function durationText(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, "0")} s`;
}

function requestsText(n: number): string {
  return n === 1 ? "1 request" : `${n} requests`;
}

/** What a court's row says it is doing now. */
function stateText(court: CourtProgress, now: number, dataJudDoneAt: number | null): string {
  const failed = court.failed > 0 ? `, ${court.failed} failed` : "";
  if (court.total > 0 && court.doneAt !== null) {
    return `done in ${durationText(court.doneAt - (court.startedAt ?? court.doneAt))}${failed}`;
  }
  // Detection ended with this court's cases not all asked (DataJud unreachable, Ctrl-C).
  if (dataJudDoneAt !== null) {
    const left = court.total - court.checked;
    return `${left > 0 ? `stopped, ${left} not checked` : "stopped"}${failed}`;
  }
  const oldest = court.inFlight[0];
  const parts: string[] = [];
  // An index asked only on another court's behalf has no cases to finish: its waits alone.
  if (court.startedAt !== null && court.total > 0) parts.push(durationText(now - court.startedAt));
  if (oldest !== undefined) parts.push(`waiting ${durationText(now - oldest)} for DataJud`);
  else if (court.retryAt !== null) {
    parts.push(
      `retry in ${durationText(court.retryAt - now)} after ${court.retryCause ?? "a failure"}`,
    );
  } else if (court.startedAt === null && court.total > 0) parts.push("queued");
  return `${parts.join("  ")}${failed}`;
}

/**
 * The progress display: a line for the sweep, then one per court (cases checked of total,
 * requests, elapsed, and what it waits on now).
 */
export function renderProgress(progress: SweepProgress, now: number): string[] {
  const courts = progress.courts;
  if (courts.length === 0) return ["DataJud: planning the sweep…"];
  const total = courts.reduce((n, c) => n + c.total, 0);
  const checked = courts.reduce((n, c) => n + c.checked, 0);
  const requests = courts.reduce((n, c) => n + c.requests, 0);
  // Once detection is over its time stops: what runs on (DJEN, mail) is not DataJud's.
  const time =
    progress.dataJudDoneAt === null
      ? durationText(now - progress.startedAt)
      : `done in ${durationText(progress.dataJudDoneAt - progress.startedAt)}`;
  const head = `DataJud: ${checked} of ${total} cases checked, ${requestsText(requests)}, ${time}`;
  const nameWidth = Math.max(0, ...courts.map((c) => c.court.length));
  const countWidth = Math.max(0, ...courts.map((c) => `${c.checked}/${c.total}`.length));
  const requestWidth = Math.max(0, ...courts.map((c) => requestsText(c.requests).length));
  const rows = courts.map((c) => {
    // An index asked for another court's cases (TRF6 for TRF1 numbers) has none of its own.
    const cases = c.total > 0 ? `${c.checked}/${c.total}` : "-";
    return [
      `  ${c.court.padEnd(nameWidth)}`,
      cases.padStart(countWidth),
      requestsText(c.requests).padEnd(requestWidth),
      stateText(c, now, progress.dataJudDoneAt),
    ]
      .join("  ")
      .trimEnd();
  });
  return [head, ...rows, ...djenLines(progress.djen, progress.startedAt, now)];
}

/** "DJEN: 12 of 40 sources checked, 1 failed, 35 s", then "done" or what was left. */
function djenLines(djen: DjenProgress | null, startedAt: number, now: number): string[] {
  if (djen === null || djen.total === 0) return [];
  const failed = djen.failed > 0 ? `, ${djen.failed} failed` : "";
  const deferred = djen.deferred > 0 ? `, ${djen.deferred} left for the next sweep` : "";
  const state =
    djen.doneAt === null
      ? durationText(now - startedAt)
      : `done in ${durationText(djen.doneAt - startedAt)}`;
  const line = `DJEN: ${djen.checked} of ${djen.total} sources checked${failed}${deferred}, ${state}`;
  if (djen.doneAt !== null || djen.waitUntil === null) return [line];
  // Said on a line of its own: a count that stands still for a minute looks frozen otherwise.
  // The countdown first: a narrow terminal cuts the end of the line, never the wait.
  return [line, `  next DJEN request in ${durationText(djen.waitUntil - now)}: ${djen.waitCause}`];
}

/** Handlers for a sweep's events that keep a progress display drawn; `stop` removes it. */
export interface LiveProgress {
  onSweep(event: SweepEvent): void;
  onDataJud(event: DataJudClientEvent): void;
  onDjen(event: DjenClientEvent): void;
  stop(): void;
}

/**
 * A sweep's progress drawn on `lines` (null, off a terminal: no display at all), redrawn on every
 * event and every second for the elapsed times and waits.
 */
export function liveProgress(
  lines: LiveLines | null | undefined,
  system: Pick<System, "clock" | "every">,
): LiveProgress | null {
  if (lines === null || lines === undefined) return null;
  const { clock } = system;
  const progress = new SweepProgress(clock.now());
  let stopped = false;
  const draw = (): void => {
    if (!stopped) lines.show(renderProgress(progress, clock.now()));
  };
  const cancel = system.every(1000, draw);
  draw();
  return {
    onSweep(event) {
      progress.onSweep(event, clock.now());
      draw();
    },
    onDataJud(event) {
      progress.onDataJud(event, clock.now());
      draw();
    },
    onDjen(event) {
      progress.onDjen(event, clock.now());
      draw();
    },
    stop() {
      if (stopped) return;
      stopped = true;
      cancel();
      lines.clear();
    },
  };
}
