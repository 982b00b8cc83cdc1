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

    expect(mail.subject).toBe("[datajud] ⚠ DataJud sem resposta em 3 varreduras seguidas");
    expect(mail.text).toContain(
      "Desde 01/03/2026 06:00, 3 varreduras seguidas terminaram sem nenhuma resposta do DataJud",
    );
    expect(mail.text).toContain("Nada se perde: o monitor continua tentando a cada varredura");
    expect(mail.text).toContain(
      "1. Confira a chave em https://datajud-wiki.cnj.jus.br/api-publica/acesso; se mudou",
    );
    expect(mail.text).toContain("2. monitor status");
    expect(mail.text).toContain("3. monitor doctor");
    expect(mail.text).toContain("4. journalctl -u datajud-monitor");
    expect(mail.text).toContain("Último erro: server: <b>DataJud</b> fora X-Injected: 1");
    expect(mail.text).not.toContain("\r");
    expect(mail.html).not.toContain("<b>DataJud");
    expect(mail.html).toContain("&lt;b&gt;DataJud&lt;/b&gt; fora X-Injected: 1");
  });

  it("lists a wrong or rotated key among the causes, whatever the last error was", () => {
    const mail = renderAdminAlert([sweepsFailing({ lastErrorKind: "timeout", lastError: null })]);

    const causes = mail.text.split("Causas possíveis:\n")[1]?.split("\n\n")[0] ?? "";
    expect(causes.split("\n")).toHaveLength(3);
    expect(causes).toContain("- A chave da API errada ou trocada");
    expect(causes).toContain("tempo esgotado em todas as consultas, não só como recusa (HTTP 401)");
    expect(causes).toContain("https://datajud-wiki.cnj.jus.br/api-publica/acesso");
    expect(mail.html).toMatch(/<li[^>]*>A chave da API errada ou trocada/);
  });

  it("speaks of a single failed sweep in the singular", () => {
    const mail = renderAdminAlert([sweepsFailing({ failedSweeps: 1, lastErrorKind: null })]);

    expect(mail.subject).toBe("[datajud] ⚠ DataJud sem resposta na última varredura");
    expect(mail.text).toContain("Desde 01/03/2026 06:00, a última varredura terminou sem");
    expect(mail.text).toContain(`Último erro: <b>DataJud</b> fora X-Injected: 1`);
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

    expect(sweeps.subject).toBe("[datajud] DataJud voltou a responder");
    expect(sweeps.text).toBe(
      [
        "O MONITOR VOLTOU A CONSULTAR O DATAJUD",
        "As consultas ao DataJud, falhando desde 01/03/2026 06:00 (8 varreduras seguidas sem resposta), voltaram a funcionar em 01/03/2026 14:30.",
        "O monitor funciona normalmente de novo; o que mudou nos processos nesse período é detectado nas próximas varreduras.",
        "",
        "Horários em America/Sao_Paulo. Mensagem automática do datajud-monitor.",
        "",
      ].join("\n"),
    );
    expect(key.subject).toBe("[datajud] DataJud voltou a aceitar a chave da API");
    expect(key.text).toContain(
      "A chave da API pública, recusada pelo DataJud desde 01/03/2026 06:00, voltou a ser aceita: em 02/03/2026 09:00",
    );
    expect(key.html).toContain("<h1");
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

    expect(mail.text).toContain("falhando desde 01/03/2026 06:00, voltaram a funcionar");
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
      "[datajud] ⚠ DataJud sem resposta em 3 varreduras seguidas; DataJud recusou a chave da API; 1 processo sem consulta há mais de um dia; DataJud voltou a responder",
    );
    const headings = [
      "⚠ O MONITOR NÃO CONSEGUE CONSULTAR O DATAJUD",
      "O MONITOR VOLTOU A CONSULTAR O DATAJUD",
      "⚠ O DATAJUD RECUSOU A CHAVE DA API",
      "⚠ 1 PROCESSO SEM CONSULTA HÁ MAIS DE UM DIA",
    ].map((h) => mail.text.indexOf(`${h}\n`));
    expect(headings.every((at, i) => at > (headings[i - 1] ?? -1))).toBe(true);
    expect(mail.text.match(/Mensagem automática/g)).toHaveLength(1);
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

    expect(mail.subject).toBe("[datajud] ⚠ 1 processo não encontrado no DataJud");
    expect(mail.text).toContain("0713383-43.2025.8.07.0006");
    expect(mail.text).toContain(
      "Não encontrado desde 03/03/2026 07:00 (3 respostas completas seguidas sem o processo); visto pela última vez em 01/03/2026 07:00.",
    );
    expect(mail.text).toContain("Confira o número e o tribunal no watchlist");
    expect(mail.text).not.toContain("\r");
    expect(mail.html).not.toContain("<b>DataJud");
    expect(AdminAlert.parse(gone)).toEqual(gone);
  });

  it("counts several in one subject next to failing cases", () => {
    const mail = renderAdminAlert([gone, caseFailing, { ...gone, caseNumber: "1", court: "tjsp" }]);

    expect(mail.subject).toBe(
      "[datajud] ⚠ 1 processo sem consulta há mais de um dia; 2 processos não encontrados no DataJud",
    );
  });
});
