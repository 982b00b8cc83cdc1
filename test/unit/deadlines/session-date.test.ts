import { describe, expect, it } from "vitest";
import { hearingDate, sessionDate } from "../../../src/deadlines/session-date.js";

describe("sessionDate", () => {
  it("reads a session's date and time (TJRJ's EDITAL-PAUTA form)", () => {
    const text =
      "EDITAL-PAUTA\nFAÇO PÚBLICO que serão julgados na Sessão Ordinária do dia 15/10/2025, às 13h30, os processos abaixo";

    expect(sessionDate(text, "2025-09-29")).toEqual({
      date: "2025-10-15",
      time: "13:30",
      endDate: null,
      virtual: false,
      quote: "FAÇO PÚBLICO que serão julgados na Sessão Ordinária do dia 15/10/2025, às 13h30",
    });
  });

  it("reads a virtual session's first and last day, not an earlier session it was moved from", () => {
    const text =
      "EDITAL-PAUTA DE SESSÃO VIRTUAL\nProcesso adiado da sessão de 01/09/2025. Sessão Virtual com início em 06/10/2025 e término em 10/10/2025.";

    expect(sessionDate(text, "2025-09-29")).toMatchObject({
      date: "2025-10-06",
      time: null,
      endDate: "2025-10-10",
      virtual: true,
    });
  });

  it("reads dates written in words and times in hours", () => {
    expect(
      sessionDate(
        "Pauta da sessão de julgamento de 14 de outubro de 2025, às 9 horas.",
        "2025-10-01",
      ),
    ).toMatchObject({ date: "2025-10-14", time: "09:00" });
    expect(
      sessionDate("Sessão de Julgamento: 22/10/2025 (quarta-feira), às 14:00", "2025-10-01"),
    ).toMatchObject({ date: "2025-10-22", time: "14:00" });
  });

  it("finds no session where the text names none", () => {
    expect(sessionDate("Intimação da decisão de 01/10/2025.", "2025-09-29")).toBeNull();
    expect(sessionDate("Inclua-se em pauta oportunamente.", "2025-09-29")).toBeNull();
  });
});

describe("hearingDate", () => {
  it("reads the hearing an intimação announces, marked as a hearing", () => {
    const text =
      "Fica a parte autora intimada para a audiência de instrução e julgamento designada para o dia 10/03/2026, às 14h00, na sala de audiências da 2ª Vara.";

    expect(hearingDate(text, "2026-02-20")).toEqual({
      date: "2026-03-10",
      hearing: true,
      time: "14:00",
      endDate: null,
      virtual: false,
      quote: expect.stringContaining("designada para o dia 10/03/2026, às 14h00"),
    });
  });

  it("reads a hearing by videoconference without calling it a virtual session", () => {
    expect(
      hearingDate(
        "Audiência de conciliação por videoconferência em 5 de maio de 2026, às 9 horas.",
        "2026-04-01",
      ),
    ).toMatchObject({ date: "2026-05-05", time: "09:00", virtual: false, hearing: true });
  });

  it("ties no date to a hearing where the text names none, or names one already held", () => {
    // In an intimação "julgamento" and "início" name other things than an appointment.
    expect(hearingDate("Intimação do acórdão. Início do prazo em 10/03/2026.", "2026-03-02")).toBe(
      null,
    );
    expect(hearingDate("Sessão de julgamento de 10/03/2026.", "2026-03-02")).toBeNull();
    expect(
      hearingDate("Termo da audiência realizada em 02/03/2026. Intimem-se.", "2026-03-05"),
    ).toBeNull();
  });
});
