import { addDays, type IsoDate, yearOf } from "../calendar-date.js";
import { easterSunday } from "../judicial-calendar.js";
import { courtActs } from "./court-acts.js";
import type { CourtSeat } from "./court-seat.js";
import type { DatedRule, DayRule, LayerYear } from "./day-rule.js";

/*
 * What each court decides for itself: its organization law or regimento (standing rules), and
 * its yearly calendar acts where one was found. Only what a source says is here; a court without
 * an entry for a topic keeps that day working and `considered` says so (an early estimate is
 * safe, a late one is not). Sources were read through the `search` tool; each entry names its act.
 */

/** The days whose closure differs from court to court, and `considered` reports. */
export type Topic =
  | "carnival-monday"
  | "ash-wednesday"
  | "holy-week"
  | "corpus-christi"
  | "servant-day"
  | "justice-day";

type When =
  | { easter: number; name: string }
  | { fixed: string; name: string }
  | { date: IsoDate; name: string };

interface CourtRule {
  courts: readonly string[];
  when: readonly When[];
  /** `working`: the act says the court works normally that day (it only settles the topic). */
  effect: "closed" | "late-opening" | "working";
  source: string;
  url: string | null;
  /** Only in these years (a yearly act); absent: every year (a standing rule). */
  years?: readonly number[];
  /** The act is the court's whole calendar of the year (every day it closes). */
  annualCalendar?: true;
}

const TOPIC_BY_OFFSET: ReadonlyMap<number, Topic> = new Map([
  [-48, "carnival-monday"],
  [-46, "ash-wednesday"],
  [-4, "holy-week"],
  [-3, "holy-week"],
  [60, "corpus-christi"],
]);

export const NOTE_BY_TOPIC: Readonly<Record<Topic, string>> = {
  "carnival-monday": "segunda-feira de Carnaval (ato do tribunal)",
  "ash-wednesday":
    "Quarta-feira de Cinzas (expediente reduzido ou sem expediente por ato do tribunal)",
  "holy-week": "quarta e quinta-feira da Semana Santa (ato do tribunal)",
  "corpus-christi": "Corpus Christi onde não é feriado municipal conhecido (ato do tribunal)",
  "servant-day":
    "Dia do Servidor Público (28/10; Lei 8.112/1990, art. 236, e as leis dos estados), que cada tribunal mantém, transfere ou dispensa por ato anual",
  "justice-day":
    "Dia da Justiça (08/12; Lei 1.408/1951, art. 5º; Decreto-Lei 8.292/1945), que os tribunais dos estados guardam ou transferem por ato (o TJPR o passou a 18/12 em 2026)",
};

/** A day an act names as the Dia do Servidor Público, on 28/10 or moved. */
const SERVANT_DAY = /Dia do (?:Servidor|Funcionário) Público/u;

/** A day an act or law names as the Dia da Justiça, on 08/12 or moved. */
const JUSTICE_DAY = /Dia da Justiça/u;

const CARNIVAL_MON = { easter: -48, name: "Carnaval (segunda-feira)" };
const CARNIVAL_TUE = { easter: -47, name: "Carnaval (terça-feira)" };
const ASH_WEDNESDAY = { easter: -46, name: "Quarta-feira de Cinzas" };
const HOLY_WEDNESDAY = { easter: -4, name: "quarta-feira santa" };
const HOLY_THURSDAY = { easter: -3, name: "quinta-feira santa (Endoenças)" };
const HOLY_SATURDAY = { easter: -1, name: "sábado de aleluia" };
const EASTER = { easter: 0, name: "domingo de Páscoa" };
const CORPUS_CHRISTI = { easter: 60, name: "Corpus Christi" };

function day(date: IsoDate, name: string): When {
  return { date, name };
}

const RULES: readonly CourtRule[] = [
  // ---- Standing rules: organization laws and regimentos -------------------------------------
  {
    courts: ["tjmg"],
    when: [CARNIVAL_MON, CARNIVAL_TUE, ASH_WEDNESDAY],
    effect: "closed",
    // "Não haverá expediente forense ... III - na segunda-feira, na terça-feira e na quarta-feira
    // da semana do carnaval"; Corpus Christi and 15/08 only where they are municipal holidays.
    source: "Res. TJMG 458/2004, art. 1º, III",
    url: "https://www.tjmg.jus.br/portal-tjmg/informes/suspensao-de-expediente-feriado-de-corpus-christi.htm",
  },
  {
    courts: ["tjrj"],
    when: [CARNIVAL_MON, CARNIVAL_TUE, ASH_WEDNESDAY],
    effect: "closed",
    source: "Lei estadual RJ 6.956/2015 (LODJ), art. 66, III",
    url: "https://jorgecarrano.blogspot.com/2018/03/semana-santa-forense.html",
  },
  {
    courts: ["tjrj"],
    when: [HOLY_THURSDAY],
    effect: "closed",
    source: "Lei estadual RJ 6.956/2015 (LODJ), art. 66, IV",
    url: "https://jorgecarrano.blogspot.com/2018/03/semana-santa-forense.html",
  },
  {
    courts: ["tjrj"],
    when: [{ fixed: "12-08", name: "Dia da Justiça" }],
    effect: "closed",
    source: "Lei estadual RJ 6.956/2015 (LODJ), art. 66, I",
    url: "https://jorgecarrano.blogspot.com/2018/03/semana-santa-forense.html",
  },
  {
    courts: ["tjdft"],
    when: [CARNIVAL_MON, CARNIVAL_TUE, ASH_WEDNESDAY],
    effect: "closed",
    source: "Lei 11.697/2008 (LOJDFT), art. 60",
    url: "https://www.tjdft.jus.br/publicacoes/publicacoes-oficiais/portarias-conjuntas-gpr-e-cg/2024/portaria-conjunta-1-de-11-01-2024",
  },
  {
    courts: ["tjdft"],
    when: [HOLY_WEDNESDAY, HOLY_THURSDAY, HOLY_SATURDAY, EASTER],
    effect: "closed",
    source: "Lei 11.697/2008 (LOJDFT), art. 60",
    url: "https://www.tjdft.jus.br/publicacoes/publicacoes-oficiais/portarias-conjuntas-gpr-e-cg/2024/portaria-conjunta-1-de-11-01-2024",
  },
  {
    courts: ["tjdft"],
    // "III - os dias 11 de agosto, 1º e 2 de novembro e 8 de dezembro" (02/11 is national too).
    when: [
      { fixed: "08-11", name: "Dia do Advogado e criação dos cursos jurídicos" },
      { fixed: "11-01", name: "Dia de Todos os Santos" },
      { fixed: "12-08", name: "Dia da Justiça" },
    ],
    effect: "closed",
    source: "Lei 11.697/2008 (LOJDFT), art. 60, §3º, III",
    url: "https://jornaldebrasilia.com.br/brasilia/tjdft-suspende-expediente-nesta-quinta-11/",
  },
  {
    courts: ["tjgo"],
    when: [CARNIVAL_MON, CARNIVAL_TUE],
    effect: "closed",
    source: "Lei estadual GO 21.268/2022 (COJ), art. 91, III; RITJGO, art. 123, III",
    url: "https://juridico.ai/noticias/carnaval-tjgo-2025",
  },
  {
    courts: ["tjgo"],
    when: [{ ...ASH_WEDNESDAY, name: "Quarta-feira de Cinzas: sem expediente até o meio-dia" }],
    effect: "late-opening",
    source: "Lei estadual GO 21.268/2022 (COJ), art. 91, III; RITJGO, art. 123, III",
    url: "https://juridico.ai/noticias/carnaval-tjgo-2025",
  },
  {
    courts: ["tjgo"],
    when: [{ fixed: "07-26", name: "Fundação da Cidade de Goiás; Nossa Senhora Sant'Ana" }],
    effect: "closed",
    // Also a state holiday (Lei GO 364/1949). The TJGO moved it in 2022 (Decreto Judiciário
    // 1.735/2022) and kept it in 2025 when the executive moved it: a move is a configured closure.
    source: "Lei estadual GO 21.268/2022 (COJ), art. 91, V; Lei GO 364/1949",
    url: "https://www.rotajuridica.com.br/tjgo-transfere-para-25-de-julho-feriado-comemorativo-a-fundacao-da-cidade-de-goias/",
  },
  {
    courts: ["tjsc"],
    when: [CARNIVAL_MON, CARNIVAL_TUE],
    effect: "closed",
    source: "Res. GP TJSC 1/1985, art. 1º",
    url: "https://jornalsul.com.br/pjsc-atendera-em-sistema-de-plantao-nas-112-comarcas-e-no-tribunal-de-justica-durante-o-carnaval-2",
  },
  {
    courts: ["tjsc"],
    // The TJSC's expediente starts at 12h every day; since Res. GP 13/2022 Ash Wednesday keeps it.
    when: [ASH_WEDNESDAY],
    effect: "working",
    source: "Res. GP TJSC 13/2022; Res. TJ 7/2006, art. 1º",
    url: "https://jornalsul.com.br/pjsc-atendera-em-sistema-de-plantao-nas-112-comarcas-e-no-tribunal-de-justica-durante-o-carnaval-2",
  },
  {
    courts: ["tjes"],
    when: [CARNIVAL_MON, CARNIVAL_TUE, ASH_WEDNESDAY],
    effect: "closed",
    source: "LC estadual ES 234/2002",
    url: "https://www.tjes.jus.br/poder-judiciario-estadual-funciona-em-regime-de-plantao-no-feriado-de-carnaval",
  },
  {
    courts: ["tjrn"],
    when: [CARNIVAL_MON, CARNIVAL_TUE],
    effect: "closed",
    source: "LC estadual RN 643/2018, art. 97, §3º, II",
    url: "https://atos.tjrn.jus.br/atos/detalhar/8285",
  },
  {
    courts: ["tjap"],
    when: [HOLY_WEDNESDAY, HOLY_THURSDAY],
    effect: "closed",
    source: "RITJAP (Res. 006/2003), art. 88, parágrafo único, II",
    url: "https://old.tjap.jus.br/portal/publicacoes/noticias/13179-feriado-da-semana-santa-justi%C3%A7a-do-amap%C3%A1-funcionar%C3%A1-em-regime-de-plant%C3%A3o.html",
  },
  {
    courts: ["trt7"],
    when: [ASH_WEDNESDAY],
    effect: "closed",
    source: "RITRT7, art. 123, §2º",
    url: "https://www.opovo.com.br/noticias/ceara/2022/02/10/justica-do-trabalho-do-ceara-suspende-atividades-durante-carnaval.html",
  },
  {
    courts: ["trt14"],
    when: [ASH_WEDNESDAY, { fixed: "10-28", name: "Dia do Servidor Público" }],
    effect: "closed",
    source: "RITRT14, art. 290",
    url: "https://3dejulhonoticias.com.br/2020/02/21/justica-do-trabalho-de-rondonia-e-acre-funcionara-em-regime-de-plantao-no-recesso-de-carnaval/",
  },

  // ---- Yearly acts ---------------------------------------------------------------------------
  {
    courts: ["tjsp"],
    years: [2026],
    when: [
      CARNIVAL_MON,
      CARNIVAL_TUE,
      HOLY_THURSDAY,
      day("2026-04-20", "suspensão do expediente"),
      CORPUS_CHRISTI,
      day("2026-06-05", "suspensão do expediente"),
      day("2026-07-10", "suspensão do expediente"),
      day("2026-10-28", "Dia do Servidor Público"),
      day("2026-12-07", "suspensão do expediente"),
      // Art. 1º lists it too: "08 de dezembro – terça-feira – Dia da Justiça".
      day("2026-12-08", "Dia da Justiça"),
    ],
    effect: "closed",
    annualCalendar: true,
    source: "Provimento CSM TJSP 2.813/2025, art. 1º",
    url: "https://portaldori.com.br/2025/11/26/feriados-justica-estadual-sp-e-cartorios-provimento-csm-no-2-813-2025-dispoe-sobre-a-suspensao-do-expediente-forense-no-exercicio-de-2026-e-da-outras-providencias",
  },
  {
    courts: ["tjmsp"],
    years: [2025],
    when: [
      CARNIVAL_MON,
      CARNIVAL_TUE,
      HOLY_THURSDAY,
      day("2025-05-02", "suspensão do expediente"),
      CORPUS_CHRISTI,
      day("2025-06-20", "suspensão do expediente"),
      day("2025-10-28", "Dia do Servidor Público"),
      day("2025-11-21", "suspensão do expediente"),
      { fixed: "12-08", name: "Dia da Justiça" },
    ],
    effect: "closed",
    annualCalendar: true,
    source: "Provimento TJMSP 138/2024-AssPres",
    url: "https://tjmsp.jus.br/suspensao-do-expediente-forense-no-tjmsp-em-2023",
  },
  {
    courts: ["tjmsp"],
    years: [2025],
    when: [{ ...ASH_WEDNESDAY, name: "Quarta-feira de Cinzas: expediente três horas depois" }],
    effect: "late-opening",
    source: "Provimento TJMSP 138/2024-AssPres",
    url: "https://tjmsp.jus.br/suspensao-do-expediente-forense-no-tjmsp-em-2023",
  },
  {
    courts: ["tjdft"],
    years: [2025],
    when: [
      day("2025-05-02", "ponto facultativo"),
      CORPUS_CHRISTI,
      day("2025-06-20", "ponto facultativo"),
      day("2025-10-31", "Dia do Servidor Público (transferido)"),
      day("2025-11-21", "ponto facultativo"),
      { fixed: "12-08", name: "Imaculada Conceição" },
    ],
    effect: "closed",
    annualCalendar: true,
    source: "Portaria Conjunta TJDFT 1/2025",
    url: "https://agencia5.jornalfloripa.com.br/agencia5jf/160305",
  },
  {
    courts: ["tre-sp"],
    years: [2025],
    when: [CORPUS_CHRISTI, day("2025-10-27", "Dia do Servidor Público (antecipado)")],
    effect: "closed",
    annualCalendar: true,
    source: "Portaria TRE-SP 319/2024, art. 1º",
    url: "https://tre-sp.jus.br/legislacao/compilada/portarias-tre-sp/2024/portaria-no-319-de-14-de-novembro-de-2024",
  },
  {
    courts: ["tre-sp"],
    years: [2026],
    when: [CORPUS_CHRISTI, day("2026-10-28", "Dia do Servidor Público")],
    effect: "closed",
    annualCalendar: true,
    source: "Portaria TRE-SP 261/2025, art. 1º",
    url: "https://www.tre-sp.jus.br/legislacao/compilada/portarias-tre-sp/2025/portaria-no-261-de-26-de-novembro-de-2025",
  },
  {
    courts: ["tre-sp"],
    years: [2026],
    // Portaria 261/2025 art. 2 set 14h-19h; the Presidency then suspended the day and its deadlines.
    when: [{ ...ASH_WEDNESDAY, name: "Quarta-feira de Cinzas: expediente e prazos suspensos" }],
    effect: "closed",
    source:
      "Decisão da Presidência do TRE-SP de fevereiro de 2026 (Portaria TRE-SP 261/2025, art. 2º)",
    url: "https://sintrajud.org.br/conteudo/15482/tre-sp-acata-pedido-do-sintrajud-e-suspende-expediente-e-prazos-da-quarta-feira-de-cinzas",
  },
  {
    courts: ["stj"],
    years: [2025],
    when: [day("2025-11-21", "ponto facultativo")],
    effect: "closed",
    source: "Portaria STJ/GP 790/2024",
    url: "https://antigo.abras.com.br/clipping/juridico/120053/feriado-e-ponto-facultativo-suspendem-expediente-no-stj-na-quinta-e-na-sexta-20-e-21",
  },
  {
    courts: ["stj"],
    years: [2026],
    when: [CORPUS_CHRISTI],
    effect: "closed",
    annualCalendar: true,
    source: "Portaria STJ/GDG 1.010/2025",
    url: "https://www.smpladvocacia.com.br/noticia/stj-divulga-calendario-de-feriados-pontos-facultativos-e-recesso-judicial-de-2026-",
  },
  {
    courts: ["tse"],
    years: [2025],
    when: [day("2025-10-31", "Dia do Servidor Público (transferido)")],
    effect: "closed",
    source: "Portaria TSE 916/2024",
    url: "https://www.tse.jus.br/comunicacao/noticias/2025/Outubro/feriado-do-dia-do-servidor-publico-no-tse-sera-na-sexta-feira-31",
  },
  {
    courts: ["trf4"],
    years: [2025],
    when: [{ ...ASH_WEDNESDAY, name: "Quarta-feira de Cinzas: expediente das 13h às 19h" }],
    effect: "late-opening",
    source: "Portaria TRF4 100/2025, art. 2º",
    url: "https://www.trf4.jus.br/trf4/diario/visualiza_documento_adm.php?id_materia=3029258&orgao=1&reload=false",
  },
  {
    courts: ["trt24"],
    years: [2025],
    when: [CORPUS_CHRISTI],
    effect: "closed",
    annualCalendar: true,
    source: "Portaria TRT/GP/SGJ 83/2024 (TRT24)",
    url: "https://www.rcn67.com.br/tres-lagoas/jpnews/justica-do-trabalho-em-tres-lagoas-divulga-calendario-de-recesso-e-feriados-em-2025/",
  },
  {
    courts: ["tjam"],
    years: [2025],
    when: [
      day("2025-05-02", "ponto facultativo"),
      { fixed: "12-08", name: "Dia da Justiça; Nossa Senhora da Conceição" },
    ],
    effect: "closed",
    annualCalendar: true,
    source: "Portaria TJAM 3.835/2024 (Calendário Judicial 2025)",
    url: "https://ampost.com.br/amazonas/tjam-atende-em-regime-de-plantao-no-feriado-e-ponto-facultativo/",
  },
];

function dateOf(when: When, year: number): IsoDate | null {
  if ("easter" in when) return addDays(easterSunday(year), when.easter);
  if ("fixed" in when) return `${year}-${when.fixed}`;
  return yearOf(when.date) === year ? when.date : null;
}

function topicOf(date: IsoDate, year: number): Topic | null {
  const easter = easterSunday(year);
  for (const [offset, topic] of TOPIC_BY_OFFSET) {
    if (addDays(easter, offset) === date) return topic;
  }
  return null;
}

/** The topics a day of an act settles: by its date (Easter's days) or its name. */
function topicsOf(date: IsoDate, name: string, year: number): Topic[] {
  const topics: Topic[] = [];
  const topic = topicOf(date, year);
  if (topic !== null) topics.push(topic);
  if (SERVANT_DAY.test(name)) topics.push("servant-day");
  if (JUSTICE_DAY.test(name)) topics.push("justice-day");
  return topics;
}

export interface CourtRulesYear extends LayerYear {
  settled: ReadonlySet<Topic>;
  /** The court's whole calendar of the year is held (an act fixing every day it closes). */
  annualCalendar: boolean;
  /** The court's acts of the year that suspend periods, by month ("01", "07"...). */
  suspendedMonths: ReadonlySet<string>;
}

/** The court's own rules and acts for a year (these and court-acts.json), and what they settle. */
export function courtRules(seat: CourtSeat, year: number): CourtRulesYear {
  const days: DatedRule[] = [];
  const settled = new Set<Topic>();
  const sources: string[] = [];
  let annualCalendar = false;
  for (const entry of RULES) {
    if (!entry.courts.includes(seat.court)) continue;
    if (entry.years !== undefined && !entry.years.includes(year)) continue;
    if (entry.annualCalendar) annualCalendar = true;
    for (const when of entry.when) {
      const date = dateOf(when, year);
      if (date === null) continue;
      for (const topic of topicsOf(date, when.name, year)) settled.add(topic);
      if (entry.effect === "working") continue;
      const rule: DayRule = {
        effect: entry.effect,
        name: when.name,
        source: entry.source,
        url: entry.url,
        scope: "court",
      };
      days.push({ date, rule });
    }
    if (!sources.includes(entry.source)) sources.push(entry.source);
  }
  const acts = courtActs(seat.court, year);
  const suspendedMonths = new Set<string>();
  for (const { date, rule } of acts.days) {
    for (const topic of topicsOf(date, rule.name, year)) settled.add(topic);
    if (rule.effect === "suspended") suspendedMonths.add(date.slice(5, 7));
    days.push({ date, rule });
  }
  for (const act of acts.acts) if (!sources.includes(act)) sources.push(act);
  return {
    days,
    considered:
      sources.length === 0
        ? []
        : [{ scope: "court", text: `atos do tribunal: ${sources.join("; ")}` }],
    notConsidered: [],
    settled,
    annualCalendar: annualCalendar || acts.annualCalendar,
    suspendedMonths,
  };
}
