import type { Clock } from "../time/clock.js";

/**
 * The budget as every process using one database shares it (the composition root builds it over
 * store/datajud-grants.ts): a sweep's search and an MCP tool's search each take a grant there
 * too, so a second process (`monitor mcp` beside the daemon) adds no budget of its own.
 */
export interface SharedBudget {
  /**
   * `waitMs` 0 when `who` may start a search now (it is counted); otherwise the ms until it may,
   * and whether the whole budget is used (`budget`: wait, as for one process's limiter) or the
   * tools' share while a sweep runs (`share`: a tool is told at once to come back).
   */
  take(who: "sweep" | "tool"): SharedTurn;
  /** Of requestsPerMinute, what the tools may use while a sweep runs in any process. */
  readonly toolLimit: number;
}

export type SharedTurn = { waitMs: 0 } | { waitMs: number; cause: "budget" | "share" };

export interface BudgetShareOptions {
  /** The whole budget: grants allowed in any window (the limiter's `limit`). */
  limit: number;
  /** The window the share is counted over: the limiter's spacing (its window plus margin). */
  windowMs: number;
  /** Percent of `limit` the guest may take while the host is active (0..100). */
  percent: number;
  clock: Clock;
}

/**
 * A guest's bounded share of a budget it shares with a host that comes first: the daemon's MCP
 * tools (the guest) and its sweeps (the host) behind DataJud's one limiter. While the host is
 * active the guest gets at most `percent` of the window's grants and is refused at once beyond
 * that (the caller is told when to come back, never left queued ahead of the host); while the
 * host is idle the guest has the whole budget. The host is active while one of its requests is
 * in flight and for one window after its last one ends, so the pauses inside a sweep (the model,
 * mail) do not open the budget to a flood that the sweep's next case would queue behind.
 */
export class BudgetShare {
  readonly #windowMs: number;
  readonly #clock: Clock;
  readonly #guestLimit: number;
  /** Times of the guest's recent grants, oldest first. */
  readonly #guest: number[] = [];
  #hostInFlight = 0;
  #hostLastAt = Number.NEGATIVE_INFINITY;

  constructor(options: BudgetShareOptions) {
    if (!Number.isFinite(options.percent) || options.percent < 0 || options.percent > 100) {
      throw new RangeError(`percent must be between 0 and 100, got ${options.percent}`);
    }
    this.#windowMs = options.windowMs;
    this.#clock = options.clock;
    this.#guestLimit = Math.floor((options.limit * options.percent) / 100);
  }

  /** Most guest grants in a window while the host is active. */
  get guestLimit(): number {
    return this.#guestLimit;
  }

  /** The host starts a request; call the returned function when it ends (either way). */
  hostBegins(): () => void {
    this.#hostInFlight += 1;
    this.#hostLastAt = this.#clock.now();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#hostInFlight -= 1;
      this.#hostLastAt = this.#clock.now();
    };
  }

  /** Whether the host has a request in flight or had one within the last window. */
  hostActive(): boolean {
    return this.#hostInFlight > 0 || this.#clock.now() - this.#hostLastAt < this.#windowMs;
  }

  /**
   * 0 when the guest may send one more request now (and it is counted); otherwise how many ms
   * until its share has room again, nothing counted.
   */
  guestTake(): number {
    const now = this.#clock.now();
    while (this.#guest.length > 0 && (this.#guest[0] ?? now) <= now - this.#windowMs) {
      this.#guest.shift();
    }
    if (this.hostActive() && this.#guest.length >= this.#guestLimit) {
      const oldest = this.#guest[this.#guest.length - this.#guestLimit];
      // A share of 0 never has room while the host is active: come back when it may be idle.
      const roomAt =
        oldest === undefined ? this.#hostLastAt + this.#windowMs : oldest + this.#windowMs;
      return Math.max(1, roomAt - now);
    }
    this.#guest.push(now);
    return 0;
  }
}
