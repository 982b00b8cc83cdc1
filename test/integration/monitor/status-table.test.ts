import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeDataJud } from "../../fakes/fake-datajud.js";
import {
  baseEnv,
  cliInProcess,
  startDataJud,
  THREE_CASES,
  workspace,
} from "../../support/cli-harness.js";

let datajud: FakeDataJud;

beforeAll(async () => {
  datajud = await startDataJud("status-table-key");
});

afterAll(async () => {
  await datajud?.close();
});

const LABEL =
  "Espólio de Fulano de Tal x Banco Exemplo S.A. (revisional de contrato, 2ª vara cível)";

describe("monitor status's table", () => {
  it("fits a 100-column terminal: long labels cut, errors under the table, muted cases marked", async () => {
    const ws = workspace("status-table-");
    writeFileSync(
      ws.watchlistPath,
      `defaults:\n  notify: [ana@example.com]\ncases:\n${THREE_CASES.map(
        (n, i) =>
          `  - number: "${n}"\n    label: "${LABEL}"\n${i === 0 ? '    muted_until: "2031-01-31"\n' : ""}`,
      ).join("")}`,
    );
    const env = baseEnv(ws, datajud);
    await cliInProcess(["run-once"], env, ws.dir);
    await cliInProcess(["run-once"], { ...env, DATAJUD_API_KEY: "a-rotated-key" }, ws.dir);

    const status = await cliInProcess(["status"], env, ws.dir);
    const lines = status.stdout.split("\n");
    const table = lines.slice(0, 1 + THREE_CASES.length);

    expect(table[0]).toMatch(
      /^case\s+court\s+label\s+outcome\s+last change\s+djen\s+mail\s+error$/u,
    );
    for (const line of table) expect(line.length).toBeLessThanOrEqual(100);
    expect(table[1]).toContain("failed x1, muted ");
    expect(table[1]).toMatch(/ Espólio de Fu[^…]*… +failed/u);
    expect(table[1]).toMatch(/\[1\]$/u);
    expect(lines[1 + THREE_CASES.length]).toMatch(/^\[1\] 3 cases: .*HTTP 401/u);
    expect(status.code).toBe(3);
  });
});
