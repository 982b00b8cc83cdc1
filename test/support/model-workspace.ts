import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ConfigResult, loadConfig } from "../../src/config/load-config.js";
import { parseWatchlist, type Watchlist } from "../../src/watchlist/parse-watchlist.js";
import type { FakeAnthropic } from "../fakes/fake-anthropic.js";
import type { FakeDataJud } from "../fakes/fake-datajud.js";
import type { SmtpSink } from "../fakes/smtp-sink.js";
import { generatedSource } from "./generated-cases.js";

/**
 * A monitor's files in `dir` for generated cases (generated-cases.ts) all watched by one address,
 * its model the fake Messages API with `callTimeoutMs`, its mail the SMTP sink, DJEN off: what
 * the hung-model test and bench open with openMonitor.
 */
export function modelWorkspace(
  dir: string,
  cases: readonly { number: string }[],
  fakes: { datajud: FakeDataJud; anthropic: FakeAnthropic; sink: SmtpSink },
  callTimeoutMs: number,
): { watchlist: Watchlist; loaded: Extract<ConfigResult, { ok: true }> } {
  const text = [
    "defaults:",
    "  notify: [ana@example.com]",
    "cases:",
    ...cases.map((c) => `  - number: "${c.number}"`),
    "",
  ].join("\n");
  writeFileSync(join(dir, "watchlist.yaml"), text);
  writeFileSync(
    join(dir, "monitor.yaml"),
    `summarizer:\n  callTimeoutMs: ${callTimeoutMs}\nmail:\n  from: "Monitor <monitor@monitor.example.com>"\n`,
  );
  const parsed = parseWatchlist(text, join(dir, "watchlist.yaml"));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const loaded = loadConfig({
    cwd: dir,
    env: {
      MONITOR_CONFIG: join(dir, "monitor.yaml"),
      MONITOR_WATCHLIST: join(dir, "watchlist.yaml"),
      MONITOR_DB: join(dir, "monitor.db"),
      DATAJUD_BASE_URL: fakes.datajud.url,
      DATAJUD_API_KEY: fakes.datajud.apiKey,
      DATAJUD_MAX_ATTEMPTS: "1",
      DJEN_ENABLED: "false",
      ANTHROPIC_API_KEY: fakes.anthropic.apiKey,
      ANTHROPIC_BASE_URL: fakes.anthropic.url,
      SMTP_URL: fakes.sink.url(),
      MONITOR_LOG_LEVEL: "silent",
    },
  });
  if (!loaded.ok) throw new Error(loaded.errors.join("\n"));
  return { watchlist: parsed.watchlist, loaded };
}

/** Every case concluded for decision: one new movement each, one change each at the next sweep. */
export function concludeAll(
  datajud: FakeDataJud,
  cases: readonly { court: string; digits: string }[],
): void {
  for (const c of cases) {
    datajud.upsert(c.court, {
      _id: `${c.court}_${c.digits}`,
      _source: generatedSource(c.digits, "2026-03-02T18:00:00.000Z", [
        { codigo: 26, nome: "Distribuição", dataHora: "2023-02-01T10:00:00.000Z" },
        { codigo: 51, nome: "Conclusão", dataHora: "2026-03-02T17:00:00.000Z" },
      ]),
    });
  }
}
