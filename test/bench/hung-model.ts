/**
 * `node --import tsx test/bench/hung-model.ts [--changes 10] [--call-timeout-ms 60000]`: how long
 * a sweep's alerts wait when the model endpoint never answers (issue 29: three changes took
 * 1,087 s). The whole monitor in this process on the real clock (openMonitor, the real SDK, SMTP)
 * against the loopback fakes: a baseline sweep, then every case moves and the measured sweep
 * runs while every Messages API request hangs. Prints the wall time until each alert reached the
 * SMTP sink and the run report's modelUnavailable. A figure, not an assertion.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openMonitor } from "../../src/cli/runtime.js";
import { silentLogger } from "../../src/log.js";
import { runSweep } from "../../src/monitor/sweep.js";
import { realSystem } from "../../src/system.js";
import { type FakeReply, startFakeAnthropic } from "../fakes/fake-anthropic.js";
import { startFakeDataJud } from "../fakes/fake-datajud.js";
import { startSmtpSink } from "../fakes/smtp-sink.js";
import { generatedCases } from "../support/generated-cases.js";
import { concludeAll, modelWorkspace } from "../support/model-workspace.js";

const { values } = parseArgs({
  options: {
    changes: { type: "string", default: "10" },
    "call-timeout-ms": { type: "string", default: "60000" },
  },
});
const count = Number(values.changes);
const { watchlist: cases, documents } = generatedCases(count, 3_100_000);

const datajud = await startFakeDataJud({ apiKey: "bench-hung-model" });
for (const [alias, list] of documents) datajud.setDocuments(alias, list);
const anthropic = await startFakeAnthropic();
const sink = await startSmtpSink();
const dir = mkdtempSync(join(tmpdir(), "bench-hung-model-"));
const { watchlist, loaded } = modelWorkspace(
  dir,
  cases,
  { datajud, anthropic, sink },
  Number(values["call-timeout-ms"]),
);
const monitor = await openMonitor(
  { config: loaded.config, secrets: loaded.secrets, logger: silentLogger() },
  { watchlist: () => watchlist, system: realSystem },
);
const sweep = () =>
  runSweep(monitor.sweep, {
    watchlist: watchlist.cases,
    force: false,
    dryRun: false,
    trigger: "manual",
  });

await sweep();
concludeAll(datajud, cases);
anthropic.enqueue(...Array.from({ length: count * 3 }, (): FakeReply => ({ kind: "hang" })));
const arrivals: number[] = [];
const started = Date.now();
const watch = setInterval(() => {
  while (arrivals.length < sink.messages.length) arrivals.push(Date.now() - started);
}, 50);
const report = await sweep();
const seconds = (Date.now() - started) / 1000;
clearInterval(watch);
while (arrivals.length < sink.messages.length) arrivals.push(Date.now() - started);

console.log(
  JSON.stringify(
    {
      changes: count,
      callTimeoutMs: Number(values["call-timeout-ms"]),
      sweepSeconds: seconds,
      alertsReceived: sink.messages.length,
      lastAlertSeconds: (arrivals.at(-1) ?? 0) / 1000,
      modelRequests: anthropic.requests.length,
      emailsSent: report.emailsSent,
      modelUnavailable: report.modelUnavailable,
    },
    null,
    2,
  ),
);
await monitor.close();
await sink.close();
await anthropic.close();
await datajud.close();
rmSync(dir, { recursive: true, force: true });
