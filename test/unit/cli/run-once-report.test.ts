import { describe, expect, it } from "vitest";
import { alertsUndelivered, renderRunReport } from "../../../src/cli/run-once.js";
import {
  EndpointReport,
  type MailReport,
  NOTHING_MAILED,
  type RunReport,
} from "../../../src/monitor/run-report.js";
import { runReport } from "../../support/run-report.js";

function report(over: Partial<RunReport>): RunReport {
  return runReport({
    startedAt: "2026-12-02T10:00:00.000Z",
    finishedAt: "2026-12-02T10:00:41.000Z",
    checked: 1,
    changed: 1,
    datajudRequests: 2,
    emailsQueued: 3,
    emailsSent: 1,
    cases: [
      {
        number: "0010490-56.2025.8.26.0309",
        court: "tjsp",
        outcome: "changed",
        newMovements: 1,
        error: null,
      },
    ],
    ...over,
  });
}

const mail = (over: Partial<MailReport>): MailReport => ({ ...NOTHING_MAILED, sent: 1, ...over });

describe("renderRunReport: what became of mail", () => {
  it("says what was sent when all went out", () => {
    const text = renderRunReport(report({ mail: mail({ sent: 3 }) }));

    expect(text).toContain("mail: 3 queued, 3 sent\n");
    expect(text).not.toContain("not sent");
  });

  it("says what waits, why, and when it is tried again, in the schedule's time zone", () => {
    const text = renderRunReport(
      report({
        mail: mail({
          sent: 1,
          failed: 1,
          pending: 2,
          retrying: 1,
          lastError: "smtp://mail.firm.com.br:587 (STARTTLS when offered): ETIMEDOUT",
          nextAttemptAt: "2026-12-02T10:02:00.000Z",
        }),
      }),
      "America/Manaus",
    );

    expect(text).toContain("mail: 3 queued, 1 sent, 2 waiting in the outbox\n");
    expect(text).toContain(
      "  not sent: smtp://mail.firm.com.br:587 (STARTTLS when offered): ETIMEDOUT\n",
    );
    expect(text).toContain(
      "  retried from 02/12/2026 06:02 by the next `datajud-monitor run-once`",
    );
  });

  it("says what was given up", () => {
    const text = renderRunReport(
      report({ mail: mail({ sent: 0, dead: 2, lastError: "550 no such user" }) }),
    );

    expect(text).toContain("  given up: 2 e-mails after mail.maxAttempts attempts");
  });

  it("says nothing of mail when none was delivered (a dry run) or there was none", () => {
    const quiet = report({ emailsQueued: 0, emailsSent: 0, mail: mail({ sent: 0 }) });

    expect(renderRunReport(report({ dryRun: true }))).not.toContain("mail:");
    expect(renderRunReport(quiet)).not.toContain("mail:");
  });
});

describe("renderRunReport: a sweep stopped by Ctrl-C", () => {
  it("prints no table header over nothing, and says the rest waits for the next sweep", () => {
    const text = renderRunReport(
      report({ checked: 0, changed: 0, emailsQueued: 0, interrupted: true, cases: [] }),
    );

    expect(text).not.toContain("outcome");
    expect(text).toBe(
      "0 checked, 0 changed, 0 failed; 2 DataJud requests (interrupted: the rest was not checked; the next sweep checks it)\n",
    );
  });
});

describe("renderRunReport: one error on every case", () => {
  it("says the error once under the table, the rows pointing at it", () => {
    const error =
      "DataJud refused the key (HTTP 401): it is mistyped or CNJ rotated it; compare DATAJUD_API_KEY with the current public key";
    const failed = (number: string) =>
      ({ number, court: "tjsp", outcome: "failed", newMovements: 0, error }) as const;

    const text = renderRunReport(
      report({
        checked: 2,
        changed: 0,
        failed: 2,
        emailsQueued: 0,
        cases: [failed("0010490-56.2025.8.26.0309"), failed("1035289-48.2022.8.26.0602")],
      }),
    );

    expect(text.split(error)).toHaveLength(2);
    expect(text).toContain(`\n[1] 2 cases: ${error}\n`);
    expect(text).toContain(
      "0010490-56.2025.8.26.0309  tjsp        DataJud refused the key (HTTP 401) [1]\n",
    );
    expect(
      Math.max(
        ...text
          .split("\n")
          .filter((l) => !l.startsWith("[1]"))
          .map((l) => l.length),
      ),
    ).toBeLessThan(120);
  });
});

describe("run-once's endpoint lines", () => {
  const endpoint = (over: Partial<EndpointReport>): EndpointReport => ({
    channel: "teams",
    name: "juridico",
    sent: 0,
    failed: 0,
    dead: 0,
    pending: 0,
    retrying: 0,
    nextAttemptAt: null,
    lastError: null,
    condition: "ok",
    disabledReason: null,
    missing: [],
    queued: 0,
    ...over,
  });

  it("says an endpoint disabled by a 410 and what it gave up, and how to enable it again", () => {
    const text = renderRunReport(
      report({
        endpoints: [
          endpoint({ dead: 2, condition: "disabled", disabledReason: "HTTP 410: gone" }),
          endpoint({ channel: "webhook", name: "erp", dead: 1, condition: "dead" }),
        ],
      }),
      "America/Sao_Paulo",
    );
    expect(text).toContain(
      'teams endpoint "juridico": 0 delivered, 2 given up; DISABLED (HTTP 410: gone): nothing is sent to it until `datajud-monitor endpoint enable juridico`\n',
    );
    expect(text).toContain(
      'webhook endpoint "erp": 0 delivered, 1 given up; DEAD: alerts to it are being given up; `datajud-monitor status` lists them\n',
    );
  });

  it("says the alerts an endpoint's secret is missing for are queued, and who sends them", () => {
    const text = renderRunReport(
      report({
        endpoints: [
          endpoint({
            channel: "webhook",
            name: "webhook",
            pending: 3,
            queued: 3,
            missing: ["WEBHOOK_SECRET"],
          }),
          endpoint({
            channel: "slack",
            name: "equipe",
            pending: 4,
            queued: 1,
            missing: ["SLACK_URL"],
          }),
        ],
      }),
      "America/Sao_Paulo",
    );
    expect(text).toContain(
      'webhook endpoint "webhook": 3 events queued; this process has no WEBHOOK_SECRET: the daemon sends them\n',
    );
    expect(text).toContain(
      'slack endpoint "equipe": 1 event queued (4 waiting in all); this process has no SLACK_URL: the daemon sends them\n',
    );
  });

  it("says nothing of endpoints when none had alerts", () => {
    expect(renderRunReport(report({}), "America/Sao_Paulo")).not.toContain("endpoint");
  });
});

describe("renderRunReport: DJEN sources not due yet", () => {
  it("says when they are due and that run-once --case asks DJEN for a case now", () => {
    const text = renderRunReport(
      report({
        publications: {
          checked: 1,
          failed: 0,
          newPublications: 0,
          outsideWatchlist: 0,
          cancelled: 0,
          djenRequests: 1,
          notDue: 2,
          nextDueAt: "2026-12-02T18:00:00.000Z",
          deferred: 0,
          unreachable: null,
          failures: [],
        },
      }),
      "America/Sao_Paulo",
    );

    expect(text).toContain(
      "; 2 not due yet (next check due 02/12/2026 15:00); `datajud-monitor run-once --case CNJ` asks DJEN for a case now\n",
    );
  });
});

describe("alertsUndelivered: run-once's exit 3", () => {
  // Parsed, so fields added to the report later take their defaults.
  const endpoint = (over: Partial<EndpointReport>): EndpointReport =>
    EndpointReport.parse({
      ...NOTHING_MAILED,
      channel: "webhook",
      name: "firm",
      condition: "ok",
      disabledReason: null,
      ...over,
    });

  it("is true when a send failed, was given up or waits for a retry, by e-mail or at an endpoint", () => {
    expect(alertsUndelivered(report({ mail: mail({ sent: 0, failed: 2, pending: 2 }) }))).toBe(
      true,
    );
    expect(alertsUndelivered(report({ mail: mail({ dead: 1 }) }))).toBe(true);
    expect(alertsUndelivered(report({ mail: mail({ retrying: 1, pending: 1 }) }))).toBe(true);
    expect(
      alertsUndelivered(
        report({ mail: mail({}), endpoints: [endpoint({ failed: 1, retrying: 1 })] }),
      ),
    ).toBe(true);
    expect(
      alertsUndelivered(
        report({ mail: mail({}), endpoints: [endpoint({ condition: "disabled", pending: 2 })] }),
      ),
    ).toBe(true);
  });

  it("is false when all went out, or waits only for its hour (a digest, quiet hours)", () => {
    expect(alertsUndelivered(report({ mail: mail({ sent: 3 }) }))).toBe(false);
    expect(alertsUndelivered(report({ mail: mail({ sent: 0, pending: 4 }) }))).toBe(false);
    expect(alertsUndelivered(report({ mail: null }))).toBe(false);
    expect(alertsUndelivered(report({ endpoints: [endpoint({ sent: 2, pending: 1 })] }))).toBe(
      false,
    );
  });
});
