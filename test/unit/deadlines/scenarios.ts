import type { RuleCode } from "../../../src/deadlines/estimate-schema.js";
import type { CourtClosure } from "../../../src/time/court-calendar.js";

/*
 * Dated scenarios, each worked out by hand from the law (never from the monitor's output): the
 * court, what DJEN carried, and the law's dates, with the computation and the articles in `law`.
 * Days are counted on a printed calendar of the year; "BD" is a business day (dia útil).
 *
 * Rules used throughout:
 * - publication: the first business day after the day made available (Lei 11.419/2006 art. 4 §3);
 * - counting start: the first business day after publication (art. 4 §4; CPC art. 224 §§2-3), never
 *   a day opening late (CPC art. 224 §1), never inside 20/12-20/01 (CPC art. 220);
 * - civil periods in business days (CPC art. 219), the start day being day 1 of the count once the
 *   publication day is excluded (CPC art. 224 caput); an end on a day opening late moves (§1);
 * - labour: the same in business days (CLT arts. 775, 775-A);
 * - criminal: calendar days (CPP art. 798 caput, §1), an end on a day without court moves to the
 *   next business day (§3), a Friday publication counts from Monday (STF Súmula 310), 20/12-20/01
 *   suspended except with a defendant in custody or under the Lei Maria da Penha (art. 798-A);
 * - electoral: calendar days (Res. TSE 23.478/2016 art. 7), suspension as CPC art. 220 (art. 10).
 *
 * Each window was checked against the state holidays of the court's state and the municipal
 * holidays of its capital (python-holidays 0.105 as a second opinion, and the state laws): none
 * falls inside a scenario's window unless the scenario says so, so these dates are the law's for
 * any seat of the court.
 */

export interface Scenario {
  id: string;
  /** DataJud alias: the court's calendar. DJEN's acronym is its upper case. */
  court: string;
  availableOn: string;
  kind?: string | null;
  documentType?: string | null;
  className?: string | null;
  classCode?: number | null;
  medium?: string | null;
  text: string;
  recipients?: Array<{ name: string; side: string | null }>;
  lawyerCount?: number;
  caseNumber?: string | null;
  closures?: CourtClosure[];
  /**
   * Days the law's answer takes from the court's own act (Carnival Monday, Corpus Christi, Ash
   * Wednesday opening at noon), not from a law: where the calendar does not know them yet, the
   * estimate may be earlier than the law's answer, never later.
   */
  courtActs?: Array<{ date: string; effect: "closed" | "late-opening" }>;
  expected: {
    rule: RuleCode;
    procedure?: "civil" | "labour" | "criminal" | "electoral";
    publishedOn: string;
    countingStartsOn: string | null;
    lastDay: string | null;
    /** The law's defaults offered when the text states no period: [act's first word, last day]. */
    legalDefaults?: Array<[string, string]>;
    /** The later dates of the alternatives, in order (their last day, else their start). */
    alternatives?: string[];
    session?: { date: string; time: string | null; endDate: string | null };
  };
  law: string;
}

const CIVIL = { className: "PROCEDIMENTO COMUM CÍVEL", classCode: 7 };
const CRIMINAL = { className: "AÇÃO PENAL - PROCEDIMENTO ORDINÁRIO", classCode: 283 };
const LABOUR = { className: "AÇÃO TRABALHISTA - RITO ORDINÁRIO", classCode: 985 };

function closure(
  court: string,
  from: string,
  to: string,
  effect: CourtClosure["effect"],
  reason: string,
): CourtClosure {
  return {
    court,
    municipalities: [],
    from,
    to,
    effect,
    reason,
    source: "Portaria de teste",
    url: null,
  };
}

export const SCENARIOS: readonly Scenario[] = [
  // ---- State courts, civil intimações (CPC) -------------------------------------------------
  {
    id: "A1 TJSP 15 days over a Sunday holiday",
    court: "tjsp",
    availableOn: "2025-09-26",
    ...CIVIL,
    text: "Intime-se a parte autora para, no prazo de 15 (quinze) dias, manifestar-se sobre a contestação.",
    expected: {
      rule: "intimacao",
      procedure: "civil",
      publishedOn: "2025-09-29",
      countingStartsOn: "2025-09-30",
      lastDay: "2025-10-20",
    },
    law: "Fri 26/09 -> published Mon 29/09, starts Tue 30/09; 15 BD: 30/09,1,2,3,6,7,8,9,10,13,14,15,16,17,20/10 (12/10 is a Sunday).",
  },
  {
    id: "A2 TJRJ 20/11 national since Lei 14.759/2023",
    court: "tjrj",
    availableOn: "2025-11-19",
    ...CIVIL,
    text: "Manifeste-se o réu em 5 (cinco) dias.",
    expected: {
      rule: "intimacao",
      publishedOn: "2025-11-21",
      countingStartsOn: "2025-11-24",
      lastDay: "2025-11-28",
    },
    law: "Wed 19/11; Thu 20/11 is Zumbi (Lei 14.759/2023) -> published Fri 21/11, starts Mon 24/11; 5 BD: 24,25,26,27,28.",
  },
  {
    id: "A3 TJMG made available before Carnaval: Ash Wednesday closed too",
    court: "tjmg",
    availableOn: "2025-02-28",
    ...CIVIL,
    text: "Intime-se para, no prazo de 10 (dez) dias, juntar os documentos.",
    courtActs: [
      { date: "2025-03-03", effect: "closed" },
      { date: "2025-03-05", effect: "closed" },
    ],
    expected: {
      rule: "intimacao",
      publishedOn: "2025-03-06",
      countingStartsOn: "2025-03-07",
      lastDay: "2025-03-20",
    },
    law: "Fri 28/02; the TJMG has no expediente on Carnival Monday, Tuesday and Ash Wednesday (Res. TJMG 458/2004 art. 1 III) -> published Thu 06/03, starts Fri 07/03; 10 BD: 7,10,11,12,13,14,17,18,19,20/03.",
  },
  {
    id: "A4 TJPR made available on Carnaval Tuesday",
    court: "tjpr",
    availableOn: "2025-03-04",
    ...CIVIL,
    text: "Prazo de 5 dias para as partes se manifestarem.",
    courtActs: [{ date: "2025-03-05", effect: "late-opening" }],
    expected: {
      rule: "intimacao",
      publishedOn: "2025-03-05",
      countingStartsOn: "2025-03-06",
      lastDay: "2025-03-12",
    },
    law: "Tue 04/03 (Carnaval) -> published Wed 05/03; start not on Ash Wednesday -> Thu 06/03; 5 BD: 6,7,10,11,12.",
  },
  {
    id: "A5 TJSC a last day on Ash Wednesday, a normal day there",
    court: "tjsc",
    availableOn: "2026-02-10",
    ...CIVIL,
    text: "Intime-se para pagamento das custas no prazo de 3 (três) dias.",
    courtActs: [{ date: "2026-02-16", effect: "closed" }],
    expected: {
      rule: "intimacao",
      publishedOn: "2026-02-11",
      countingStartsOn: "2026-02-12",
      lastDay: "2026-02-18",
    },
    law: "Tue 10/02 -> published Wed 11/02, starts Thu 12/02; 3 BD: 12, 13, (16-17 Carnaval: Res. GP TJSC 1/1985 art. 1) 18/02 = Ash Wednesday, whose expediente the TJSC keeps at its usual 12h (Res. GP 13/2022; Res. TJ 7/2006 art. 1): no CPC 224 §1 move.",
  },
  {
    id: "A6 TJGO Good Friday then Tiradentes",
    court: "tjgo",
    availableOn: "2026-04-02",
    ...CIVIL,
    text: "Intime-se para apresentar réplica no prazo de 15 (quinze) dias.",
    expected: {
      rule: "intimacao",
      publishedOn: "2026-04-06",
      countingStartsOn: "2026-04-07",
      lastDay: "2026-04-28",
    },
    law: "Thu 02/04; Good Friday 03/04 (Lei 9.093/1995) -> published Mon 06/04, starts Tue 07/04; 15 BD skipping Tiradentes Tue 21/04: 7,8,9,10,13,14,15,16,17,20,22,23,24,27,28.",
  },
  {
    id: "A7 TJDFT Corpus Christi",
    court: "tjdft",
    availableOn: "2025-06-18",
    ...CIVIL,
    text: "Especifiquem as partes as provas que pretendem produzir, em 5 (cinco) dias.",
    courtActs: [
      { date: "2025-06-19", effect: "closed" },
      { date: "2025-06-20", effect: "closed" },
    ],
    expected: {
      rule: "intimacao",
      publishedOn: "2025-06-23",
      countingStartsOn: "2025-06-24",
      lastDay: "2025-06-30",
    },
    law: "Wed 18/06; Corpus Christi Thu 19/06 and Fri 20/06 without expediente (Portaria Conjunta TJDFT 1/2025) -> published Mon 23/06, starts Tue 24/06; 5 BD: 24,25,26,27,30/06.",
  },
  {
    id: "A8 TJMS made available on the eve of the recess",
    court: "tjms",
    availableOn: "2025-12-19",
    ...CIVIL,
    text: "Intime-se o apelado para contrarrazões no prazo de 15 (quinze) dias.",
    expected: {
      rule: "intimacao",
      publishedOn: "2026-01-07",
      countingStartsOn: "2026-01-21",
      lastDay: "2026-02-10",
    },
    law: "Fri 19/12; recess 20/12-06/01 (Res. CNJ 244/2016) -> published Wed 07/01; suspension to 20/01 (CPC 220) -> starts Wed 21/01; 15 BD: 21,22,23,26,27,28,29,30/01, 2,3,4,5,6,9,10/02.",
  },
  {
    id: "A9 TJCE a count begun before 20/12 resumes on 21/01",
    court: "tjce",
    availableOn: "2025-12-17",
    ...CIVIL,
    text: "Intime-se para emendar a inicial em 5 (cinco) dias.",
    expected: {
      rule: "intimacao",
      publishedOn: "2025-12-18",
      countingStartsOn: "2025-12-19",
      lastDay: "2026-01-26",
    },
    law: "Wed 17/12 -> published Thu 18/12, starts Fri 19/12 (day 1); 20/12-20/01 suspended (CPC 220); resumes Wed 21/01 (2), 22 (3), 23 (4), 26 (5).",
  },
  {
    id: "A10 TJPE published during the suspension, counted after it",
    court: "tjpe",
    availableOn: "2026-01-19",
    ...CIVIL,
    text: "Manifeste-se a parte autora, no prazo de 10 (dez) dias.",
    expected: {
      rule: "intimacao",
      publishedOn: "2026-01-20",
      countingStartsOn: "2026-01-21",
      lastDay: "2026-02-03",
    },
    law: "Mon 19/01: courts work after 06/01, so published Tue 20/01; counting suspended to 20/01 -> starts Wed 21/01; 10 BD: 21,22,23,26,27,28,29,30/01, 2,3/02.",
  },
  {
    id: "A11 TJAL 20/11/2026 on a Friday",
    court: "tjal",
    availableOn: "2026-11-18",
    ...CIVIL,
    text: "Prazo de 5 (cinco) dias para recolher as custas.",
    expected: {
      rule: "intimacao",
      publishedOn: "2026-11-19",
      countingStartsOn: "2026-11-23",
      lastDay: "2026-11-27",
    },
    law: "Wed 18/11 -> published Thu 19/11; Fri 20/11 national holiday -> starts Mon 23/11; 5 BD: 23..27/11.",
  },
  {
    id: "A12 TJSP Good Friday 2027",
    court: "tjsp",
    availableOn: "2027-03-24",
    ...CIVIL,
    text: "Intime-se para, em 15 (quinze) dias, cumprir o despacho.",
    expected: {
      rule: "intimacao",
      publishedOn: "2027-03-25",
      countingStartsOn: "2027-03-29",
      lastDay: "2027-04-16",
    },
    law: "Wed 24/03 -> published Thu 25/03; Good Friday 26/03 -> starts Mon 29/03; 15 BD: 29,30,31/03, 1,2,5,6,7,8,9,12,13,14,15,16/04.",
  },
  {
    id: "A13 TJMT Corpus Christi 2027 on the start",
    court: "tjmt",
    availableOn: "2027-05-25",
    ...CIVIL,
    text: "Cumpra a parte em 3 (três) dias.",
    courtActs: [{ date: "2027-05-27", effect: "closed" }],
    expected: {
      rule: "intimacao",
      publishedOn: "2027-05-26",
      countingStartsOn: "2027-05-28",
      lastDay: "2027-06-01",
    },
    law: "Tue 25/05 -> published Wed 26/05; Corpus Christi Thu 27/05, closed by the TJMT's yearly portaria (no act for 2027 is known yet: the calendar keeps the day working and answers earlier) -> starts Fri 28/05; 3 BD: 28/05, 31/05, 01/06.",
  },
  {
    id: "A14 TJSP a text that says dias corridos",
    court: "tjsp",
    availableOn: "2025-10-31",
    ...CIVIL,
    text: "Intime-se o executado para pagar no prazo de 10 (dez) dias corridos.",
    expected: {
      rule: "intimacao",
      publishedOn: "2025-11-03",
      countingStartsOn: "2025-11-04",
      lastDay: "2025-11-13",
    },
    law: "Fri 31/10 -> published Mon 03/11 (02/11 a Sunday), starts Tue 04/11; 10 calendar days as the text says: 04..13/11, a Thursday.",
  },
  {
    id: "A15 TJSP a period in hours",
    court: "tjsp",
    availableOn: "2025-10-06",
    ...CIVIL,
    text: "Cumpra-se a liminar no prazo de 48 (quarenta e oito) horas.",
    expected: {
      rule: "intimacao",
      publishedOn: "2025-10-07",
      countingStartsOn: "2025-10-08",
      lastDay: "2025-10-09",
    },
    law: "Mon 06/10 -> published Tue 07/10; the period starts Wed 08/10 (Lei 11.419 art. 4 §4) and 48 hours from its first minute end with Thu 09/10 (CC art. 132 §4).",
  },
  {
    id: "A16 TJSP no period: none invented, CPC 218 §3 offered",
    court: "tjsp",
    availableOn: "2025-10-06",
    ...CIVIL,
    documentType: "Despacho",
    text: "Manifeste-se a parte autora sobre a contestação.",
    expected: {
      rule: "intimacao",
      publishedOn: "2025-10-07",
      countingStartsOn: "2025-10-08",
      lastDay: null,
      legalDefaults: [["ato", "2025-10-14"]],
    },
    law: "No period in the text: no last day. CPC 218 §3 gives 5 days where neither law nor judge set one: 8,9,10,13,14/10 (12/10 a Sunday).",
  },
  {
    id: "A17 TJSP a sentença: embargos before the appeal",
    court: "tjsp",
    availableOn: "2025-11-13",
    ...CIVIL,
    documentType: "Sentença",
    text: "SENTENÇA. Ante o exposto, JULGO PROCEDENTE o pedido. P.R.I.",
    expected: {
      rule: "intimacao",
      publishedOn: "2025-11-14",
      countingStartsOn: "2025-11-17",
      lastDay: null,
      legalDefaults: [
        ["embargos", "2025-11-24"],
        ["apelação", "2025-12-08"],
      ],
    },
    law: "Thu 13/11 -> published Fri 14/11, starts Mon 17/11. ED 5 BD (CPC 1.023): 17,18,19,21,24 (20/11 holiday). Apelação 15 BD (CPC 1.003 §5): 17,18,19,21,24,25,26,27,28/11, 1,2,3,4,5,8/12.",
  },
  {
    id: "A18 TJSP Juizado: recurso inominado in 10 days",
    court: "tjsp",
    availableOn: "2025-09-01",
    className: "PROCEDIMENTO DO JUIZADO ESPECIAL CÍVEL",
    classCode: 436,
    documentType: "Sentença",
    text: "SENTENÇA. Julgo improcedente o pedido. Sem custas (Lei 9.099/95, art. 55).",
    expected: {
      rule: "intimacao",
      publishedOn: "2025-09-02",
      countingStartsOn: "2025-09-03",
      lastDay: null,
      legalDefaults: [
        ["embargos", "2025-09-09"],
        ["recurso inominado", "2025-09-16"],
      ],
    },
    law: "Mon 01/09 -> published Tue 02/09, starts Wed 03/09; business days (Lei 9.099 art. 12-A). ED 5 (art. 49): 3,4,5,8,9. Recurso 10 (art. 42): 3,4,5,8,9,10,11,12,15,16 (07/09 a Sunday).",
  },

  // ---- Federal courts -----------------------------------------------------------------------
  {
    id: "B1 TRF3 15 days in October",
    court: "trf3",
    availableOn: "2025-10-10",
    ...CIVIL,
    text: "Intime-se a parte autora para, no prazo de 15 (quinze) dias, apresentar réplica.",
    expected: {
      rule: "intimacao",
      publishedOn: "2025-10-13",
      countingStartsOn: "2025-10-14",
      lastDay: "2025-11-04",
    },
    // Rechecked by hand: the TRF3 closes the Dia do Servidor Público (Lei 8.112/1990 art. 236)
    // on the day its yearly Portaria CATRF3R moves it to (31/10 in 2011 and 2024, Portaria
    // CATRF3R 34/2023), and in 2025 it moved it to Fri 31/10 (reported with the TRF5's, TRT3's
    // and TRT22's). The calendar holds no TRF3 act for 2025, so the estimate (03/11) is a day
    // early, never late; the law's answer with the court's closure is 04/11.
    courtActs: [{ date: "2025-10-31", effect: "closed" }],
    law: "Fri 10/10 -> published Mon 13/10 (12/10 a Sunday), starts Tue 14/10; 15 BD: 14,15,16,17,20,21,22,23,24,27,28,29,30/10 (13), Fri 31/10 closed (Dia do Servidor Público, transferred), 01/11 and 02/11 (Lei 5.010 art. 62) on the weekend, 03/11 (14), 04/11 (15).",
  },
  {
    id: "B2 TRF1 Juizado Especial Federal with the INSS: no doubled period",
    court: "trf1",
    availableOn: "2025-09-15",
    className: "Procedimento do Juizado Especial Cível",
    classCode: 436,
    text: "Intimem-se as partes para manifestação sobre o laudo pericial no prazo de 10 (dez) dias.",
    recipients: [
      { name: "MARIA DA SILVA", side: "A" },
      { name: "INSTITUTO NACIONAL DO SEGURO SOCIAL - INSS", side: "P" },
    ],
    lawyerCount: 1,
    expected: {
      rule: "intimacao",
      publishedOn: "2025-09-16",
      countingStartsOn: "2025-09-17",
      lastDay: "2025-09-30",
      alternatives: [],
    },
    law: "Mon 15/09 -> published Tue 16/09, starts Wed 17/09; 10 BD: 17,18,19,22,23,24,25,26,29,30. No doubling in a JEF (Lei 10.259/2001 art. 9).",
  },
  {
    id: "B3 TRF4 the União among the parties: doubled only if it is the one intimated",
    court: "trf4",
    availableOn: "2025-09-03",
    ...CIVIL,
    text: "Intimem-se as partes do retorno dos autos, no prazo de 15 (quinze) dias.",
    recipients: [
      { name: "JOÃO PEREIRA", side: "A" },
      { name: "UNIÃO FEDERAL", side: "P" },
    ],
    lawyerCount: 2,
    expected: {
      rule: "intimacao",
      publishedOn: "2025-09-04",
      countingStartsOn: "2025-09-05",
      lastDay: "2025-09-25",
      alternatives: ["2025-10-16"],
    },
    law: "Wed 03/09 -> published Thu 04/09, starts Fri 05/09; 15 BD: 5,8,9,10,11,12,15,16,17,18,19,22,23,24,25/09. For the União, 30 BD (CPC 183): ...26,29,30/09, 1,2,3,6,7,8,9,10,13,14,15,16/10.",
  },
  {
    id: "B4 TRF5 an item only for the INSS is its personal intimação",
    court: "trf5",
    availableOn: "2025-10-20",
    ...CIVIL,
    text: "Intime-se o INSS para cumprir a obrigação de fazer em 15 (quinze) dias.",
    recipients: [{ name: "INSTITUTO NACIONAL DO SEGURO SOCIAL - INSS", side: "P" }],
    lawyerCount: 0,
    expected: {
      rule: "personal",
      publishedOn: "2025-10-21",
      countingStartsOn: null,
      lastDay: null,
    },
    law: "Personal intimação of an autarquia (CPC 183 §1) runs through the Domicílio Judicial Eletrônico (Res. CNJ 455/2022 art. 18, red. 569/2024): DJEN starts nothing; the date of ciência is not in DJEN.",
  },
  {
    id: "B5 TRF2 criminal, defendant in custody, Friday publication",
    court: "trf2",
    availableOn: "2025-10-09",
    ...CRIMINAL,
    text: "RÉU PRESO. Intime-se a defesa para apresentar resposta à acusação no prazo de 10 (dez) dias.",
    expected: {
      rule: "intimacao",
      procedure: "criminal",
      publishedOn: "2025-10-10",
      countingStartsOn: "2025-10-13",
      lastDay: "2025-10-22",
    },
    law: "Thu 09/10 -> published Fri 10/10 -> counts from Mon 13/10 (Súmula 310 STF); 10 calendar days (CPP 798): 13..22/10, a Wednesday.",
  },
  {
    id: "B6 TRF6 a configured closure on the publication days",
    court: "trf6",
    availableOn: "2026-03-09",
    ...CIVIL,
    text: "Manifeste-se a parte ré no prazo de 5 (cinco) dias.",
    closures: [closure("trf6", "2026-03-10", "2026-03-11", "closed", "indisponibilidade do PJe")],
    expected: {
      rule: "intimacao",
      publishedOn: "2026-03-12",
      countingStartsOn: "2026-03-13",
      lastDay: "2026-03-19",
    },
    law: "Mon 09/03; 10-11/03 without expediente by the court's act (a holiday for forensic purposes, CPC 216) -> published Thu 12/03, starts Fri 13/03; 5 BD: 13,16,17,18,19.",
  },

  // ---- Labour -------------------------------------------------------------------------------
  {
    id: "C1 TRT2 a sentença: embargos and recurso ordinário",
    court: "trt2",
    availableOn: "2025-10-08",
    ...LABOUR,
    documentType: "Sentença",
    text: "SENTENÇA. Julgo PROCEDENTES EM PARTE os pedidos.",
    expected: {
      rule: "intimacao",
      procedure: "labour",
      publishedOn: "2025-10-09",
      countingStartsOn: "2025-10-10",
      lastDay: null,
      legalDefaults: [
        ["embargos", "2025-10-16"],
        ["recurso ordinário", "2025-10-21"],
      ],
    },
    law: "Wed 08/10 -> published Thu 09/10, starts Fri 10/10; BD (CLT 775). ED 5 (CLT 897-A): 10,13,14,15,16. RO 8 (CLT 895 I): 10,13,14,15,16,17,20,21.",
  },
  {
    id: "C2 TRT15 the CLT has no late-opening rule: a count may start on Ash Wednesday",
    court: "trt15",
    availableOn: "2026-02-12",
    ...LABOUR,
    text: "Manifeste-se a reclamada sobre os cálculos no prazo de 5 (cinco) dias.",
    courtActs: [{ date: "2026-02-16", effect: "closed" }],
    expected: {
      rule: "intimacao",
      procedure: "labour",
      publishedOn: "2026-02-13",
      countingStartsOn: "2026-02-18",
      lastDay: "2026-02-24",
    },
    law: "Thu 12/02 -> published Fri 13/02; Carnaval 16-17/02; Ash Wednesday 18/02 is a business day and CLT 775 has nothing like CPC 224 §1, so the earliest reading starts 18/02; 5 BD: 18,19,20,23,24.",
  },
  {
    id: "C3 TST an acórdão: embargos de declaração and the 8-day appeals",
    court: "tst",
    availableOn: "2025-11-17",
    className: "RECURSO DE REVISTA",
    classCode: null,
    documentType: "Acórdão",
    text: "ACÓRDÃO. Recurso de revista conhecido e provido.",
    expected: {
      rule: "intimacao",
      procedure: "labour",
      publishedOn: "2025-11-18",
      countingStartsOn: "2025-11-19",
      lastDay: null,
      legalDefaults: [
        ["embargos", "2025-11-26"],
        ["recurso", "2025-12-01"],
      ],
    },
    law: "Mon 17/11 -> published Tue 18/11, starts Wed 19/11. ED 5 BD: 19,21,24,25,26 (20/11 holiday). 8 BD (CLT 894/896): 19,21,24,25,26,27,28/11, 01/12.",
  },
  {
    id: "C4 TRT4 8 days across the labour suspension (CLT 775-A)",
    court: "trt4",
    availableOn: "2025-12-18",
    ...LABOUR,
    text: "Intime-se o reclamante para contrarrazões no prazo de 8 (oito) dias.",
    expected: {
      rule: "intimacao",
      procedure: "labour",
      publishedOn: "2025-12-19",
      countingStartsOn: "2026-01-21",
      lastDay: "2026-01-30",
    },
    law: "Thu 18/12 -> published Fri 19/12; 20/12-20/01 suspended (CLT 775-A) -> starts Wed 21/01; 8 BD: 21,22,23,26,27,28,29,30/01.",
  },
  {
    id: "C5 TRT1 an item only for the MPT",
    court: "trt1",
    availableOn: "2025-09-10",
    ...LABOUR,
    text: "Vista ao Ministério Público do Trabalho.",
    recipients: [{ name: "MINISTÉRIO PÚBLICO DO TRABALHO", side: null }],
    lawyerCount: 0,
    expected: {
      rule: "personal",
      procedure: "labour",
      publishedOn: "2025-09-11",
      countingStartsOn: null,
      lastDay: null,
    },
    law: "The MP is intimated personally (CPC 180, LC 75/1993 art. 18 II h): DJEN starts nothing.",
  },

  // ---- Criminal -----------------------------------------------------------------------------
  {
    id: "D1 TJSP criminal, custody unknown: the earlier date, and what would move it",
    court: "tjsp",
    availableOn: "2025-12-12",
    ...CRIMINAL,
    text: "Intime-se a defesa para apresentar memoriais no prazo de 5 (cinco) dias.",
    expected: {
      rule: "intimacao",
      procedure: "criminal",
      publishedOn: "2025-12-15",
      countingStartsOn: "2025-12-16",
      lastDay: "2025-12-22",
      alternatives: ["2026-01-21", "2026-01-07"],
    },
    law: "Fri 12/12 -> published Mon 15/12, starts Tue 16/12; 5 calendar days 16..20/12; Sat 20/12 -> Mon 22/12 (the duty court sits in the recess; earliest reading). Without custody (798-A): 16,17,18,19 then 21/01 = day 5. Recess as holidays: Sat 20/12 -> Wed 07/01.",
  },
  {
    id: "D2 TJSP criminal, defendant in custody: no year-end suspension",
    court: "tjsp",
    availableOn: "2025-12-12",
    ...CRIMINAL,
    text: "RÉU PRESO. Intime-se a defesa para apresentar memoriais no prazo de 5 (cinco) dias.",
    expected: {
      rule: "intimacao",
      procedure: "criminal",
      publishedOn: "2025-12-15",
      countingStartsOn: "2025-12-16",
      lastDay: "2025-12-22",
      alternatives: ["2026-01-07"],
    },
    law: "CPP 798-A I: no suspension with the defendant in custody; 16..20/12, Saturday -> Mon 22/12.",
  },
  {
    id: "D3 TJMG criminal, defendant free: suspended 20/12-20/01 (CPP 798-A)",
    court: "tjmg",
    availableOn: "2025-12-12",
    ...CRIMINAL,
    text: "Réu solto. Intime-se a defesa para apresentar memoriais no prazo de 5 (cinco) dias.",
    expected: {
      rule: "intimacao",
      procedure: "criminal",
      publishedOn: "2025-12-15",
      countingStartsOn: "2025-12-16",
      lastDay: "2026-01-21",
      alternatives: [],
    },
    law: "Days 16,17,18,19/12 (1-4), 20/12-20/01 suspended, 21/01 = day 5.",
  },
  {
    id: "D4 TJRS Lei Maria da Penha: no year-end suspension (CPP 798-A II)",
    court: "tjrs",
    availableOn: "2025-12-12",
    className: "Medidas Protetivas de Urgência (Lei Maria da Penha) Criminal",
    classCode: null,
    text: "Intime-se o requerido para se manifestar no prazo de 5 (cinco) dias.",
    expected: {
      rule: "intimacao",
      procedure: "criminal",
      publishedOn: "2025-12-15",
      countingStartsOn: "2025-12-16",
      lastDay: "2025-12-22",
    },
    law: "CPP 798-A II: 16..20/12 runs on; Saturday -> Mon 22/12.",
  },
  {
    id: "D5 TJBA a criminal sentença: embargos in 2 days, appeal in 5 (calendar days)",
    court: "tjba",
    availableOn: "2025-09-08",
    ...CRIMINAL,
    documentType: "Sentença",
    text: "SENTENÇA. Julgo procedente a denúncia e condeno o réu. Intimem-se.",
    expected: {
      rule: "intimacao",
      procedure: "criminal",
      publishedOn: "2025-09-09",
      countingStartsOn: "2025-09-10",
      lastDay: null,
      legalDefaults: [
        ["embargos", "2025-09-11"],
        ["apelação", "2025-09-15"],
      ],
    },
    law: "Mon 08/09 -> published Tue 09/09, starts Wed 10/09. ED 2 (CPP 382): 10, 11. Apelação 5 (CPP 593): 10..14, Sunday -> Mon 15/09 (CPP 798 §3).",
  },
  {
    id: "D6 TJPR criminal appeal, Friday publication (Súmula 310)",
    court: "tjpr",
    availableOn: "2025-10-02",
    className: "APELAÇÃO CRIMINAL",
    classCode: 417,
    text: "Intime-se o apelante para oferecer razões no prazo de 3 (três) dias.",
    expected: {
      rule: "intimacao",
      procedure: "criminal",
      publishedOn: "2025-10-03",
      countingStartsOn: "2025-10-06",
      lastDay: "2025-10-08",
    },
    law: "Thu 02/10 -> published Fri 03/10 -> counts from Mon 06/10 (Súmula 310); 3 calendar days: 6,7,8.",
  },
  {
    id: "D7 TJRJ criminal over Carnaval: no late-opening rule in the CPP",
    court: "tjrj",
    availableOn: "2026-02-12",
    className: "Ação Penal - Procedimento Sumário",
    classCode: 10943,
    text: "Intime-se a defesa para alegações finais no prazo de 5 (cinco) dias.",
    courtActs: [
      { date: "2026-02-16", effect: "closed" },
      { date: "2026-02-18", effect: "closed" },
    ],
    expected: {
      rule: "intimacao",
      procedure: "criminal",
      publishedOn: "2026-02-13",
      countingStartsOn: "2026-02-19",
      lastDay: "2026-02-23",
    },
    law: "Thu 12/02 -> published Fri 13/02; the TJRJ has no expediente on Carnival Monday, Tuesday and Ash Wednesday (Lei RJ 6.956/2015 art. 66 III); a Friday publication counts from Monday (Súmula 310 STF), the first day with court: Thu 19/02; 5 days 19..23/02, Mon 23/02 (CPP 798).",
  },
  {
    id: "D8 STJ a criminal acórdão (habeas corpus)",
    court: "stj",
    availableOn: "2025-09-17",
    className: "HABEAS CORPUS",
    classCode: null,
    documentType: "Acórdão",
    text: "ACÓRDÃO. Ordem denegada.",
    expected: {
      rule: "intimacao",
      procedure: "criminal",
      publishedOn: "2025-09-18",
      countingStartsOn: "2025-09-19",
      lastDay: null,
      legalDefaults: [
        ["embargos", "2025-09-22"],
        ["recurso", "2025-10-03"],
      ],
    },
    law: "Wed 17/09 -> published Thu 18/09, starts Fri 19/09. ED 2 (CPP 619): 19, 20 (Saturday) -> Mon 22/09. 15 calendar days: 19/09..03/10, a Friday.",
  },
  {
    id: "D9 TJSC Juizado Especial Criminal sentença",
    court: "tjsc",
    availableOn: "2025-11-10",
    className: "Procedimento do Juizado Especial Criminal - Sumariíssimo",
    classCode: 299,
    documentType: "Sentença",
    text: "SENTENÇA. Absolvo o autor do fato.",
    expected: {
      rule: "intimacao",
      procedure: "criminal",
      publishedOn: "2025-11-11",
      countingStartsOn: "2025-11-12",
      lastDay: null,
      legalDefaults: [
        ["embargos", "2025-11-17"],
        ["apelação", "2025-11-21"],
      ],
    },
    law: "Mon 10/11 -> published Tue 11/11, starts Wed 12/11. ED 5 (Lei 9.099 art. 83 §1): 12..16, Sunday -> Mon 17/11. Apelação 10 (art. 82 §1): 12..21/11, a Friday (20/11 is counted: calendar days).",
  },

  // ---- Electoral ----------------------------------------------------------------------------
  {
    id: "E1 TRE-SP outside the electoral period: calendar days, end on a business day",
    court: "tre-sp",
    availableOn: "2025-06-18",
    className: "Prestação de Contas Anual",
    classCode: null,
    text: "Intime-se o partido para regularizar as contas no prazo de 5 (cinco) dias.",
    courtActs: [{ date: "2025-06-19", effect: "closed" }],
    expected: {
      rule: "intimacao",
      procedure: "electoral",
      publishedOn: "2025-06-20",
      countingStartsOn: "2025-06-23",
      lastDay: "2025-06-27",
    },
    law: "Wed 18/06; Corpus Christi 19/06 -> published Fri 20/06, starts Mon 23/06; 5 calendar days (Res. TSE 23.478 art. 7): 23..27/06.",
  },
  {
    id: "E2 TRE-MG in the electoral period: every day counts (LC 64/1990 art. 16)",
    court: "tre-mg",
    availableOn: "2026-09-04",
    className: "Registro de Candidatura",
    classCode: null,
    text: "Intime-se o candidato para sanar a irregularidade no prazo de 3 (três) dias.",
    expected: {
      rule: "intimacao",
      procedure: "electoral",
      publishedOn: "2026-09-05",
      countingStartsOn: "2026-09-06",
      lastDay: "2026-09-08",
    },
    law: "From the close of registration (15/08/2026) periods do not stop on Saturdays, Sundays or holidays (LC 64/1990 art. 16; Res. TSE 23.478 art. 7 §1): Fri 04/09 -> Sat 05/09 -> from Sun 06/09: 6, 7 (holiday), 8.",
  },
  {
    id: "E3 TSE an electoral acórdão: 3-day embargos and appeal",
    court: "tse",
    availableOn: "2025-10-14",
    className: "Recurso Especial Eleitoral",
    classCode: null,
    documentType: "Acórdão",
    text: "ACÓRDÃO. Recurso desprovido.",
    expected: {
      rule: "intimacao",
      procedure: "electoral",
      publishedOn: "2025-10-15",
      countingStartsOn: "2025-10-16",
      lastDay: null,
      legalDefaults: [
        ["embargos", "2025-10-20"],
        ["recurso", "2025-10-20"],
      ],
    },
    law: "Tue 14/10 -> published Wed 15/10, starts Thu 16/10; 3 calendar days (CE 275 §1, 276 §1): 16,17,18 (Saturday) -> Mon 20/10 (CPC 224 §1 outside the electoral period).",
  },

  // ---- Superior courts, civil ---------------------------------------------------------------
  {
    id: "F1 STJ a monocratic decision: embargos and agravo interno over Corpus Christi",
    court: "stj",
    availableOn: "2026-06-01",
    className: "AGRAVO EM RECURSO ESPECIAL",
    classCode: null,
    documentType: "Decisão",
    text: "DECISÃO. Conheço do agravo para não conhecer do recurso especial.",
    courtActs: [{ date: "2026-06-04", effect: "closed" }],
    expected: {
      rule: "intimacao",
      procedure: "civil",
      publishedOn: "2026-06-02",
      countingStartsOn: "2026-06-03",
      lastDay: null,
      legalDefaults: [
        ["embargos", "2026-06-10"],
        ["agravo", "2026-06-24"],
      ],
    },
    law: "Mon 01/06 -> published Tue 02/06, starts Wed 03/06. ED 5 BD: 3,5,8,9,10 (04/06 Corpus Christi). Agravo 15 BD (CPC 1.003 §5, 1.021): 3,5,8,9,10,11,12,15,16,17,18,19,22,23,24.",
  },
  {
    id: "F2 STF an acórdão over Tiradentes 2027",
    court: "stf",
    availableOn: "2027-04-16",
    className: "RECURSO EXTRAORDINÁRIO COM AGRAVO",
    classCode: null,
    documentType: "Acórdão",
    text: "ACÓRDÃO. Agravo regimental a que se nega provimento.",
    expected: {
      rule: "intimacao",
      procedure: "civil",
      publishedOn: "2027-04-19",
      countingStartsOn: "2027-04-20",
      lastDay: null,
      legalDefaults: [
        ["embargos", "2027-04-27"],
        ["recurso", "2027-05-11"],
      ],
    },
    law: "Fri 16/04 -> published Mon 19/04, starts Tue 20/04. ED 5 BD: 20,22,23,26,27 (21/04 Tiradentes). 15 BD: 20,22,23,26,27,28,29,30/04, 3,4,5,6,7,10,11/05 (01/05 a Saturday).",
  },

  // ---- Editais ------------------------------------------------------------------------------
  {
    id: "G1 TJSP edital de citação, 20-day dilação, then 15 days to answer",
    court: "tjsp",
    availableOn: "2026-02-12",
    ...CIVIL,
    kind: "Edital",
    text: "EDITAL DE CITAÇÃO COM PRAZO DE 20 (VINTE) DIAS. Fica citado o réu para contestar no prazo de 15 (quinze) dias, que fluirá após o decurso do prazo do edital.",
    courtActs: [
      { date: "2026-02-16", effect: "closed" },
      { date: "2026-02-18", effect: "late-opening" },
    ],
    expected: {
      rule: "edital",
      publishedOn: "2026-02-13",
      countingStartsOn: "2026-03-06",
      lastDay: "2026-03-26",
      alternatives: ["2026-04-09", "2026-03-27"],
    },
    law: "Thu 12/02 -> published Fri 13/02; dilação 20 days from the publication (CPC 257 III), excluded: 14/02..05/03; the answer counts from the business day after (CPC 231 IV): Fri 06/03; 15 BD: 6,9,10,11,12,13,16,17,18,19,20,23,24,25,26/03. Dilação in BD: 19/02 (after Carnaval and Ash Wednesday) .. 18/03, count from 19/03 -> 09/04. 231 IV day excluded: starts Mon 09/03 -> 27/03.",
  },
  {
    id: "G2 TJMG an edital without its dilação: no date",
    court: "tjmg",
    availableOn: "2025-10-01",
    ...CIVIL,
    kind: "Edital",
    text: "EDITAL DE INTIMAÇÃO. Fica intimado o executado, em lugar incerto e não sabido, da penhora realizada.",
    expected: {
      rule: "edital",
      publishedOn: "2025-10-02",
      countingStartsOn: null,
      lastDay: null,
    },
    law: "The period runs after the dilação the judge set (CPC 231 IV, 257 III); the text does not state it: no date.",
  },
  {
    id: "G3 TJSP edital with 30 days, the answer across the suspension",
    court: "tjsp",
    availableOn: "2025-11-03",
    ...CIVIL,
    kind: "Edital",
    text: "EDITAL DE CITAÇÃO - PRAZO DE 30 (TRINTA) DIAS. O réu fica citado para, em 15 (quinze) dias, contestar, após o prazo do edital.",
    expected: {
      rule: "edital",
      publishedOn: "2025-11-04",
      countingStartsOn: "2025-12-05",
      lastDay: "2026-01-26",
      alternatives: ["2026-02-06", "2026-01-27"],
    },
    law: "Mon 03/11 -> published Tue 04/11; dilação 30 days 05/11..04/12; starts Fri 05/12; 15 BD: 5,8,9,10,11,12,15,16,17,18,19/12 (11 days), suspended 20/12-20/01, 21,22,23,26/01 (12-15). Rechecked by hand: CPC art. 231 IV makes Fri 05/12 the dia do começo, which art. 224 excludes on one reading: then 8..12, 15..19/12 (10), 21,22,23,26,27/01 -> 27/01; with the dilação in business days (art. 219; 20/11 a holiday): 30 BD end Wed 17/12, count from 18/12: 18,19/12, 21..23, 26..30/01, 2..6/02 -> 06/02. The earliest reading is the estimate; both later ones are its alternatives.",
  },
  {
    id: "G4 TRF1 edital in an execução fiscal: 5 days to pay after 30 days",
    court: "trf1",
    availableOn: "2026-05-05",
    className: "Execução Fiscal",
    classCode: 1116,
    kind: "Edital",
    text: "EDITAL DE CITAÇÃO COM PRAZO DE 30 (TRINTA) DIAS. Cita o executado para, no prazo de 5 (cinco) dias, pagar a dívida ou garantir a execução.",
    expected: {
      rule: "edital",
      publishedOn: "2026-05-06",
      countingStartsOn: "2026-06-08",
      lastDay: "2026-06-12",
    },
    law: "Tue 05/05 -> published Wed 06/05; dilação 30 days 07/05..05/06 (Fri); starts Mon 08/06; 5 BD: 8..12/06.",
  },

  // ---- Pautas, lists, certidões, citações ---------------------------------------------------
  {
    id: "H1 TJRJ pauta: the session, no period",
    court: "tjrj",
    availableOn: "2025-09-29",
    className: "APELAÇÃO CÍVEL",
    classCode: 198,
    kind: "Pauta de julgamento",
    documentType: "Apelação",
    text: "EDITAL-PAUTA\nFAÇO PÚBLICO que serão julgados na Sessão Ordinária do dia 15/10/2025, às 13h30, os processos abaixo.",
    expected: {
      rule: "pauta",
      publishedOn: "2025-09-30",
      countingStartsOn: null,
      lastDay: null,
      session: { date: "2025-10-15", time: "13:30", endDate: null },
    },
    law: "A pauta opens no period (CPC 934-935): the session is what matters. Published Tue 30/09.",
  },
  {
    id: "H2 TRF3 virtual session over five days",
    court: "trf3",
    availableOn: "2025-10-01",
    ...CIVIL,
    kind: "Pauta de julgamento",
    text: "Pauta de julgamento. Sessão Virtual com início em 20/10/2025 e término em 24/10/2025.",
    expected: {
      rule: "pauta",
      publishedOn: "2025-10-02",
      countingStartsOn: null,
      lastDay: null,
      session: { date: "2025-10-20", time: null, endDate: "2025-10-24" },
    },
    law: "Virtual session from 20/10 to 24/10; published Thu 02/10.",
  },
  {
    id: "H3 TJRJ lista de distribuição",
    court: "tjrj",
    availableOn: "2025-06-23",
    className: "APELAÇÃO CÍVEL",
    classCode: 198,
    kind: "Lista de distribuição",
    text: "ATA DE DISTRIBUIÇÃO",
    expected: {
      rule: "no-deadline",
      publishedOn: "2025-06-24",
      countingStartsOn: null,
      lastDay: null,
    },
    law: "A distribution list opens no period.",
  },
  {
    id: "H4 TJSP certidão",
    court: "tjsp",
    availableOn: "2025-08-15",
    ...CIVIL,
    kind: "Certidão",
    text: "Certifico o trânsito em julgado.",
    expected: {
      rule: "no-deadline",
      publishedOn: "2025-08-18",
      countingStartsOn: null,
      lastDay: null,
    },
    law: "A certidão opens no period; published Mon 18/08.",
  },
  {
    id: "H4b TJSP a certidão sent as an intimação's document",
    court: "tjsp",
    availableOn: "2025-08-15",
    ...CIVIL,
    kind: "Intimação",
    documentType: "Certidão",
    text: "CERTIDÃO. Certifico e dou fé que decorreu o prazo sem manifestação das partes. Nada mais.",
    expected: {
      rule: "no-deadline",
      publishedOn: "2025-08-18",
      countingStartsOn: null,
      lastDay: null,
    },
    law: "A certidão certifies a fact and asks the party nothing, though DJEN's tipoComunicacao says Intimação: no period (no CPC 218 §3 default, which needs an act asked of the party). Fri 15/08 -> published Mon 18/08.",
  },
  {
    id: "H4c TJSP a certidão that asks the party to act keeps its period",
    court: "tjsp",
    availableOn: "2025-09-10",
    ...CIVIL,
    kind: "Intimação",
    documentType: "Certidão",
    text: "Certifico que, nos termos do art. 203, § 4º, do CPC, fica a parte autora intimada para se manifestar sobre a contestação.",
    expected: {
      rule: "intimacao",
      publishedOn: "2025-09-11",
      countingStartsOn: "2025-09-12",
      lastDay: null,
      legalDefaults: [["ato", "2025-09-18"]],
    },
    law: "An ato ordinatório (CPC 203 §4) asking the plaintiff to reply: no period stated, so CPC 218 §3's 5 BD. Wed 10/09 -> published Thu 11/09, starts Fri 12/09; 12,15,16,17,18 -> Thu 18/09.",
  },
  {
    id: "H4d TJSP a despacho that only says Cite-se",
    court: "tjsp",
    availableOn: "2025-09-10",
    ...CIVIL,
    kind: "Intimação",
    documentType: "Despacho",
    text: "Processo 1001234-56.2025.8.26.0100 - Procedimento Comum Cível - Cobrança - Banco Exemplo S.A. - João da Silva - Vistos. Cite-se. Int. - ADV: MARIA SOUZA (OAB 123456/SP)",
    expected: {
      rule: "no-deadline",
      publishedOn: "2025-09-11",
      countingStartsOn: null,
      lastDay: null,
    },
    law: "Cite-se is irrecorrível (CPC 1.001) and asks nothing of the plaintiff's lawyer intimated, so CPC 218 §3 gives no period; the defendant's runs from the citação (CPC 231). Wed 10/09 -> published Thu 11/09.",
  },
  {
    id: "H4e TJSP Cite-se and a reply asked of the plaintiff",
    court: "tjsp",
    availableOn: "2025-09-10",
    ...CIVIL,
    kind: "Intimação",
    documentType: "Despacho",
    text: "Vistos. Cite-se. Manifeste-se o autor sobre a certidão negativa do oficial de justiça. Int.",
    expected: {
      rule: "intimacao",
      publishedOn: "2025-09-11",
      countingStartsOn: "2025-09-12",
      lastDay: null,
      legalDefaults: [["ato", "2025-09-18"]],
    },
    law: "The despacho asks the plaintiff to reply without a period: CPC 218 §3, 5 BD from Fri 12/09: 12,15,16,17,18 -> Thu 18/09.",
  },
  {
    id: "H5 TJSP citação: not started by DJEN",
    court: "tjsp",
    availableOn: "2025-10-15",
    ...CIVIL,
    kind: "Citação",
    text: "Cite-se a ré para contestar no prazo de 15 (quinze) dias.",
    expected: { rule: "citacao", publishedOn: "2025-10-16", countingStartsOn: null, lastDay: null },
    law: "Citações run through the Domicílio Judicial Eletrônico (CPC 231 IX) or mail/officer (I-II), not DJEN (Res. CNJ 455 art. 18).",
  },
  {
    id: "H6 STJ a pauta that names no session",
    court: "stj",
    availableOn: "2025-10-01",
    className: "RECURSO ESPECIAL",
    classCode: null,
    kind: "Pauta de julgamento",
    text: "Inclusão em pauta.",
    expected: {
      rule: "pauta",
      publishedOn: "2025-10-02",
      countingStartsOn: null,
      lastDay: null,
    },
    law: "No session in the text: none is guessed.",
  },

  // ---- Configured closures -------------------------------------------------------------------
  {
    id: "I1 TJSP a configured suspension moves the start",
    court: "tjsp",
    availableOn: "2025-10-17",
    ...CIVIL,
    text: "Manifeste-se a parte autora no prazo de 5 (cinco) dias.",
    closures: [
      closure("tjsp", "2025-10-21", "2025-10-22", "suspended", "suspensão de prazos: e-SAJ fora"),
    ],
    expected: {
      rule: "intimacao",
      publishedOn: "2025-10-20",
      countingStartsOn: "2025-10-23",
      lastDay: "2025-10-29",
    },
    law: "Fri 17/10 -> published Mon 20/10; 21-22/10 deadlines suspended by the court's act -> starts Thu 23/10; 5 BD: 23,24,27,28,29.",
  },
  {
    id: "I2 TJSP an outage on the last day moves it (CPC 224 §1)",
    court: "tjsp",
    availableOn: "2025-10-17",
    ...CIVIL,
    text: "Manifeste-se a parte autora no prazo de 5 (cinco) dias.",
    closures: [
      closure("tjsp", "2025-10-27", "2025-10-27", "late-opening", "indisponibilidade do e-SAJ"),
    ],
    expected: {
      rule: "intimacao",
      publishedOn: "2025-10-20",
      countingStartsOn: "2025-10-21",
      lastDay: "2025-10-28",
    },
    law: "Starts Tue 21/10; 5 BD: 21,22,23,24,27; the system down on 27/10 -> Tue 28/10 (CPC 224 §1).",
  },
  {
    id: "I3 TJMG a ponto facultativo on the publication day",
    court: "tjmg",
    availableOn: "2025-09-26",
    ...CIVIL,
    text: "Intime-se para, no prazo de 15 (quinze) dias, apresentar contrarrazões.",
    closures: [closure("tjmg", "2025-09-29", "2025-09-29", "closed", "ponto facultativo")],
    expected: {
      rule: "intimacao",
      publishedOn: "2025-09-30",
      countingStartsOn: "2025-10-01",
      lastDay: "2025-10-21",
    },
    law: "Fri 26/09; Mon 29/09 closed -> published Tue 30/09, starts Wed 01/10; 15 BD: 1,2,3,6,7,8,9,10,13,14,15,16,17,20,21/10.",
  },

  // ---- Addressees, unknown facts, periods of other units -------------------------------------
  {
    id: "J1 TJSP Defensoria among the parties: doubled only for it",
    court: "tjsp",
    availableOn: "2025-08-04",
    ...CIVIL,
    text: "Manifestem-se as partes no prazo de 5 (cinco) dias.",
    recipients: [
      { name: "DEFENSORIA PÚBLICA DO ESTADO DE SÃO PAULO", side: "A" },
      { name: "BANCO EXEMPLO S.A.", side: "P" },
    ],
    lawyerCount: 1,
    expected: {
      rule: "intimacao",
      publishedOn: "2025-08-05",
      countingStartsOn: "2025-08-06",
      lastDay: "2025-08-12",
      alternatives: ["2025-08-19"],
    },
    law: "Mon 04/08 -> published Tue 05/08, starts Wed 06/08; 5 BD: 6,7,8,11,12. Doubled for the Defensoria (CPC 186): 10 BD: ...13,14,15,18,19.",
  },
  {
    id: "J2 TJSP an item only for the MP in a criminal case",
    court: "tjsp",
    availableOn: "2025-09-10",
    ...CRIMINAL,
    text: "Vista ao Ministério Público.",
    recipients: [{ name: "MINISTÉRIO PÚBLICO DO ESTADO DE SÃO PAULO", side: "A" }],
    lawyerCount: 0,
    expected: {
      rule: "personal",
      procedure: "criminal",
      publishedOn: "2025-09-11",
      countingStartsOn: null,
      lastDay: null,
    },
    law: "The MP is intimated personally: DJEN starts nothing.",
  },
  {
    id: "J3 TJSP class not given: counted as criminal, civil as the alternative",
    court: "tjsp",
    availableOn: "2025-09-26",
    className: null,
    classCode: null,
    text: "Intime-se a parte para, no prazo de 15 (quinze) dias, manifestar-se.",
    expected: {
      rule: "intimacao",
      procedure: "criminal",
      publishedOn: "2025-09-29",
      countingStartsOn: "2025-09-30",
      lastDay: "2025-10-14",
      alternatives: ["2025-10-20"],
    },
    law: "Class unknown: calendar days are the earlier reading: 30/09..14/10 (Tue). If civil: 15 BD -> 20/10 (as A1).",
  },
  {
    id: "J4 TJSP a period in months (CC art. 132 §3)",
    court: "tjsp",
    availableOn: "2025-03-10",
    ...CIVIL,
    text: "Concedo o prazo de 6 (seis) meses para a regularização.",
    expected: {
      rule: "intimacao",
      publishedOn: "2025-03-11",
      countingStartsOn: "2025-03-12",
      lastDay: "2025-09-11",
    },
    law: "Published Tue 11/03; 6 months end on the same day number: Thu 11/09/2025 (CC 132 §3).",
  },
  {
    id: "J5 TJSP a successive period: the first party's end",
    court: "tjsp",
    availableOn: "2025-10-01",
    ...CIVIL,
    text: "Apresentem as partes memoriais, no prazo sucessivo de 10 (dez) dias, primeiro o autor.",
    expected: {
      rule: "intimacao",
      publishedOn: "2025-10-02",
      countingStartsOn: "2025-10-03",
      lastDay: "2025-10-16",
    },
    law: "Wed 01/10 -> published Thu 02/10, starts Fri 03/10; 10 BD: 3,6,7,8,9,10,13,14,15,16 (12/10 a Sunday).",
  },
  {
    id: "J6 TJSP two periods: the earlier is the estimate",
    court: "tjsp",
    availableOn: "2025-10-06",
    ...CIVIL,
    text: "Réplica em 15 dias. Após, especifiquem as partes as provas em 5 dias.",
    expected: {
      rule: "intimacao",
      publishedOn: "2025-10-07",
      countingStartsOn: "2025-10-08",
      lastDay: "2025-10-14",
    },
    law: "Starts Wed 08/10; 5 BD: 8,9,10,13,14; 15 BD would end 28/10.",
  },

  // ---- More courts and years ----------------------------------------------------------------
  {
    id: "K1 TJAM the 2026-2027 recess",
    court: "tjam",
    availableOn: "2026-12-18",
    ...CIVIL,
    text: "Intime-se a parte autora para, em 10 (dez) dias, juntar procuração.",
    expected: {
      rule: "intimacao",
      publishedOn: "2027-01-07",
      countingStartsOn: "2027-01-21",
      lastDay: "2027-02-03",
    },
    law: "Fri 18/12/2026; recess to 06/01 -> published Thu 07/01/2027; suspension to 20/01 -> starts Thu 21/01; 10 BD: 21,22,25,26,27,28,29/01, 1,2,3/02.",
  },
  {
    id: "K2 TJES Carnaval 2027",
    court: "tjes",
    availableOn: "2027-02-05",
    ...CIVIL,
    text: "Manifeste-se a parte ré no prazo de 5 (cinco) dias.",
    courtActs: [
      { date: "2027-02-08", effect: "closed" },
      { date: "2027-02-10", effect: "closed" },
    ],
    expected: {
      rule: "intimacao",
      publishedOn: "2027-02-11",
      countingStartsOn: "2027-02-12",
      lastDay: "2027-02-18",
    },
    law: "Fri 05/02; the TJES closes Carnival Monday, Tuesday and Ash Wednesday (LC ES 234/2002) -> published Thu 11/02, starts Fri 12/02; 5 BD: 12,15,16,17,18/02.",
  },
  {
    id: "K3 TJTO Tiradentes 2026 on the start",
    court: "tjto",
    availableOn: "2026-04-17",
    ...CIVIL,
    text: "Intime-se para cumprimento em 3 (três) dias.",
    expected: {
      rule: "intimacao",
      publishedOn: "2026-04-20",
      countingStartsOn: "2026-04-22",
      lastDay: "2026-04-24",
    },
    law: "Fri 17/04 -> published Mon 20/04; Tiradentes Tue 21/04 -> starts Wed 22/04; 3 BD: 22,23,24.",
  },
  {
    id: "K4 TJPB Finados and the Republic in 2027",
    court: "tjpb",
    availableOn: "2027-10-29",
    ...CIVIL,
    text: "Manifestem-se as partes, no prazo de 10 (dez) dias.",
    expected: {
      rule: "intimacao",
      publishedOn: "2027-11-01",
      countingStartsOn: "2027-11-03",
      lastDay: "2027-11-17",
    },
    law: "Fri 29/10 -> published Mon 01/11 (a working day in a state court); Finados Tue 02/11 -> starts Wed 03/11; 10 BD: 3,4,5,8,9,10,11,12,16,17 (15/11 Monday holiday).",
  },
  {
    id: "K5 TJSE Independence 2027 on the start",
    court: "tjse",
    availableOn: "2027-09-03",
    ...CIVIL,
    text: "Prazo de 5 (cinco) dias para a parte autora.",
    expected: {
      rule: "intimacao",
      publishedOn: "2027-09-06",
      countingStartsOn: "2027-09-08",
      lastDay: "2027-09-14",
    },
    law: "Fri 03/09 -> published Mon 06/09; 07/09 Tuesday holiday -> starts Wed 08/09; 5 BD: 8,9,10,13,14.",
  },
  {
    id: "K6 TJRN Aparecida and Finados 2026",
    court: "tjrn",
    availableOn: "2026-10-09",
    ...CIVIL,
    text: "Intime-se o réu para, no prazo de 15 (quinze) dias, contrarrazoar.",
    expected: {
      rule: "intimacao",
      publishedOn: "2026-10-13",
      countingStartsOn: "2026-10-14",
      lastDay: "2026-11-04",
    },
    law: "Fri 09/10; Mon 12/10 holiday -> published Tue 13/10, starts Wed 14/10; 15 BD: 14,15,16,19,20,21,22,23,26,27,28,29,30/10, 3,4/11 (02/11 Finados).",
  },
];
