import { DataJudError, unreachableReason } from "../../datajud/errors.js";

/**
 * A sweep that cannot reach DataJud at all stops asking it. When a query fails without any
 * connection (refused, DNS, TLS: the client's retries already spent) and no query of this sweep
 * has been answered, every other query would fail the same way, each after its own retries: the
 * rest of the sweep is not sent, queries in flight are cancelled, and every case not checked gets
 * a failed check saying why (a failure, never an absence). One answer seen means DataJud is there,
 * and each failure is then a case's own.
 */
export class UnreachableStop {
  /** Aborted when the sweep stops asking: the queries in flight carry its signal. */
  readonly #requests: AbortController;
  #answered = false;
  #error: DataJudError | null = null;
  #reason: string | null = null;

  /** `requests`: the controller whose signal the sweep's DataJud queries carry. */
  constructor(requests: AbortController) {
    this.#requests = requests;
  }

  /** The error every case not asked is recorded with; null while DataJud may be reachable. */
  get error(): DataJudError | null {
    return this.#error;
  }

  /** The failure that stopped the sweep, as the client said it (with DataJud's address). */
  get reason(): string | null {
    return this.#reason;
  }

  /** A query of this sweep got its answer. */
  answered(): void {
    this.#answered = true;
  }

  /** A query failed; true when the sweep stops asking DataJud (now or before). */
  failed(error: unknown): boolean {
    if (this.#error !== null) return true;
    const reason = this.#answered ? null : unreachableReason(error);
    if (reason === null) return false;
    this.#reason = reason;
    this.#error = new DataJudError(
      "network",
      `not asked: DataJud could not be reached in this sweep (${reason})`,
      { retryable: true },
    );
    this.#requests.abort(this.#error);
    return true;
  }
}
