import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { mcpCommand } from "../../../src/cli/mcp.js";
import { DjenClient } from "../../../src/djen/http-client.js";
import { connectInProcess } from "../../../src/mcp/in-process-client.js";
import { createMonitorDeps } from "../../../src/mcp/monitor-deps.js";
import { createDataJudServer } from "../../../src/mcp/server.js";
import { FakeClock } from "../../fakes/fake-clock.js";

/*
 * What `monitor mcp` serves with everything on (DataJud, DJEN, the monitor's history) is what its
 * --help and docs/claude-and-mcp.md name: a tool added or renamed shows in both.
 */

const page = readFileSync(
  fileURLToPath(new URL("../../../docs/claude-and-mcp.md", import.meta.url)),
  "utf8",
);

async function servedTools(): Promise<string[]> {
  const clock = new FakeClock({ autoAdvance: true });
  const monitor = createMonitorDeps({
    clock,
    dbPath: "/nonexistent/monitor.db",
    watchlist: async () => null,
    datajud: null,
    summarizer: { model: null, runTokenBudget: 1, dailyTokenBudget: 1 },
    timezone: "America/Sao_Paulo",
    djen: { enabled: true, plan: null },
  });
  const djen = new DjenClient({ baseUrl: "http://127.0.0.1:9", clock, random: () => 0 });
  const connection = await connectInProcess(
    createDataJudServer({
      reader: null,
      unavailable: "no key in this test",
      djen,
      monitor: monitor.deps,
    }),
  );
  try {
    return (await connection.client.listTools()).tools.map((t) => t.name).sort();
  } finally {
    await connection.close();
    monitor.close();
  }
}

describe("monitor mcp's tools", () => {
  it("are each named by its --help and by docs/claude-and-mcp.md", async () => {
    const tools = await servedTools();
    const help = mcpCommand.details.join(" ");

    expect(tools.length).toBeGreaterThan(10);
    expect(tools.filter((name) => !help.includes(name))).toEqual([]);
    expect(tools.filter((name) => !page.includes(`\`${name}\``))).toEqual([]);
  });
});
