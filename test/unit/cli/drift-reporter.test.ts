import { describe, expect, it } from "vitest";
import { driftReporter } from "../../../src/cli/runtime.js";

describe("the fields DataJud sends that the reader does not read", () => {
  it("are logged once per field per process, with how often each was seen", () => {
    const lines: Array<{ fields: unknown; message: string }> = [];
    const logger = {
      warn: (fields: unknown, message: string) => lines.push({ fields, message }),
    };
    let drift: Record<string, number> = {};
    const report = driftReporter(() => drift, logger as never);
    report();
    expect(lines).toEqual([]);
    drift = { orgaoJulgador_novo: 2 };
    report();
    drift = { orgaoJulgador_novo: 5, tribunal_sigla: 1 };
    report();
    report();
    expect(lines).toEqual([
      {
        fields: { fields: { orgaoJulgador_novo: 2 } },
        message: "DataJud sent fields this version does not read",
      },
      {
        fields: { fields: { tribunal_sigla: 1 } },
        message: "DataJud sent fields this version does not read",
      },
    ]);
  });
});
