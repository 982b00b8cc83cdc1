import { simpleParser } from "mailparser";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DataJudError } from "../../../../src/datajud/errors.js";
import { silentLogger } from "../../../../src/log.js";
import type {
  DataJudGateway,
  FingerprintedCase,
} from "../../../../src/monitor/detect/datajud-gateway.js";
import { runSweep } from "../../../../src/monitor/sweep.js";
import { drainOutbox } from "../../../../src/notify/outbox/drain.js";
import { queuedRows } from "../../../../src/notify/outbox/queue.js";
import { queueAdminAlerts } from "../../../../src/notify/outbox/queue-operator-alerts.js";
import type { MailTransport } from "../../../../src/notify/transport/mail-transport.js";
import { createTransport } from "../../../../src/notify/transport/transports.js";
import type { SweepTally } from "../../../../src/policy/health.js";
import type { Db } from "../../../../src/store/database.js";
import { listIncidents } from "../../../../src/store/health-incidents.js";
import { thisProcessClaimant } from "../../../../src/store/lease.js";
import { pendingMailByCase } from "../../../../src/store/outbox.js";
import { finishRun, startRun } from "../../../../src/store/runs.js";
import { realSystem } from "../../../../src/system.js";
import { parseWatchlist, type WatchedCase } from "../../../../src/watchlist/parse-watchlist.js";
import { FakeClock, fakeSystem } from "../../../fakes/fake-clock.js";
import { type SmtpSink, startSmtpSink } from "../../../fakes/smtp-sink.js";
import { DOMAIN, FROM, LIST_ID, type TempStore, tempStore } from "../../../support/outbox-store.js";
import { notFoundAnswer } from "../../../support/sweep-harness.js";

const HOUR = 3_600_000;
const ADMIN = "ti@example.com";
const THRESHOLD = 3;
const DOWN = { tjdft: "timeout", tjsp: "timeout" } as const;
const KEY = { tjdft: "auth", tjsp: "auth" } as const;
const KEY_REJECTED = "DataJud refused the key (HTTP 401): it is mistyped or CNJ rotated it";

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
      return notFoundAnswer(court, numbers);
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
  lastVerdict = null;
});

afterEach(async () => {
  transport.close();
  await sink.close();
  store.dispose();
});

/** The sweep in progress, as the composition root passes it: its run is still 'running'. */
function runningSweep(db: Db): SweepTally {
  const run = db
    .prepare<[], { id: number; startedAt: string }>(
      "SELECT id, started_at AS startedAt FROM runs WHERE status = 'running'",
    )
    .get();
  if (run === undefined) throw new Error("no sweep is running");
  const counts = db
    .prepare<[number], { checked: number; failed: number }>(
      `SELECT COUNT(*) AS checked, COALESCE(SUM(outcome = 'failed'), 0) AS failed
       FROM checks WHERE run_id = ?`,
    )
    .get(run.id);
  return {
    runId: run.id,
    startedAt: run.startedAt,
    checked: counts?.checked ?? 0,
    failed: counts?.failed ?? 0,
    interrupted: false,
  };
}

let lastVerdict: SweepTally | null = null;

/** Queues what the operator should hear about now, as the composition root does after a sweep. */
function queueNow(admin: string | null, sweep: SweepTally | null): number {
  return queuedRows(
    queueAdminAlerts({
      db: store.db,
      admin,
      domain: DOMAIN,
      now: new Date(clock.now()),
      failedSweepsThreshold: THRESHOLD,
      sweep,
    }),
  );
}

/** One sweep wired the way the composition root wires it: operator alerts queued, then the drain. */
async function sweep(
  what: Record<string, Behaviour>,
  options: { admin?: string | null } = {},
): Promise<void> {
  behaviour = what;
  const cases = watchlist();
  const admin = options.admin === undefined ? ADMIN : options.admin;
  await runSweep(
    {
      db: store.db,
      gateway: gateway(() => behaviour),
      clock,
      random: Math.random,
      host: fakeSystem(clock),
      logger: silentLogger(),
      settings: { fullRereadDays: 30, notFoundThreshold: 3, concurrency: 1, batchSize: 100 },
      datajudRequests: () => 0,
      report: {
        summarize: async () => ({ llmCalls: 0, queued: {}, modelUnavailable: null }),
        queue: () => {
          lastVerdict = runningSweep(store.db);
          return { email: queueNow(admin, lastVerdict) };
        },
        deliver: async () => ({
          ...(await drainOutbox({
            claimant: thisProcessClaimant(realSystem),
            db: store.db,
            transport,
            from: FROM,
            listId: LIST_ID,
            domain: DOMAIN,
            clock,
            maxAttempts: 5,
            logger: silentLogger(),
          })),
          pending: 0,
          retrying: 0,
          nextAttemptAt: null,
        }),
      },
    },
    { watchlist: cases, force: false, dryRun: false, trigger: "manual" },
  );
}

/** `count` sweeps an hour apart, the first one an hour from now. */
async function sweeps(
  count: number,
  what: Record<string, Behaviour>,
  options: { admin?: string | null } = {},
): Promise<void> {
  for (let i = 0; i < count; i++) {
    clock.set(clock.now() + HOUR);
    await sweep(what, options);
  }
}

/**
 * Runs that say nothing about DataJud: one interrupted (it looked healthy before it stopped) and
 * one left 'running' by a dead process, which the next sweep marks crashed.
 */
function runsThatDoNotCount(): void {
  const at = new Date(clock.now() + 10 * 60_000).toISOString();
  const interrupted = startRun(store.db, { startedAt: at, trigger: "schedule" });
  finishRun(store.db, interrupted, {
    finishedAt: at,
    report: { startedAt: at, checked: 2, failed: 0, interrupted: true, cases: [] },
  });
  startRun(store.db, { startedAt: at, trigger: "schedule" });
}

async function mails(): Promise<Array<{ to: string; subject: string; text: string }>> {
  const parsed = await Promise.all(sink.messages.map((m) => simpleParser(m.raw)));
  return parsed.map((m, i) => ({
    to: sink.messages[i]?.to[0] ?? "",
    subject: m.subject ?? "",
    text: typeof m.text === "string" ? m.text : "",
  }));
}

describe("operator alerts", () => {
  it("tells mail.admin once about a rejected key, however many sweeps fail, that it is over, and again after a fix", async () => {
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
    expect(sink.messages).toHaveLength(3);
    expect(sink.messages.every((m) => m.to[0] === ADMIN)).toBe(true);
    const [first, recovered, second] = await Promise.all(
      sink.messages.map((m) => simpleParser(m.raw)),
    );
    expect(recovered?.subject).toBe("[datajud] DataJud accepts the API key again");
    expect(first?.subject).toBe("[datajud] ⚠ DataJud refused the API key");
    expect(first?.text).toContain("https://datajud-wiki.cnj.jus.br/api-publica/acesso");
    expect(first?.text).toContain("DATAJUD_API_KEY");
    expect(first?.text).toContain("2 watched cases are not being checked");
    expect(first?.text).toContain("Since 01/03/2026 06:00");
    expect(first?.html).toContain("What to do");
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
    expect(mail?.subject).toBe("[datajud] ⚠ 1 case not checked for over a day");
    expect(mail?.text).toContain("Silva x Souza <despejo> (0713383-43.2025.8.07.0006) · TJDFT");
    expect(mail?.text).toContain("Failing since 01/03/2026 06:00; 3 attempts");
    expect(mail?.text).toContain("Last error: timeout: DataJud took longer than 30 s");
    expect(mail?.text).not.toContain("1035289-48.2022.8.26.0602");
    expect(mail?.html).toContain("Silva x Souza &lt;despejo&gt;");
    expect(mail?.html).not.toContain("<despejo>");
  });

  it("speaks of a day-long outage once, as failing sweeps, without one e-mail per case", async () => {
    await sweeps(THRESHOLD, DOWN);
    clock.set(clock.now() + 30 * HOUR);
    await sweep(DOWN);
    const duringOutage = await mails();
    clock.set(clock.now() + HOUR);
    await sweep({});

    expect(duringOutage.map((m) => m.subject)).toHaveLength(1);
    expect(duringOutage[0]?.subject).not.toMatch(/not checked for over a day/);
    expect((await mails()).map((m) => m.subject)).toHaveLength(2);
  });

  it("lists a wrong or rotated key among the causes when every request of the sweeps timed out", async () => {
    await sweeps(THRESHOLD, DOWN);

    const [mail] = await mails();
    expect(mail?.subject).toBe(
      `[datajud] ⚠ DataJud did not answer in ${THRESHOLD} sweeps in a row`,
    );
    expect(mail?.text).toContain("Last error: timeout:");
    expect(mail?.text).toContain("Possible causes:");
    expect(mail?.text).toMatch(/- A wrong or replaced API key: .*timeout/);
    expect(mail?.text).toContain("https://datajud-wiki.cnj.jus.br/api-publica/acesso");
  });

  it("queues nothing without mail.admin, or when every case answers", async () => {
    await sweep({});
    clock.set(clock.now() + 30 * HOUR);
    await sweep({});
    const queuedWhenHealthy = queueNow(ADMIN, null);
    clock.set(clock.now() + HOUR);
    await sweep({ tjdft: "auth", tjsp: "auth" });

    const queuedWithoutAdmin = queueNow(null, null);

    expect(queuedWhenHealthy).toBe(0);
    expect(queuedWithoutAdmin).toBe(0);
    expect(sink.messages).toHaveLength(1);
  });
});

describe("monitor health alerts", () => {
  it("mails once after N failed sweeps in a row, once when DataJud answers again, and again for a new outage", async () => {
    await sweeps(THRESHOLD - 1, DOWN);
    const beforeThreshold = sink.messages.length;
    await sweeps(1, DOWN);
    const atThreshold = sink.messages.length;
    await sweeps(5, DOWN);
    const duringOutage = sink.messages.length;
    await sweeps(1, {});
    const afterRecovery = sink.messages.length;
    await sweeps(1, {});
    const stillHealthy = sink.messages.length;
    await sweeps(THRESHOLD, DOWN);

    expect([beforeThreshold, atThreshold, duringOutage, afterRecovery, stillHealthy]).toEqual([
      0, 1, 1, 2, 2,
    ]);
    const [failing, recovered, again] = await mails();
    expect(sink.messages).toHaveLength(3);
    expect(failing?.to).toBe(ADMIN);
    expect(failing?.subject).toBe("[datajud] ⚠ DataJud did not answer in 3 sweeps in a row");
    expect(failing?.text).toContain(
      "Since 01/03/2026 07:00, 3 sweeps in a row ended without a single answer from DataJud",
    );
    expect(failing?.text).toContain("Last error: timeout: DataJud took longer than 30 s");
    expect(failing?.text).toContain("datajud-monitor doctor");
    expect(failing?.text).toContain("journalctl -u datajud-monitor");
    expect(failing?.text).toContain("Nothing is lost");
    expect(recovered?.subject).toBe("[datajud] DataJud answers again");
    expect(recovered?.text).toContain(
      "failing since 01/03/2026 07:00 (8 sweeps in a row without an answer), work again since 01/03/2026 15:00",
    );
    expect(again?.text).toContain("Since 01/03/2026 17:00, 3 sweeps in a row");
    expect(listIncidents(store.db).map((i) => [i.kind, i.recoveredAt === null])).toEqual([
      ["sweeps_failing", true],
      ["sweeps_failing", false],
    ]);
  });

  it("queues each e-mail once when the same sweep is evaluated twice", async () => {
    await sweeps(THRESHOLD, DOWN);
    const failingAgain = queueNow(ADMIN, lastVerdict);
    await sweeps(1, {});

    const recoveredAgain = queueNow(ADMIN, lastVerdict);

    expect(failingAgain).toBe(0);
    expect(recoveredAgain).toBe(0);
    expect(sink.messages).toHaveLength(2);
  });

  it("neither counts nor resets on interrupted and crashed runs", async () => {
    await sweeps(THRESHOLD - 1, DOWN);
    runsThatDoNotCount();
    const queuedForInterrupted = queueNow(ADMIN, {
      runId: 10_000,
      startedAt: new Date(clock.now()).toISOString(),
      checked: 2,
      failed: 0,
      interrupted: true,
    });
    await sweeps(1, DOWN);
    const opened = sink.messages.length;
    runsThatDoNotCount();
    await sweeps(1, DOWN);
    const stillOpen = sink.messages.length;
    await sweeps(1, {});

    expect(queuedForInterrupted).toBe(0);
    expect(opened).toBe(1);
    expect(stillOpen).toBe(1);
    const [failing, recovered] = await mails();
    expect(failing?.text).toContain("Since 01/03/2026 07:00, 3 sweeps in a row");
    expect(recovered?.text).toContain("(4 sweeps in a row without an answer)");
    const statuses = store.db
      .prepare<[], { status: string; n: number }>(
        "SELECT status, COUNT(*) AS n FROM runs GROUP BY status ORDER BY status",
      )
      .all();
    expect(statuses).toEqual([
      { status: "crashed", n: 2 },
      { status: "finished", n: 7 },
    ]);
  });

  it("leaves a case failing alone: only sweeps where DataJud answered for no case count", async () => {
    await sweeps(THRESHOLD + 2, { tjdft: "timeout" });

    expect(sink.messages).toHaveLength(0);
    expect(listIncidents(store.db)).toEqual([]);
  });

  it("never sends a recovery to an admin who did not hear of the failure", async () => {
    await sweeps(THRESHOLD + 1, DOWN, { admin: null });
    await sweeps(1, {});

    expect(sink.messages).toHaveLength(0);
    expect(listIncidents(store.db)).toEqual([]);
  });

  it("tells an admin configured mid-outage, dating the outage from its first failed sweep", async () => {
    await sweeps(THRESHOLD, DOWN, { admin: null });
    await sweeps(1, DOWN);

    const [failing] = await mails();
    expect(sink.messages).toHaveLength(1);
    expect(failing?.text).toContain("Since 01/03/2026 07:00, 4 sweeps in a row");
  });

  it("sends the recovery to whoever heard of the failure, and none once mail.admin is unset", async () => {
    await sweeps(THRESHOLD, DOWN);
    await sweeps(1, {}, { admin: "novo@example.com" });
    await sweeps(THRESHOLD, DOWN);
    await sweeps(1, {}, { admin: null });

    const sent = await mails();
    expect(sent.map((m) => [m.to, m.subject])).toEqual([
      [ADMIN, "[datajud] ⚠ DataJud did not answer in 3 sweeps in a row"],
      [ADMIN, "[datajud] DataJud answers again"],
      [ADMIN, "[datajud] ⚠ DataJud did not answer in 3 sweeps in a row"],
    ]);
    expect(listIncidents(store.db).every((i) => i.recoveredAt !== null)).toBe(true);
  });

  it("says nothing of failed sweeps while the key incident is open, and one recovery for the key", async () => {
    await sweeps(THRESHOLD + 2, KEY);
    const whileRefused = sink.messages.length;
    await sweeps(2, {});

    const sent = await mails();
    expect(whileRefused).toBe(1);
    expect(sent.map((m) => m.subject)).toEqual([
      "[datajud] ⚠ DataJud refused the API key",
      "[datajud] DataJud accepts the API key again",
    ]);
    expect(sent[1]?.text).toContain(
      "The public API key, refused by DataJud since 01/03/2026 07:00, is accepted again",
    );
    expect(listIncidents(store.db).map((i) => [i.kind, i.recipient, i.startedAt])).toEqual([
      ["auth_rejected", ADMIN, "2026-03-01T10:00:00.000Z"],
    ]);
  });
});
