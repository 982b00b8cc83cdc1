import { describe, expect, it } from "vitest";
import { AdminAlert, renderAdminAlert } from "../../../../src/notify/render/operator-mail.js";
import type { CaseFailingAlert } from "../../../../src/policy/failing-cases.js";
import type { CaseGoneAlert } from "../../../../src/policy/gone-cases.js";
import type { SweepsFailingAlert } from "../../../../src/policy/health.js";

const HOSTILE = "<b>DataJud</b> fora\r\nX-Injected: 1";

function sweepsFailing(patch: Partial<SweepsFailingAlert> = {}): SweepsFailingAlert {
  return {
    type: "sweeps_failing",
    since: "2026-03-01T09:00:00.000Z",
    failedSweeps: 3,
    lastErrorKind: "server",
    lastError: HOSTILE,
    ...patch,
  };
}

const caseFailing: CaseFailingAlert = {
  type: "case_failing",
  caseNumber: "0713383-43.2025.8.07.0006",
  court: "tjdft",
  label: null,
  failingSince: "2026-03-01T09:00:00.000Z",
  lastCheckedAt: "2026-03-02T10:00:00.000Z",
  failures: 3,
  lastErrorKind: "timeout",
  lastError: null,
  thresholdHours: 24,
};

describe("renderAdminAlert: monitor health", () => {
  it("says how many sweeps failed since when, the last error, and what to check", () => {
    const mail = renderAdminAlert([sweepsFailing()]);

    expect(mail.subject).toBe("[datajud] ⚠ DataJud did not answer in 3 sweeps in a row");
    expect(mail.text).toContain(
      "Since 01/03/2026 06:00, 3 sweeps in a row ended without a single answer from DataJud",
    );
    expect(mail.text).toContain("Nothing is lost: the monitor keeps trying every sweep");
    expect(mail.text).toContain(
      "1. Check the key at https://datajud-wiki.cnj.jus.br/api-publica/acesso; if it changed",
    );
    expect(mail.text).toContain("2. datajud-monitor status");
    expect(mail.text).toContain("3. datajud-monitor doctor");
    expect(mail.text).toContain("4. journalctl -u datajud-monitor");
    expect(mail.text).toContain("Last error: server: <b>DataJud</b> fora X-Injected: 1");
    expect(mail.text).not.toContain("\r");
    expect(mail.html).not.toContain("<b>DataJud");
    expect(mail.html).toContain("&lt;b&gt;DataJud&lt;/b&gt; fora X-Injected: 1");
  });

  it("lists a wrong or rotated key among the causes, whatever the last error was", () => {
    const mail = renderAdminAlert([sweepsFailing({ lastErrorKind: "timeout", lastError: null })]);

    const causes = mail.text.split("Possible causes:\n")[1]?.split("\n\n")[0] ?? "";
    expect(causes.split("\n")).toHaveLength(3);
    expect(causes).toContain("- A wrong or replaced API key");
    expect(causes).toContain("a timeout on every check, not only as a refusal (HTTP 401)");
    expect(causes).toContain("https://datajud-wiki.cnj.jus.br/api-publica/acesso");
    expect(mail.html).toMatch(/<li[^>]*>A wrong or replaced API key/);
  });

  it("speaks of a single failed sweep in the singular", () => {
    const mail = renderAdminAlert([sweepsFailing({ failedSweeps: 1, lastErrorKind: null })]);

    expect(mail.subject).toBe("[datajud] ⚠ DataJud did not answer in the last sweep");
    expect(mail.text).toContain("Since 01/03/2026 06:00, the last sweep ended without");
    expect(mail.text).toContain(`Last error: <b>DataJud</b> fora X-Injected: 1`);
  });

  it("says what failed, since when, and that it works again, without the attention marker", () => {
    const sweeps = renderAdminAlert([
      {
        type: "sweeps_recovered",
        since: "2026-03-01T09:00:00.000Z",
        recoveredAt: "2026-03-01T17:30:00.000Z",
        failedSweeps: 8,
      },
    ]);
    const key = renderAdminAlert([
      {
        type: "auth_recovered",
        since: "2026-03-01T09:00:00.000Z",
        recoveredAt: "2026-03-02T12:00:00.000Z",
      },
    ]);

    expect(sweeps.subject).toBe("[datajud] DataJud answers again");
    expect(sweeps.text).toBe(
      [
        "THE MONITOR REACHES DATAJUD AGAIN",
        "DataJud checks, failing since 01/03/2026 06:00 (8 sweeps in a row without an answer), work again since 01/03/2026 14:30.",
        "The monitor works normally again; what changed in the cases meanwhile is found in the next sweeps.",
        "",
        "Times in America/Sao_Paulo. Automatic message from datajud-monitor.",
        "",
      ].join("\n"),
    );
    expect(key.subject).toBe("[datajud] DataJud accepts the API key again");
    expect(key.text).toContain(
      "The public API key, refused by DataJud since 01/03/2026 06:00, is accepted again: cases were checked again at 02/03/2026 09:00",
    );
    expect(key.html).toContain("<h1");
    expect(key.html).toContain('<html lang="en">');
    expect(key.html).not.toContain("⚠");
  });

  it("omits the streak from a recovery when it is not known", () => {
    const mail = renderAdminAlert([
      {
        type: "sweeps_recovered",
        since: "2026-03-01T09:00:00.000Z",
        recoveredAt: "2026-03-01T17:30:00.000Z",
      },
    ]);

    expect(mail.text).toContain("failing since 01/03/2026 06:00, work again");
  });

  it("reads a mix in the order things happened, failing cases last, problems first in the subject", () => {
    const mail = renderAdminAlert([
      sweepsFailing(),
      caseFailing,
      {
        type: "sweeps_recovered",
        since: "2026-03-01T09:00:00.000Z",
        recoveredAt: "2026-03-01T17:30:00.000Z",
        failedSweeps: 8,
      },
      {
        type: "auth_rejected",
        since: "2026-03-02T09:00:00.000Z",
        lastError: null,
        affectedCases: 2,
      },
    ]);

    expect(mail.subject).toBe(
      "[datajud] ⚠ DataJud did not answer in 3 sweeps in a row; DataJud refused the API key; 1 case not checked for over a day; DataJud answers again",
    );
    const headings = [
      "⚠ THE MONITOR CANNOT REACH DATAJUD",
      "THE MONITOR REACHES DATAJUD AGAIN",
      "⚠ DATAJUD REFUSED THE API KEY",
      "⚠ 1 CASE NOT CHECKED FOR OVER A DAY",
    ].map((h) => mail.text.indexOf(`${h}\n`));
    expect(headings.every((at, i) => at > (headings[i - 1] ?? -1))).toBe(true);
    expect(mail.text.match(/Automatic message/g)).toHaveLength(1);
    expect(mail.html.match(/<h1 /g)).toHaveLength(1);
    expect(mail.html.match(/<h2 /g)).toHaveLength(3);
    expect(mail.html.match(/<ol /g)).toHaveLength(2);
  });
});

describe("AdminAlert", () => {
  it("reads back each health payload as stored, and refuses a recovery without its time", () => {
    const stored = [
      sweepsFailing(),
      { type: "sweeps_recovered", since: "a", recoveredAt: "b" },
      { type: "sweeps_recovered", since: "a", recoveredAt: "b", failedSweeps: 4 },
      { type: "auth_recovered", since: "a", recoveredAt: "b" },
    ];

    const parsed = stored.map((p) => AdminAlert.safeParse(JSON.parse(JSON.stringify(p))));
    const broken = AdminAlert.safeParse({ type: "auth_recovered", since: "a" });

    expect(parsed.map((p) => p.success && p.data)).toEqual(stored);
    expect(broken.success).toBe(false);
  });
});

describe("renderAdminAlert: cases DataJud no longer returns", () => {
  const gone: CaseGoneAlert = {
    type: "case_gone",
    caseNumber: "0713383-43.2025.8.07.0006",
    court: "tjdft",
    label: HOSTILE,
    goneAt: "2026-03-03T10:00:00.000Z",
    lastSeenAt: "2026-03-01T10:00:00.000Z",
    notFoundAnswers: 3,
  };

  it("names the case, since when, and what to check; the label is data", () => {
    const mail = renderAdminAlert([gone]);

    expect(mail.subject).toBe("[datajud] ⚠ 1 case not found in DataJud");
    expect(mail.text).toContain("0713383-43.2025.8.07.0006");
    expect(mail.text).toContain(
      "Not found since 03/03/2026 07:00 (3 complete answers in a row without the case); last seen at 01/03/2026 07:00.",
    );
    expect(mail.text).toContain("Check the number and the court in the watchlist");
    expect(mail.text).not.toContain("\r");
    expect(mail.html).not.toContain("<b>DataJud");
    expect(AdminAlert.parse(gone)).toEqual(gone);
  });

  it("counts several in one subject next to failing cases", () => {
    const mail = renderAdminAlert([gone, caseFailing, { ...gone, caseNumber: "1", court: "tjsp" }]);

    expect(mail.subject).toBe(
      "[datajud] ⚠ 1 case not checked for over a day; 2 cases not found in DataJud",
    );
  });
});
