import { describe, expect, it } from "vitest";
import { DataJudError } from "../../../../src/datajud/errors.js";
import { UnreachableStop } from "../../../../src/monitor/detect/unreachable.js";

const REFUSED = new DataJudError(
  "network",
  "could not reach DataJud (https://api-publica.datajud.cnj.jus.br) for api_publica_tjsp: ECONNREFUSED connect ECONNREFUSED 10.0.0.1:443",
);

describe("UnreachableStop", () => {
  it("stops the sweep at the first query that could not connect, and cancels the queries in flight", () => {
    const requests = new AbortController();
    const stop = new UnreachableStop(requests);

    const stopped = stop.failed(REFUSED);

    expect(stopped).toBe(true);
    expect(requests.signal.aborted).toBe(true);
    expect(requests.signal.reason).toBe(stop.error);
    expect(stop.reason).toBe(REFUSED.message);
    expect(stop.error?.kind).toBe("network");
    expect(stop.error?.message).toBe(
      `not asked: DataJud could not be reached in this sweep (${REFUSED.message})`,
    );
    expect(stop.failed(new DataJudError("server", "HTTP 503"))).toBe(true);
  });

  it("keeps asking once any query of the sweep was answered: failures are then the cases' own", () => {
    const requests = new AbortController();
    const stop = new UnreachableStop(requests);

    stop.answered();
    const stopped = stop.failed(REFUSED);

    expect(stopped).toBe(false);
    expect(requests.signal.aborted).toBe(false);
    expect(stop.reason).toBeNull();
  });

  it("counts a deadline whose last attempt could not connect, and nothing that got an answer", () => {
    const deadline = new DataJudError(
      "deadline",
      `DataJud gave no complete answer for api_publica_tjsp within 3 s (2 attempts); last error: ${REFUSED.message}`,
    );
    const answers = [
      new DataJudError(
        "network",
        "lost the connection to DataJud while reading (https://x) for api_publica_tjsp: ECONNRESET",
      ),
      new DataJudError("timeout", "DataJud did not answer api_publica_tjsp within 75000 ms"),
      new DataJudError(
        "deadline",
        "DataJud gave no complete answer for api_publica_tjsp within 180 s (4 attempts); last error: HTTP 503",
      ),
      new DataJudError("auth", "DataJud refused the key (HTTP 401)"),
      new Error("could not reach DataJud"),
    ];

    const tripped = answers.map((error) =>
      new UnreachableStop(new AbortController()).failed(error),
    );
    const byDeadline = new UnreachableStop(new AbortController());
    byDeadline.failed(deadline);

    expect(tripped).toEqual([false, false, false, false, false]);
    expect(byDeadline.reason).toBe(REFUSED.message);
  });
});
