import { simpleParser } from "mailparser";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DataJudError } from "../../../src/datajud/errors.js";
import { silentLogger } from "../../../src/log.js";
import type { DataJudGateway, FingerprintedCase } from "../../../src/monitor/datajud-gateway.js";
import { runSweep } from "../../../src/monitor/sweep.js";
import { queueAdminAlerts } from "../../../src/notify/admin-alerts.js";
import { drainOutbox } from "../../../src/notify/drain-outbox.js";
import { createTransport, type MailTransport } from "../../../src/notify/transports.js";
import { pendingMailByCase } from "../../../src/store/outbox.js";
import { parseWatchlist, type WatchedCase } from "../../../src/watchlist/parse-watchlist.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import { type SmtpSink, startSmtpSink } from "../../fakes/smtp-sink.js";
import { DOMAIN, FROM, LIST_ID, type TempStore, tempStore } from "./outbox-setup.js";

const HOUR = 3_600_000;
const ADMIN = "ti@example.com";
const KEY_REJECTED =
  "DataJud rejected the API key (HTTP 401): CNJ rotated the public key; copy the current one";

/** What DataJud does to every request of one sweep, per court. */
type Behaviour = "auth" | "timeout" | "answers";

function watchlist(): WatchedCase[] {
  const parsed = parseWatchlist(
    [
      "cases:",
      '  - number: "0713383-43.2025.8.07.0006"',
      '    label: "Silva x Souza <despejo>"',
      "    notify: [ana@example.com]",
      '  - number: "1035289-48.2022.8.26.0602"',
      "    notify: [ana@example.com]",
    ].join("\n"),
    "watchlist.yaml",
  );
  if (!parsed.ok) throw new Error("bad test watchlist");
  return parsed.watchlist.cases;
}

function gateway(behaviour: () => Record<string, Behaviour>): DataJudGateway {
  return {
    async fingerprint(court, numbers): Promise<FingerprintedCase[]> {
      const what = behaviour()[court] ?? "answers";
      if (what === "auth") throw new DataJudError("auth", KEY_REJECTED, { status: 401 });
      if (what === "timeout") throw new DataJudError("timeout", "DataJud took longer than 30 s");
      return numbers.map((cnjNumber) => ({
        cnjNumber,
        court,
        found: false,
        fingerprint: null,
        instances: [],
        provenance: { index: `api_publica_${court}`, url: "", fetchedAt: "" },
      }));
    },
    async read() {
      throw new Error("nothing is read in these tests");
    },
  };
}

let store: TempStore;
let sink: SmtpSink;
let transport: MailTransport;
let clock: FakeClock;
let behaviour: Record<string, Behaviour>;

beforeEach(async () => {
  store = tempStore("notify-admin-");
  sink = await startSmtpSink();
  transport = createTransport({ smtpUrl: sink.url(), outboxDir: store.dir });
  clock = new FakeClock({ now: Date.parse("2026-03-01T09:00:00.000Z") });
  behaviour = {};
});

afterEach(async () => {
  transport.close();
  await sink.close();
  store.dispose();
});

/** One sweep wired the way the composition root wires it: admin alerts queued, then the drain. */
async function sweep(what: Record<string, Behaviour>): Promise<void> {
  behaviour = what;
  const cases = watchlist();
  await runSweep(
    {
      db: store.db,
      gateway: gateway(() => behaviour),
      clock,
      logger: silentLogger(),
      settings: { fullRereadDays: 30, notFoundThreshold: 3 },
      datajudRequests: () => 0,
      afterDetection: async () => {
        const now = new Date(clock.now());
        const queued = queueAdminAlerts({ db: store.db, admin: ADMIN, domain: DOMAIN, now });
        const drained = await drainOutbox({
          db: store.db,
          transport,
          from: FROM,
          listId: LIST_ID,
          domain: DOMAIN,
          now: () => new Date(clock.now()),
          maxAttempts: 5,
          logger: silentLogger(),
        });
        return { llmCalls: 0, emailsQueued: queued, emailsSent: drained.sent };
      },
    },
    { watchlist: cases, force: false, dryRun: false, trigger: "manual" },
  );
}

describe("operator alerts", () => {
  it("tells mail.admin once about a rejected key, however many sweeps fail, and again after a fix", async () => {
    await sweep({ tjdft: "auth", tjsp: "auth" });
    clock.set(clock.now() + HOUR);
    await sweep({ tjdft: "auth", tjsp: "auth" });
    clock.set(clock.now() + HOUR);
    await sweep({ tjdft: "auth", tjsp: "auth" });
    clock.set(clock.now() + 24 * HOUR);
    await sweep({ tjdft: "auth", tjsp: "auth" });
    const duringIncident = sink.messages.length;
    clock.set(clock.now() + HOUR);
    await sweep({});
    clock.set(clock.now() + HOUR);
    await sweep({ tjdft: "auth", tjsp: "auth" });

    expect(duringIncident).toBe(1);
    expect(sink.messages).toHaveLength(2);
    expect(sink.messages.every((m) => m.to[0] === ADMIN)).toBe(true);
    const [first, second] = await Promise.all(sink.messages.map((m) => simpleParser(m.raw)));
    expect(first?.subject).toBe("[datajud] ⚠ DataJud recusou a chave da API");
    expect(first?.text).toContain("https://datajud-wiki.cnj.jus.br/api-publica/acesso");
    expect(first?.text).toContain("DATAJUD_API_KEY");
    expect(first?.text).toContain("2 processos do watchlist");
    expect(first?.text).toContain("Desde 01/03/2026 06:00");
    expect(first?.html).toContain("O que fazer");
    expect(second?.subject).toBe(first?.subject);
    expect(second?.messageId).not.toBe(first?.messageId);
    expect(pendingMailByCase(store.db).size).toBe(0);
  });

  it("tells mail.admin once when a case has failed for more than a day, listing its last error", async () => {
    await sweep({ tjdft: "timeout" });
    clock.set(clock.now() + 12 * HOUR);
    await sweep({ tjdft: "timeout" });
    const beforeADay = sink.messages.length;
    clock.set(clock.now() + 13 * HOUR);
    await sweep({ tjdft: "timeout" });
    clock.set(clock.now() + HOUR);
    await sweep({ tjdft: "timeout" });

    expect(beforeADay).toBe(0);
    expect(sink.messages).toHaveLength(1);
    const [mail] = await Promise.all(sink.messages.map((m) => simpleParser(m.raw)));
    expect(mail?.subject).toBe("[datajud] ⚠ 1 processo sem consulta há mais de um dia");
    expect(mail?.text).toContain("Silva x Souza <despejo> (0713383-43.2025.8.07.0006) · TJDFT");
    expect(mail?.text).toContain("Falhando desde 01/03/2026 06:00; 3 tentativa(s)");
    expect(mail?.text).toContain("Último erro: timeout: DataJud took longer than 30 s");
    expect(mail?.text).not.toContain("1035289-48.2022.8.26.0602");
    expect(mail?.html).toContain("Silva x Souza &lt;despejo&gt;");
    expect(mail?.html).not.toContain("<despejo>");
  });

  it("queues nothing without mail.admin, or when every case answers", async () => {
    await sweep({});
    clock.set(clock.now() + 30 * HOUR);
    await sweep({});
    const queuedWhenHealthy = queueAdminAlerts({
      db: store.db,
      admin: ADMIN,
      domain: DOMAIN,
      now: new Date(clock.now()),
    });
    clock.set(clock.now() + HOUR);
    await sweep({ tjdft: "auth", tjsp: "auth" });

    const queuedWithoutAdmin = queueAdminAlerts({
      db: store.db,
      admin: null,
      domain: DOMAIN,
      now: new Date(clock.now()),
    });

    expect(queuedWhenHealthy).toBe(0);
    expect(queuedWithoutAdmin).toBe(0);
    expect(sink.messages).toHaveLength(1);
  });
});
