import { describe, expect, it } from "vitest";
import {
  calendarsWith,
  estimateGazetteMovement,
} from "../../../../src/deadlines/publication-estimate.js";
import { groupMessageId, groupOfMessageId } from "../../../../src/notify/outbox/message-ids.js";
import { renderDigest } from "../../../../src/notify/render/digest.js";
import { renderAdminAlert } from "../../../../src/notify/render/operator-mail.js";
import { sampleAlert, sampleLateMovement, sampleMovement, sampleSummary } from "./sample-alert.js";
import { samplePublication } from "./sample-publication.js";

const quiet = sampleSummary({ needsLawyerAttention: false, attentionReasons: [] });

describe("renderDigest", () => {
  it("shows a gazette movement's estimated dates under it in both parts, as the case's alert does", () => {
    // A disponibilização at the TJDFT on Fri 13/02/2026: published after Carnaval and Ash
    // Wednesday (gazette-movement.test.ts works the dates out).
    const deadline = estimateGazetteMovement(
      { code: 1061, day: "2026-02-13" },
      {
        court: "tjdft",
        municipality: 5300108,
        className: "Execução Fiscal",
        classCode: 1116,
        caseNumber: "07133834320258070006",
      },
      calendarsWith(),
    );
    const movement = sampleMovement({
      id: "m-disp",
      code: 1061,
      name: "Disponibilização no Diário da Justiça Eletrônico",
      dateTime: "2026-02-13T09:12:00",
      complements: [],
    });
    const item = sampleAlert({
      newMovements: [{ instance: "G1", movement, deadline: deadline ?? undefined }],
    });

    const digest = renderDigest([item]);

    expect(deadline).not.toBeNull();
    expect(digest.text).toContain(
      "     Datas de prazo (estimativas): considera-se publicada em 19/02/2026",
    );
    expect(digest.html).toContain("considera-se publicada em 19/02/2026");
  });

  it("lists cases needing attention first, and counts them in the subject", () => {
    const items = [
      sampleAlert({ label: "Calmo", current: quiet, caseNumber: "0000002-00.2025.8.07.0001" }),
      sampleAlert({ label: "Urgente" }),
    ];

    const digest = renderDigest(items);

    expect(digest.subject).toBe("[datajud] ⚠ 2 processos com novidades");
    expect(digest.text.indexOf("1. ⚠ Urgente")).toBeGreaterThan(-1);
    expect(digest.text.indexOf("2. Calmo")).toBeGreaterThan(digest.text.indexOf("1. ⚠ Urgente"));
    expect(digest.text).toContain("⚠ 1 requer atenção do advogado.");
    expect(digest.text).toContain("Categoria: concluso para decisão → decidido");
    expect(digest.text.trimEnd().endsWith("Não é aconselhamento jurídico.")).toBe(true);
  });

  it("says instances and the index in plain Portuguese, and counts in the singular and plural", () => {
    const one = renderDigest([sampleAlert()]);

    expect(one.subject).toBe("[datajud] ⚠ 1 processo com novidades");
    expect(one.text).toContain("· código 219, na TPU “Procedência” · 1º grau (G1)");
    expect(one.text).toContain(
      "Origem: índice do TJDFT no DataJud (api_publica_tjdft), consultado em",
    );
    expect(one.html).toContain("1º grau (G1)");
    expect(one.text).not.toMatch(/\(s\)|\(ões\)/);
  });

  it("has no marker without attention and keeps hostile labels out of the subject and markup", () => {
    const label = '<img src=x onerror="alert(1)">\r\nBcc: evil@example.com';

    const digest = renderDigest([sampleAlert({ label, current: quiet })]);

    expect(digest.subject).toBe("[datajud] 1 processo com novidades");
    expect(digest.html).not.toContain("<img");
    expect(digest.html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt; Bcc:");
    expect(digest.text).toContain('1. <img src=x onerror="alert(1)"> Bcc: evil@example.com');
    expect(digest.text).not.toContain("\r");
  });
});

describe("renderDigest with alert rules", () => {
  it("lists a case changed twice since the last digest once, from the first summary to the last", () => {
    const first = sampleAlert({
      label: "Duas vezes",
      current: { ...quiet, status: "Depois da primeira." },
      newMovements: [
        { instance: "G1", movement: sampleMovement({ id: "m1", name: "Despacho", code: 11010 }) },
      ],
      ignoredMovements: 1,
    });
    const second = sampleAlert({
      label: "Duas vezes",
      previous: { ...quiet, status: "Depois da primeira." },
      current: { ...quiet, status: "Depois da segunda." },
      newMovements: [
        { instance: "G1", movement: sampleMovement({ id: "m2", name: "Expedição de documento" }) },
      ],
      ignoredMovements: 2,
    });

    const digest = renderDigest([first, second]);

    expect(digest.subject).toBe("[datajud] 1 processo com novidades");
    expect(digest.text.match(/Duas vezes/g)).toHaveLength(1);
    expect(digest.text).toContain("Movimentações novas (2):");
    expect(digest.text).toContain("Situação: Depois da segunda.");
    expect(digest.text).toContain("Categoria: concluso para decisão → decidido");
    expect(digest.text).toContain("3 movimentações rotineiras não listadas");
  });

  it("puts urgent cases first and marks the subject", () => {
    const items = [
      sampleAlert({ label: "Atenção", caseNumber: "0000002-00.2025.8.07.0001" }),
      sampleAlert({ label: "Urgente", current: quiet, urgent: true }),
    ];

    const digest = renderDigest(items);

    expect(digest.subject).toBe("[datajud] ⚠ URGENTE 2 processos com novidades");
    expect(digest.text).toContain("1. ⚠ URGENTE Urgente");
    expect(digest.text).toContain("2. ⚠ Atenção");
    expect(digest.html).toContain("1. ⚠ URGENTE Urgente");
  });
});

describe("renderAdminAlert", () => {
  it("escapes what DataJud and the watchlist wrote", () => {
    const mail = renderAdminAlert([
      {
        type: "case_failing",
        caseNumber: "0713383-43.2025.8.07.0006",
        court: "tjdft",
        label: "<b>Silva</b>",
        failingSince: "2026-03-01T09:00:00.000Z",
        lastCheckedAt: "2026-03-02T10:00:00.000Z",
        failures: 3,
        lastErrorKind: "server",
        lastError: "HTTP 503 <html>busy</html>\r\nX-Injected: 1",
        thresholdHours: 24,
      },
    ]);

    expect(mail.subject).toBe("[datajud] ⚠ 1 case not checked for over a day");
    expect(mail.html).not.toContain("<b>Silva");
    expect(mail.html).toContain("&lt;html&gt;busy&lt;/html&gt; X-Injected: 1");
    expect(mail.text).toContain("Last error: server: HTTP 503 <html>busy</html> X-Injected: 1");
  });
});

describe("groupMessageId", () => {
  it("is the same for the same rows in any order, and different for other rows", () => {
    const a = groupMessageId("digest", ["alert:1", "alert:2"], "monitor.example.com");
    const b = groupMessageId("digest", ["alert:2", "alert:1"], "monitor.example.com");
    const c = groupMessageId("digest", ["alert:1", "alert:3"], "monitor.example.com");

    expect(a).toBe(b);
    expect(c).not.toBe(a);
    expect(groupOfMessageId(a, "digest")).toBe(a);
    expect(groupOfMessageId(a, "admin")).toBeNull();
    expect(groupMessageId("admin", ["alert:1", "alert:2"], "monitor.example.com")).not.toBe(a);
  });
});

describe("renderDigest: late records and the case's own data", () => {
  it("merges two changes of a case: its field change and its late record, each in its place", () => {
    const late = sampleLateMovement();
    const items = [
      sampleAlert({
        current: quiet,
        newMovements: [],
        fieldChanges: [
          {
            instance: "G2",
            field: "secrecyLevel",
            before: 0,
            after: 5,
          },
        ],
        changeKinds: ["secrecy_changed"],
      }),
      sampleAlert({
        current: quiet,
        newMovements: [],
        lateMovements: [{ instance: "G1", movement: late }],
        changeKinds: ["late_movements"],
      }),
    ];

    const digest = renderDigest(items);

    expect(digest.text).toContain(
      "   Dados do processo alterados (1):\n   - Nível de sigilo alterado no 2º grau (G2)\n     Antes: 0 (público)\n     Agora: 5 (sigilo absoluto)",
    );
    expect(digest.text).toContain("   REGISTROS ANTIGOS LISTADOS AGORA (1)");
    expect(digest.text).toContain(
      "   - 17/01/2024 16:37 · Publicação · código 92 · 1º grau (G1) (listada",
    );
    expect(digest.html).toContain("Dados do processo alterados (1)");
    expect(digest.html).toContain("Registros antigos listados agora (1)");
  });
});

describe("a digest with the party radar's news", () => {
  it("says a case had no new movement, counts the routine ones left out, and cuts a long list at five", () => {
    const none = sampleAlert({
      label: "Sem novidade",
      caseNumber: "0000002-00.2025.8.07.0001",
      newMovements: [],
      ignoredMovements: 2,
    });
    const many = sampleAlert({
      label: "Muitas",
      newMovements: Array.from({ length: 7 }, (_, i) => ({
        instance: "G1",
        movement: sampleMovement({ id: `m-${i}`, dateTime: `2025-10-0${i + 1}T10:00:00` }),
      })),
    });

    const { text } = renderDigest([none, many]);

    expect(text).toContain("Movimentações novas (0): nenhuma");
    expect(text).toContain(
      "2 movimentações rotineiras não listadas (regras ignore do watchlist); veja monitor history.",
    );
    expect(text).toContain("Movimentações novas (7):");
    expect(text).toContain("… e mais 2 (veja `monitor history`).");
  });

  it("lists a new lawsuit apart, first, naming the party", () => {
    const radar = samplePublication({
      djenId: "9001",
      watchedCase: null,
      outsideWatchlist: true,
      radar: {
        party: "ACME Comércio Ltda.",
        partyKey: "cnpj:11222333000181",
        document: "CNPJ 11.222.333/0001-81",
        confidence: "provavel",
        reason: 'o destinatário "ACME COMERCIO LTDA" (polo passivo) tem o nome do cliente',
        recipient: "ACME COMERCIO LTDA",
        side: "P",
        watchCommand: "datajud-monitor watch 0713383-43.2025.8.07.0006",
        later: false,
      },
    });
    const other = samplePublication({ djenId: "9002", watchedCase: null, outsideWatchlist: true });

    const digest = renderDigest([], "America/Sao_Paulo", [other, radar]);

    const news = digest.text.indexOf("POSSÍVEIS NOVAS AÇÕES CONTRA CLIENTES (RADAR DE PARTES)");
    const outside = digest.text.indexOf("PUBLICAÇÕES EM PROCESSOS FORA DA LISTA");
    expect(news).toBeGreaterThanOrEqual(0);
    expect(outside).toBeGreaterThan(news);
    expect(digest.text).toContain("Possível nova ação contra ACME Comércio Ltda.");
    expect(digest.text).toContain("datajud-monitor watch 0713383-43.2025.8.07.0006");
  });
});

describe("a digest's sources lines", () => {
  it("gives each case and publication the freshness line its own alert has, and the note when DataJud lags", () => {
    const change = sampleAlert({
      label: "Despejo",
      sources: {
        dataJudUpdatedAt: "2026-11-28T23:30:00",
        djenAskedAt: "2026-12-06T10:02:00.000Z",
        dataJudLate: true,
      },
    });
    const publication = samplePublication({
      djenId: "9003",
      sources: {
        dataJudUpdatedAt: null,
        djenAskedAt: "2026-12-06T10:02:00.000Z",
        dataJudLate: false,
      },
    });
    const before = sampleAlert({ label: "Sem fontes", caseNumber: "0000002-00.2025.8.07.0001" });

    const digest = renderDigest([change, before], "America/Sao_Paulo", [publication]);

    // DataJud's date as the court wrote it (the 28th, never the 29th); DJEN's look in the zone.
    const line = "Fontes: DataJud atualizado em 28/11/2026; DJEN consultado em 06/12/2026 07:02";
    expect(digest.text).toContain(`   ${line}\n   DataJud atrasado neste processo:`);
    expect(digest.text).toContain(
      "   Fontes: DataJud sem data de atualização; DJEN consultado em 06/12/2026 07:02",
    );
    // An alert queued before sources were kept has no line: two cases, one line of theirs.
    expect(digest.text.split("Fontes: DataJud atualizado").length).toBe(2);
    expect(digest.html).toContain(line);
    expect(digest.html).toContain("DataJud atrasado neste processo");
  });
});

describe("a digest with the day's receipt", () => {
  const receipt = {
    type: "receipt" as const,
    day: "2026-12-06",
    periodStart: "2026-12-05T21:00:00.000Z",
    generatedAt: "2026-12-06T21:00:00.000Z",
    cases: [
      {
        caseNumber: "0713383-43.2025.8.07.0006",
        court: "tjdft",
        label: "Despejo",
        datajud: {
          checks: 2,
          failed: 0,
          lastCheckedAt: "2026-12-06T13:00:00.000Z",
          lastOutcome: "changed",
          lastError: null,
          updatedAt: "2026-12-06T09:00:00",
          late: false,
          silentSince: null,
        },
        djen: null,
        news: 1,
      },
    ],
    oab: [],
  };

  it("keeps the digest's subject and closes with the receipt when there is news", () => {
    const digest = renderDigest([sampleAlert()], "America/Sao_Paulo", [], [receipt]);

    expect(digest.subject).toBe("[datajud] ⚠ 1 processo com novidades");
    const section = digest.text.indexOf("VERIFICAÇÃO DIÁRIA DE 06/12/2026");
    expect(section).toBeGreaterThan(digest.text.indexOf("1. ⚠"));
    expect(digest.text.slice(section)).toContain(
      "Verificado: 1 processo verificado entre 05/12/2026 18:00 e 06/12/2026 18:00; 1 processo com novidades, já enviadas.",
    );
    expect(digest.html).toContain("Verificação diária de 06/12/2026");
  });

  it("reads as the receipt when it is all the digest holds", () => {
    const digest = renderDigest([], "America/Sao_Paulo", [], [{ ...receipt, cases: [] }]);

    expect(digest.subject).toBe("[datajud] Nenhum processo a verificar (06/12/2026)");
    expect(digest.text.startsWith("VERIFICAÇÃO DIÁRIA DE 06/12/2026\n")).toBe(true);
  });
});
