import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MonitorHandles, openMonitor } from "../../../src/cli/runtime.js";
import { loadConfig } from "../../../src/config/load-config.js";
import { silentLogger } from "../../../src/log.js";
import { mailTick } from "../../../src/monitor/mail-tick.js";
import { parseWatchlist, type Watchlist } from "../../../src/watchlist/parse-watchlist.js";
import { FakeClock, fakeSystem } from "../../fakes/fake-clock.js";
import { type FakeWhatsApp, startFakeWhatsApp } from "../../fakes/fake-whatsapp.js";
import { ACK_BASE, ACK_SECRET } from "../../support/ack-http.js";
import { queueChange } from "../../support/outbox-store.js";
import { sampleAlert } from "../../unit/notify/render/sample-alert.js";

/*
 * A chain's watcher step reaches the watcher's WhatsApp too, as her alerts do: the step's e-mail
 * to socia@ and, through the per-watcher WhatsApp endpoint, a template message to her number,
 * whose link acknowledges the alert itself. ana@ got the urgent alert on Fri 27/11/2026 16:00
 * (São Paulo, UTC-3); within 4 business hours: Fri 16:00-18:00 (2 h), the weekend, Mon 30/11
 * 09:00 + 2 h = 11:00 (14:00Z).
 */

const SOCIA_ZAP = "+5561912345678";
const WATCHLIST = `
defaults:
  notify: [ana@firma.com.br]
  escalation:
    within: 4
    chain: [ { watcher: socia@firma.com.br } ]
cases:
  - number: "0713383-43.2025.8.07.0006"
watchers:
  - address: socia@firma.com.br
    whatsapp: "${SOCIA_ZAP}"
`;

function local(month: number, day: number, hour: number, minute = 0): number {
  return Date.UTC(2026, month - 1, day, hour + 3, minute);
}

let dir: string;
let clock: FakeClock;
let whatsapp: FakeWhatsApp;
let monitor: MonitorHandles;
let watchlist: Watchlist;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "escalation-whatsapp-"));
  clock = new FakeClock({ now: local(11, 27, 16) });
  whatsapp = await startFakeWhatsApp();
  writeFileSync(
    join(dir, "monitor.yaml"),
    `schedule:
  startJitterSeconds: 0
mail:
  from: "Monitor <monitor@monitor.example.com>"
acknowledgement:
  publicBaseUrl: ${ACK_BASE}
notify:
  endpoints:
    zap: { channel: whatsapp, tokenVariable: WHATSAPP_TOKEN, phoneNumberId: "${whatsapp.phoneNumberId}", template: { name: alerta_processo, language: pt_BR }, apiBase: "${whatsapp.apiBase}" }
`,
  );
  const parsed = parseWatchlist(WATCHLIST, join(dir, "watchlist.yaml"), {
    acknowledgement: true,
    endpoints: ["zap"],
    perWatcherEndpoints: ["zap"],
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  watchlist = parsed.watchlist;
  const env = {
    MONITOR_CONFIG: join(dir, "monitor.yaml"),
    MONITOR_DB: join(dir, "monitor.db"),
    MONITOR_OUTBOX_DIR: join(dir, "outbox"),
    DJEN_ENABLED: "false",
    DATAJUD_API_KEY: "unused-key",
    WHATSAPP_TOKEN: whatsapp.token,
    ACK_SECRET,
    MONITOR_LOG_LEVEL: "silent",
  };
  const loaded = loadConfig({ cwd: dir, env });
  if (!loaded.ok) throw new Error(loaded.errors.join("\n"));
  monitor = await openMonitor(
    { config: loaded.config, secrets: loaded.secrets, logger: silentLogger() },
    { watchlist: () => watchlist, system: fakeSystem(clock) },
  );
}, 60_000);

afterEach(async () => {
  await monitor?.close();
  await whatsapp?.close();
  rmSync(dir, { recursive: true, force: true });
});

function escalationRows(): Array<{ channel: string; recipient: string; status: string }> {
  return monitor.db
    .prepare(
      "SELECT channel, recipient, status FROM outbox WHERE message_type = 'escalation' ORDER BY id",
    )
    .all() as Array<{ channel: string; recipient: string; status: string }>;
}

describe("a watcher's escalation step on WhatsApp", () => {
  it("goes to her e-mail and to her own number, once, with a link to acknowledge the alert", async () => {
    queueChange(
      monitor.db,
      sampleAlert({ urgent: true, urgentReasons: ["regra urgente: sentença"] }),
      ["ana@firma.com.br"],
      new Date(clock.now()).toISOString(),
      monitor.mail.policy(),
    );
    clock.set(local(11, 27, 16, 1));
    await mailTick(monitor.mail);
    expect(escalationRows()).toEqual([]);

    clock.set(local(11, 30, 10, 59));
    await mailTick(monitor.mail);
    expect(escalationRows()).toEqual([]);
    expect(whatsapp.messages).toEqual([]);

    clock.set(local(11, 30, 11));
    await mailTick(monitor.mail);
    clock.set(local(11, 30, 11, 1));
    await mailTick(monitor.mail);
    const rows = escalationRows();
    expect(rows.map((r) => [r.channel, r.status])).toEqual([
      ["email", "sent"],
      ["whatsapp", "sent"],
    ]);
    expect(rows[0]?.recipient).toBe("socia@firma.com.br");
    expect(whatsapp.messages.map((m) => m.to)).toEqual([SOCIA_ZAP.slice(1)]);
    expect(whatsapp.messages[0]?.shown).toContain(`${ACK_BASE}/ack/`);

    // Later ticks send nothing again.
    clock.set(local(11, 30, 15));
    await mailTick(monitor.mail);
    expect(escalationRows()).toHaveLength(2);
    expect(whatsapp.messages).toHaveLength(1);
  });
});
