import Holidays from "date-holidays";
import { addDays, type IsoDate, isoDate, weekday } from "../calendar-date.js";
import type { CourtSeat, Uf } from "./court-seat.js";
import { citations, type DatedRule, type DayRule, type LayerYear } from "./day-rule.js";

/*
 * The states' holidays, kept by every court sitting in the state (Lei 1.408/1951 art. 5: no
 * expediente "nos dias que a Lei estadual designar"). The dates come from date-holidays 3.37.0
 * (npm, ISC/CC-BY-3.0) where its rule was checked against the state's law or the courts' own
 * calendars for 2025-2027; each kept rule carries that source. Where the library is wrong the rule
 * is dropped with the reason, and what it lacks is added here with its law.
 *
 * A holiday a state or court moves by decree from year to year (Acre's Lei 2.126/2009 celebrates
 * its holidays on Fridays, but decrees have picked Mondays and Tuesdays too; Rondônia's Dia do
 * Evangélico went to a Friday in 2019) is closed here only when it falls on a Friday, where no move
 * happens; in other years it stays a working day and `considered` says so.
 */

export const DATE_HOLIDAYS = "date-holidays 3.37.0";

type Verdict =
  | { keep: true; name: string; source: string; url: string | null }
  | { keep: false; why: string; unverified?: true };

/** date-holidays' rule key (`getHolidays()[i].rule`) for each state, with what was found of it. */
export const LIBRARY_RULES: Readonly<Record<Uf, Readonly<Record<string, Verdict>>>> = {
  ac: {
    "01-12": {
      keep: false,
      why: "o Dia do Evangélico no Acre é 23/01 (Lei AC 1.538/2004), transferido para sexta-feira (Lei AC 2.126/2009)",
    },
    "03-08": {
      keep: false,
      why: "transferido para sexta-feira (Lei AC 2.126/2009): ver additions",
    },
    "06-15": {
      keep: true,
      name: "Aniversário do Estado do Acre",
      source: "Lei AC 14/1964 (não transferível: Lei AC 2.126/2009)",
      url: "https://oaltoacre.com/justica-acreana-funcionara-apenas-em-regime-de-plantao-no-feriado-em-alusao-ao-aniversario-do-estado-do-acre/",
    },
    "09-05": {
      keep: false,
      why: "transferido para sexta-feira (Lei AC 2.126/2009): ver additions",
    },
  },
  al: {
    "06-24": {
      keep: true,
      name: "São João",
      source: "feriado estadual de Alagoas (Decretos AL 100.540/2024 e 106.093/2025)",
      url: "https://7segundos.com.br/maceio/noticias/2025/12/30/291331-governo-de-alagoas-publica-decreto-com-feriados-e-pontos-facultativos-para-2026",
    },
    "06-29": {
      keep: true,
      name: "São Pedro",
      source: "feriado estadual de Alagoas (Decretos AL 100.540/2024 e 106.093/2025)",
      url: "https://7segundos.com.br/maceio/noticias/2025/12/30/291331-governo-de-alagoas-publica-decreto-com-feriados-e-pontos-facultativos-para-2026",
    },
    "09-16": {
      keep: true,
      name: "Emancipação Política de Alagoas",
      source: "feriado estadual de Alagoas (Decretos AL 100.540/2024 e 106.093/2025)",
      url: "https://7segundos.com.br/maceio/noticias/2025/12/30/291331-governo-de-alagoas-publica-decreto-com-feriados-e-pontos-facultativos-para-2026",
    },
  },
  am: {
    "09-05": {
      keep: true,
      name: "Elevação do Amazonas à categoria de Província",
      source: "feriado estadual do Amazonas; Lei Orgânica de Manaus, art. 437, I",
      url: "https://www.manaus.am.gov.br/prefeitura/feriados-municipais/",
    },
  },
  ap: {
    "03-19": {
      keep: true,
      name: "Dia de São José, padroeiro do Amapá",
      source: "Lei AP 667/2002",
      url: "https://www.tre-ap.jus.br/legislacao/compilada/portaria-presidencia/2019/portaria-presidencia-no-285-de-06-de-dezembro-de-2019",
    },
    "09-13": {
      keep: true,
      name: "Criação do Território Federal do Amapá",
      source: "Decreto-Lei 5.812/1943 (feriado estadual, Portaria TRE-AP 285/2019)",
      url: "https://www.tre-ap.jus.br/legislacao/compilada/portaria-presidencia/2019/portaria-presidencia-no-285-de-06-de-dezembro-de-2019",
    },
  },
  ba: {
    "07-02": {
      keep: true,
      name: "Independência da Bahia",
      source: "feriado estadual da Bahia (Decreto Judiciário TJBA 1.050/2025)",
      url: "https://www.tjba.jus.br/portal/decreto-judiciario-estabelece-o-expediente-forense-e-administrativo-do-tjba-para-2026",
    },
  },
  ce: {
    "03-25": {
      keep: true,
      name: "Data Magna do Ceará",
      source: "lei estadual do Ceará de 06/12/2011 (Data Magna)",
      url: "https://www.opovo.com.br/noticias/ceara/2023/03/13/feriado-em-fim-de-semana-ceara-tera-dois-em-marco.html",
    },
  },
  df: {
    "11-30": {
      keep: false,
      why: "Dia do Evangélico do DF (Lei distrital 963/1995) não é guardado pelos tribunais: Portaria Conjunta TRE-DF 29/2022 e Portarias Conjuntas TJDFT 1/2024 e 1/2025 não o incluem",
    },
  },
  es: {
    "easter 8": {
      keep: true,
      name: "Nossa Senhora da Penha",
      source: "Lei ES 11.010/2019",
      url: "https://www.tre-es.jus.br/legislacao/compilada/ato/2022/ato-no-427-de-19-de-outubro-de-2022",
    },
  },
  go: {
    "07-26": {
      keep: true,
      name: "Nossa Senhora Sant'Ana, padroeira de Goiás; fundação da Cidade de Goiás",
      source: "Lei GO 364/1949; Lei GO 21.268/2022 (COJ), art. 91, V",
      url: "https://www.tjgo.jus.br/index.php/institucional/centro-de-comunicacao-social/20-destaque/22173-judiciario-goiano-funciona-em-regime-de-plantao-na-segunda-feira-26-feriado-estadual-em-celebracao-a-padroeira-do-estado",
    },
    "10-24": {
      keep: false,
      why: "24/10 é o aniversário de Goiânia, data municipal, não feriado estadual",
    },
  },
  ma: {
    "07-28": {
      keep: true,
      name: "Adesão do Maranhão à Independência do Brasil",
      source:
        "feriado estadual do Maranhão (Resolução TJMA de 2023, art. 1º, VII; Resolução-GP TJMA 131/2025)",
      url: "https://www.tjma.jus.br/atos/tj/geral/503194/132/pnao",
    },
  },
  mg: {},
  ms: {
    "10-11": {
      keep: true,
      name: "Criação do Estado de Mato Grosso do Sul",
      source: "feriado estadual de MS (Portaria TJMS 4/2023)",
      url: "https://oestadoonline.com.br/cotidiano/tjms-divulga-lista-de-feriados-e-pontos-facultativos-de-2023/",
    },
  },
  mt: {},
  pa: {
    "08-15": {
      keep: true,
      name: "Adesão do Pará à Independência do Brasil",
      source: "Lei PA 5.999/1996",
      url: "https://portalrdn.com.br/2023/08/10/prefeitura-de-santarem-faculta-o-ponto-na-vespera-do-feriado-da-adesao-do-para-a-independencia/",
    },
  },
  pb: {
    "07-26": {
      keep: false,
      why: "feriado de 26/07 revogado pela Lei PB 10.601/2015, art. 2º (que revogou o art. 2º da Lei PB 3.489/1967)",
    },
    "08-05": {
      keep: true,
      name: "Fundação do Estado da Paraíba (Data Magna)",
      source: "Lei PB 10.601/2015, art. 1º",
      url: "https://www.pbagora.com.br/noticia/paraiba/e-lei-feriado-do-dia-05-de-agosto-esta-mantido-em-toda-a-paraiba/amp",
    },
  },
  pe: {
    "1st sunday in March": {
      keep: false,
      why: "a Data Magna de Pernambuco é 6 de março (Lei PE 16.059/2017), não o primeiro domingo de março",
    },
  },
  pi: {
    "10-19": {
      keep: true,
      name: "Dia do Piauí",
      source: "feriado estadual do Piauí (Provimento TJPI 102/2024, art. 1º, VII)",
      url: "https://teste.tjpi.jus.br/portaltjpi/tjpi/noticias-tjpi/tj-pi-divulga-calendario-de-feriados-no-ano-de-2025/?sessao=11177",
    },
  },
  pr: {
    "12-19": {
      keep: true,
      name: "Emancipação Política do Paraná",
      source: "Lei PR 4.658/1962",
      url: "https://curita.webnode.com.br/curitiba/feriados-municipais",
    },
  },
  rj: {
    "04-23": {
      keep: true,
      name: "Dia de São Jorge",
      source: "Lei RJ 5.198/2008",
      url: null,
    },
  },
  rn: {
    "10-03": {
      keep: true,
      name: "Mártires de Cunhaú e Uruaçu",
      source: "feriado estadual do RN (Portaria Conjunta TJRN 1/2025)",
      url: "https://atos.tjrn.jus.br/atos/detalhar/8285",
    },
  },
  ro: {
    "01-04": {
      keep: true,
      name: "Criação do Estado de Rondônia",
      source: "feriado estadual de Rondônia (Decreto RO 24.649/2020)",
      url: "https://www.ocombatente.com/2020/01/05/conheca-os-feriados-e-pontos-facultativos-de-2020-nos-municipios-de-rondonia/",
    },
    "06-18": { keep: false, why: "transferido por ato em alguns anos (TJRO, 2019): ver additions" },
  },
  rr: {
    "10-05": {
      keep: true,
      name: "Criação do Estado de Roraima (Data Magna)",
      source: "feriado estadual de Roraima (Portaria TRE-RR 432/2019)",
      url: "https://www.tre-rr.jus.br/legislacao/portarias-do-tre-rr-1/2019/portaria-no-432-2019",
    },
  },
  rs: {
    "09-20": {
      keep: true,
      name: "Revolução Farroupilha",
      source: "feriado estadual do RS (Ato TJRS 10/2022)",
      url: "https://www.acheconcursos.com.br/governo/tribunal-de-justica-rs-divulga-feriados-oficiais-de-2023-56509",
    },
  },
  sc: {
    "08-11 if monday,tuesday,wednesday,thursday,friday,saturday then next sunday": {
      keep: true,
      name: "Data Magna de Santa Catarina (no domingo seguinte)",
      source: "lei estadual de SC (comemorada no domingo)",
      url: null,
    },
    "11-25 if monday,tuesday,wednesday,thursday,friday,saturday then next sunday": {
      keep: true,
      name: "Santa Catarina de Alexandria (no domingo seguinte)",
      source: "lei estadual de SC (comemorada no domingo)",
      url: null,
    },
  },
  se: {
    "07-08": {
      keep: true,
      name: "Emancipação Política de Sergipe",
      source: "feriado estadual de Sergipe",
      url: "https://www.noticiadamanha.com.br/2025/07/06/noticias/alese-declara-ponto-facultativo-na-proxima-segunda-feira/",
    },
  },
  sp: {
    "07-09": {
      keep: true,
      name: "Revolução Constitucionalista (Data Magna de São Paulo)",
      source: "Lei SP 9.497/1997, art. 1º",
      url: "https://www.tre-sp.jus.br/legislacao/compilada/portarias-tre-sp/2025/portaria-no-261-de-26-de-novembro-de-2025",
    },
  },
  to: {
    "03-18": {
      keep: false,
      why: "a lei estadual da Autonomia do Tocantins não foi localizada aqui: o dia fica útil (estimativa mais cedo)",
      unverified: true,
    },
    "09-08": {
      keep: true,
      name: "Nossa Senhora da Natividade, padroeira do Tocantins",
      source: "feriado estadual do Tocantins (Portaria TJTO 3.383/2024)",
      url: "https://www.jornaldotocantins.com.br/cidades/descanso-garantido-confira-os-feriados-que-ainda-restam-em-2025-1.3309817",
    },
    "10-05": {
      keep: true,
      name: "Criação do Estado do Tocantins",
      source: "feriado estadual do Tocantins (Portaria TJTO 3.383/2024)",
      url: "https://www.jornaldotocantins.com.br/cidades/descanso-garantido-confira-os-feriados-que-ainda-restam-em-2025-1.3309817",
    },
  },
};

interface Addition {
  month: number;
  day: number;
  name: string;
  source: string;
  url: string | null;
  since?: number;
  /** How the law moves it off its date; absent: it stays. */
  move?: "fridays-only" | "tuesday-to-monday-thursday-to-friday";
}

const ACRE_MOVES =
  "Lei AC 2.126/2009 (transfere para sexta-feira; decretos já escolheram outros dias)";

/** What date-holidays lacks, with its law. */
const ADDITIONS: Readonly<Partial<Record<Uf, readonly Addition[]>>> = {
  ac: [
    {
      month: 1,
      day: 20,
      name: "Dia do Católico",
      source: `Lei AC 3.137/2016; ${ACRE_MOVES}`,
      url: "https://www.manciolima.ac.gov.br/feriados",
      move: "fridays-only",
    },
    {
      month: 1,
      day: 23,
      name: "Dia do Evangélico",
      source: `Lei AC 1.538/2004; ${ACRE_MOVES}`,
      url: "https://www.manciolima.ac.gov.br/feriados",
      move: "fridays-only",
    },
    {
      month: 3,
      day: 8,
      name: "Dia Internacional da Mulher",
      source: `Lei AC 1.411/2001; ${ACRE_MOVES}`,
      url: "https://www.acrelandia.ac.gov.br/feriados",
      move: "fridays-only",
    },
    {
      month: 9,
      day: 5,
      name: "Dia da Amazônia",
      source: `Lei AC 243/1968; ${ACRE_MOVES}`,
      url: "https://www.acrelandia.ac.gov.br/feriados",
      move: "fridays-only",
    },
    {
      month: 11,
      day: 17,
      name: "Tratado de Petrópolis",
      source: `Lei AC 57/1965; ${ACRE_MOVES}`,
      url: "https://tjac.jus.br/2022/10/feriado-alusivo-ao-tratado-de-petropolis-e-transferido-para-o-dia-14-de-novembro",
      move: "fridays-only",
    },
  ],
  al: [
    {
      month: 11,
      day: 30,
      name: "Dia Estadual do Evangélico",
      source: "Lei AL 7.530/2013 (terça antecipa para segunda; quinta adia para sexta)",
      url: "https://oalagoano.com.br/noticias/2023/11/22/3989-governo-de-alagoas-transfere-feriado-do-dia-do-evangalico-para-1a-de-dezembro",
      move: "tuesday-to-monday-thursday-to-friday",
    },
  ],
  ap: [
    {
      month: 5,
      day: 15,
      name: "Dia de Cabralzinho",
      source: "Lei AP 2.213/2017",
      url: "https://www.tre-ap.jus.br/legislacao/compilada/portaria-presidencia/2019/portaria-presidencia-no-285-de-06-de-dezembro-de-2019",
    },
  ],
  pe: [
    {
      month: 3,
      day: 6,
      name: "Data Magna de Pernambuco (Revolução Pernambucana de 1817)",
      source: "Lei PE 16.059/2017, art. 1º",
      url: "https://portal.tjpe.jus.br/web/revista-conecta-tjpe/noticias/edicoes-anteriores/-/asset_publisher/RW6tvE0HuWTT/content/tjpe-divulga-feriados-da-justica-estadual-em-2020?p_r_p_assetEntryId=2417405",
    },
  ],
  ro: [
    {
      month: 6,
      day: 18,
      name: "Dia do Evangélico",
      source: "Lei RO 1.026/2001 (o TJRO já o transferiu para sexta-feira, 2019)",
      url: "https://amp.rondoniagora.com/geral/lei-do-evangelico-tem-apenas-dois-artigos-confira-tambem-a-adin-do-cnc",
      move: "fridays-only",
    },
  ],
  to: [
    {
      month: 8,
      day: 15,
      name: "Dia do Senhor do Bonfim",
      source: "Lei TO 4.509/2024",
      url: "https://portalveredao.com.br/tocantins-cria-feriado-estadual-em-15-de-agosto-para-celebrar-o-senhor-do-bonfim",
      since: 2025,
    },
  ],
};

const nationalRules = new Set(new Holidays("BR").getHolidays(2026).map((h) => h.rule));

/** The day an addition is kept on in `year`, or null where a decree decides (not known here). */
function additionDate(addition: Addition, year: number): IsoDate | null {
  const date = isoDate(year, addition.month, addition.day);
  const day = weekday(date);
  if (addition.move === "fridays-only") return day === 5 || day === 0 || day === 6 ? date : null;
  if (addition.move === "tuesday-to-monday-thursday-to-friday") {
    if (day === 2) return addDays(date, -1);
    if (day === 4) return addDays(date, 1);
  }
  return date;
}

function stateRule(name: string, source: string, url: string | null): DayRule {
  return { effect: "holiday", name, source, url, scope: "state" };
}

const cache = new Map<string, LayerYear>();

/** The holidays of the seat's state in `year`. */
export function stateDays(seat: CourtSeat, year: number): LayerYear {
  if (seat.uf === null || seat.branch === "superior") {
    return {
      days: [],
      considered: [],
      notConsidered:
        seat.branch === "superior" || seat.branch === null
          ? []
          : ["feriados estaduais (o estado da sede não é conhecido)"],
    };
  }
  const key = `${seat.uf}|${year}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const uf = seat.uf;
  const verdicts = LIBRARY_RULES[uf];
  const days: DatedRule[] = [];
  const unchecked: string[] = [];
  const moved: string[] = [];
  const library = new Holidays("BR", uf.toUpperCase()).getHolidays(year);
  for (const holiday of library) {
    if (holiday.type !== "public" || nationalRules.has(holiday.rule)) continue;
    const verdict = verdicts[holiday.rule];
    if (verdict === undefined) {
      unchecked.push(
        `${holiday.name} (${holiday.date.slice(0, 10)}: regra de ${DATE_HOLIDAYS} sem fonte conferida)`,
      );
      continue;
    }
    if (!verdict.keep) {
      if (verdict.unverified)
        unchecked.push(`${holiday.name} (${holiday.date.slice(0, 10)}: ${verdict.why})`);
      continue;
    }
    days.push({
      date: holiday.date.slice(0, 10),
      rule: stateRule(verdict.name, verdict.source, verdict.url),
    });
  }
  for (const addition of ADDITIONS[uf] ?? []) {
    if (addition.since !== undefined && year < addition.since) continue;
    const date = additionDate(addition, year);
    if (date === null) {
      moved.push(
        `${addition.name} (${addition.day}/${addition.month}, transferido por decreto a cada ano)`,
      );
      continue;
    }
    days.push({ date, rule: stateRule(addition.name, addition.source, addition.url) });
  }
  const sources = citations(days.map((d) => d.rule.source));
  const layer: LayerYear = {
    days,
    considered: [
      {
        scope: "state",
        text: `feriados estaduais de ${uf.toUpperCase()} (${sources === "" ? "nenhum além dos nacionais" : sources}; datas de ${DATE_HOLIDAYS}, conferidas)`,
      },
    ],
    notConsidered: [
      ...unchecked.map((u) => `feriado estadual ${u}`),
      ...moved.map((m) => `feriado estadual ${m}`),
    ],
  };
  cache.set(key, layer);
  return layer;
}
