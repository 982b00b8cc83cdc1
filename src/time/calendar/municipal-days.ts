import { addDays, type IsoDate } from "../calendar-date.js";
import { easterSunday } from "../judicial-calendar.js";
import type { CourtSeat } from "./court-seat.js";
import { citations, type DatedRule, type DayRule, type LayerYear } from "./day-rule.js";

/*
 * The municipal holidays of the 27 capitals (IBGE codes), each with the municipal law that makes
 * it one (Lei 9.093/1995 art. 2: up to four religious days, Good Friday among them, by municipal
 * law), or, where the law's number was not found, the official act that lists it as a municipal
 * holiday. A day whose basis was not found is not here: it stays a working day and `considered`
 * names it. Good Friday is already a holiday everywhere (national-days.ts). Brasília's days are the
 * Federal District's (state-days.ts).
 */

/** The municipal law (or act) behind a day, and where it was read. */
interface Law {
  source: string;
  url: string | null;
}

/** "MM-DD", or days after Easter Sunday (60: Corpus Christi); the day's name; its law. */
type MunicipalDay = readonly [when: string | number, name: string, law: Law];

interface Capital {
  name: string;
  days: readonly MunicipalDay[];
  /** Days said to be municipal holidays whose legal basis was not found here: kept working. */
  notFound?: readonly string[];
}

const SAO_PAULO: Law = {
  source: "Lei municipal SP 14.485/2007, art. 10",
  url: "https://ceiveleiros.blogspot.com/2024/01",
};
const RIO_DE_JANEIRO: Law = {
  source: "Lei municipal RJ 1.271/1988",
  url: "https://cidadedeniteroi.com/?p=377616",
};
const BELO_HORIZONTE: Law = {
  source:
    "feriado municipal de Belo Horizonte (calendário oficial da Prefeitura, Edital SMGO de 21/11/2002); Res. TJMG 458/2004",
  url: "https://www.contabeis.com.br/legislacao/18483/edital-s-n-smgo-mg-8-2002",
};
const BELO_HORIZONTE_2: Law = {
  source:
    "feriado municipal de Belo Horizonte (calendário oficial da Prefeitura, Edital SMGO de 21/11/2002); Res. TJMG 458/2004",
  url: "https://www.tjmg.jus.br/portal-tjmg/informes/suspensao-de-expediente-feriado-de-15-de-agosto.htm",
};
const BELO_HORIZONTE_3: Law = {
  source:
    "feriado municipal de Belo Horizonte (calendário oficial da Prefeitura, Edital SMGO de 21/11/2002)",
  url: "https://www.contabeis.com.br/legislacao/18483/edital-s-n-smgo-mg-8-2002",
};
const PORTO_ALEGRE: Law = {
  source: "Lei municipal POA 4.453/1978",
  url: "https://ptdocz.com/doc/1902883/trt-da-4%C2%AA-regi%C3%A3o",
};
const SALVADOR: Law = {
  source:
    "feriado municipal de Salvador (Decreto Judiciário TJBA 9/2026, feriados municipais das comarcas)",
  url: "https://www.bahianoticias.com.br/amp/justica/noticia/73814-tj-ba-oficializa-calendario-de-feriados-municipais-para-2026",
};
const RECIFE: Law = {
  source: "lei municipal do Recife de 1996 (número não localizado aqui)",
  url: "https://g1.globo.com/pe/pernambuco/governo-de-pernambuco-transfere-ponto-facultativo-de-corpus-christi-e-servidores-estaduais-vao-ter-feriadao-de-quatro-dias-no-sao-joao.ghtml",
};
const RECIFE_2: Law = {
  source: "Lei municipal Recife 9.777/1967",
  url: "http://www.normasbrasil.com.br/norma/aviso-2021-recife_417140.html",
};
const RECIFE_3: Law = {
  source: "Lei municipal Recife 9.777/1967",
  url: "https://www.folhape.com.br/noticias/passado-o-sao-joao-saiba-quais-feriados-prolongados-os-recifenses/277340/",
};
const FORTALEZA: Law = {
  source: "Lei municipal Fortaleza 8.796/2003",
  url: "https://diariodonordeste.verdesmares.com.br/opiniao/colunistas/germano-ribeiro/corpus-christi-feriado-ou-ponto-facultativo-1.3514595",
};
const CURITIBA: Law = {
  source: "Lei municipal Curitiba 3.015/1967",
  url: "https://curita.webnode.com.br/curitiba/feriados-municipais",
};
const MANAUS: Law = {
  source: "Lei municipal Manaus 970/2006",
  url: "https://www.manaus.am.gov.br/prefeitura/feriados-municipais/",
};
const MANAUS_2: Law = {
  source: "Lei Orgânica de Manaus, art. 437, II",
  url: "https://www.manaus.am.gov.br/prefeitura/feriados-municipais/",
};
const MANAUS_3: Law = {
  source: "Lei municipal Manaus 496/1999",
  url: "https://ampost.com.br/2020/08/feriados-e-pontos-facultativos-serao-suspensos-em-manaus-para-retomada-da-economia/",
};
const JOAO_PESSOA: Law = {
  source: "Lei municipal João Pessoa 8.805/1999",
  url: "https://sonylacerda.com.br/?p=14984",
};
const JOAO_PESSOA_2: Law = {
  source: "Lei municipal João Pessoa 796/1967; Lei 8.805/1999",
  url: "https://sonylacerda.com.br/?p=14984",
};
const JOAO_PESSOA_3: Law = {
  source: "Lei municipal João Pessoa 8.805/1999",
  url: "https://www.pbagora.com.br/noticia/paraiba/prefeitura-confirma-feriado-religioso-na-4a/amp",
};
const TERESINA: Law = {
  source: "Lei municipal Teresina 2.847/1999",
  url: "https://www.portaldomeio.com.br/noticias/teresina-tera-feriado-municipal-nesta-segunda-8-em-homenagem-a-nossa-senhora-da-conceicao-9505",
};
const CUIABA: Law = {
  source: "Leis municipais Cuiabá 1.077/1968 e 3.991/2000 (Decreto 9.996/2023)",
  url: "https://sportsinopnoticias.com.br/noticia/cd26facc-2016-11ee-8930-a2d8499b22a3/79",
};
const CUIABA_2: Law = {
  source: "Leis municipais Cuiabá 1.077/1968 e 3.991/2000 (Decreto 7.733/2019)",
  url: "http://bastidoresdopoder.com.br/atos-de-nomeacao-e-convocacao-dos-aprovados-no-concurso-publico-da-assistencia-social-sao-publicados/",
};
const CUIABA_3: Law = {
  source: "Lei municipal Cuiabá 5.576/2012",
  url: "http://www.camaracuiaba.mt.gov.br/noticia.php?id=3305",
};
const CAMPO_GRANDE: Law = {
  source: "Lei municipal Campo Grande 1.019/1967",
  url: "https://www.sindivarejocgr.com.br/2020/06/09/os-feriados-municipais-de-campo-grande/",
};
const CAMPO_GRANDE_2: Law = {
  source: "Lei municipal Campo Grande 3.901/2001",
  url: "https://www.sindivarejocgr.com.br/2020/06/09/os-feriados-municipais-de-campo-grande/",
};
const FLORIANOPOLIS: Law = {
  source: "Lei municipal Florianópolis 3.247/1989",
  url: "https://www.sindilojas-sc.org.br/calendario-2022-feriados-pontos-facultativos-e-datas-festivas/",
};
const VITORIA: Law = {
  source: "Lei municipal Vitória 1.732/1967",
  url: "https://legisweb.com.br/legislacao/?id=411754",
};
const MACEIO: Law = {
  source: "feriado municipal de Maceió (Decretos municipais 9.980/2025 e 10.234/2026)",
  url: "https://tribunahoje.com/noticias/politica/2025/07/24/162336-maceio-pode-ter-mais-um-feriado-em-2026",
};
const MACEIO_2: Law = {
  source: "lei municipal de Maceió promulgada em 09/11/2018 (Decreto 10.234/2026)",
  url: "https://7segundos.com.br/maceio/noticias/2021/06/23/180941-prefeitura-de-maceio-antecipa-feriado-de-floriano-peixoto-para-segunda-feira-28",
};
const MACEIO_3: Law = {
  source: "feriado municipal de Maceió (Decretos municipais 9.980/2025 e 10.234/2026)",
  url: "https://maceiodiaadia.com.br/2024/08/27/feriado-em-maceio-o-que-abre-e-o-que-fecha-no-dia-da-padroeira-da-capital",
};
const PORTO_VELHO: Law = {
  source: "Lei municipal Porto Velho 190/1980",
  url: "https://gentedeopiniao.com.br/municipios/prefeitura-de-porto-velho-divulga-os-feriados-e-pontos-facultativos-de-2020-em-porto-velho",
};
const BOA_VISTA: Law = {
  source: "feriado municipal de Boa Vista (Portaria PMBV 1/2010; Lei Orgânica de 11/07/1992)",
  url: "https://www.normasbrasil.com.br/norma/portaria-1-2010-boa-vista_172870.html",
};
const BOA_VISTA_2: Law = {
  source: "feriado municipal de Boa Vista (Portaria PMBV 1/2010; Portaria TJRR 2.011/2023)",
  url: "https://www.tjrr.jus.br/index.php/feriados-locais-2024/21-informacoes/imprensa",
};
const PALMAS: Law = {
  source: "feriado municipal de Palmas (Portaria TJTO 3.383/2024)",
  url: "http://esmat.tjto.jus.br/portal/index.php/noticias/116-institucional/8025-judiciario-do-tocantins-tem-16-feriados-ao-longo-de-2025-veja-o-calendario?rCH=-2",
};
const SAO_LUIS: Law = {
  source: "feriado municipal de São Luís (Resolução-GP TJMA 131/2025)",
  url: "https://www.tjma.jus.br/midia/tjma/noticia/519639/tjma-divulga-os-feriados-forenses-de-2026",
};
const GOIANIA: Law = {
  source: "lei municipal de Goiânia de 03/09/1956; RITJGO (Res. 2/1982), art. 155",
  url: "https://ohoje.com/?p=1806076",
};

const CAPITALS: ReadonlyMap<number, Capital> = new Map<number, Capital>([
  [
    3550308,
    {
      name: "São Paulo",
      days: [
        ["01-25", "Aniversário da Cidade de São Paulo", SAO_PAULO],
        [60, "Corpus Christi", SAO_PAULO],
      ],
    },
  ],
  [
    3304557,
    {
      name: "Rio de Janeiro",
      days: [["01-20", "São Sebastião, padroeiro do Rio de Janeiro", RIO_DE_JANEIRO]],
      notFound: [
        "Corpus Christi (não é feriado municipal no Rio de Janeiro por lei localizada aqui)",
      ],
    },
  ],
  [
    3106200,
    {
      name: "Belo Horizonte",
      days: [
        [60, "Corpus Christi", BELO_HORIZONTE],
        ["08-15", "Assunção de Nossa Senhora", BELO_HORIZONTE_2],
        ["12-08", "Imaculada Conceição", BELO_HORIZONTE_3],
      ],
    },
  ],
  [
    4314902,
    {
      name: "Porto Alegre",
      days: [
        ["02-02", "Nossa Senhora dos Navegantes", PORTO_ALEGRE],
        [60, "Corpus Christi", PORTO_ALEGRE],
      ],
    },
  ],
  [
    2927408,
    {
      name: "Salvador",
      days: [
        ["06-24", "São João", SALVADOR],
        ["12-08", "Nossa Senhora da Conceição da Praia", SALVADOR],
      ],
      notFound: ["Corpus Christi em Salvador (a lei municipal não foi localizada aqui)"],
    },
  ],
  [
    2611606,
    {
      name: "Recife",
      days: [
        ["06-24", "São João", RECIFE],
        ["07-16", "Nossa Senhora do Carmo, padroeira do Recife", RECIFE_2],
        ["12-08", "Nossa Senhora da Conceição", RECIFE_3],
      ],
    },
  ],
  [
    2304400,
    {
      name: "Fortaleza",
      days: [
        ["03-19", "São José", FORTALEZA],
        [60, "Corpus Christi", FORTALEZA],
        ["08-15", "Nossa Senhora da Assunção, padroeira de Fortaleza", FORTALEZA],
      ],
    },
  ],
  [
    4106902,
    {
      name: "Curitiba",
      days: [
        [60, "Corpus Christi", CURITIBA],
        ["09-08", "Nossa Senhora da Luz dos Pinhais", CURITIBA],
      ],
    },
  ],
  [
    1302603,
    {
      name: "Manaus",
      days: [
        [60, "Corpus Christi", MANAUS],
        ["10-24", "Elevação de Manaus à categoria de Cidade", MANAUS_2],
        ["12-08", "Nossa Senhora da Conceição, padroeira de Manaus", MANAUS_3],
      ],
    },
  ],
  [
    2507507,
    {
      name: "João Pessoa",
      days: [
        ["06-24", "São João", JOAO_PESSOA],
        ["08-05", "Nossa Senhora das Neves, padroeira de João Pessoa", JOAO_PESSOA_2],
        ["12-08", "Nossa Senhora da Conceição", JOAO_PESSOA_3],
      ],
    },
  ],
  [
    2211001,
    {
      name: "Teresina",
      days: [["12-08", "Nossa Senhora da Conceição, padroeira de Teresina", TERESINA]],
      notFound: [
        "outros feriados de Teresina da Lei municipal 2.847/1999 (o texto não foi localizado aqui)",
      ],
    },
  ],
  [
    5103403,
    {
      name: "Cuiabá",
      days: [
        ["04-08", "Fundação de Cuiabá", CUIABA],
        [60, "Corpus Christi", CUIABA_2],
        ["12-08", "Nossa Senhora da Conceição, padroeira de Cuiabá", CUIABA_3],
      ],
    },
  ],
  [
    5002704,
    {
      name: "Campo Grande",
      days: [
        [60, "Corpus Christi", CAMPO_GRANDE],
        ["06-13", "Santo Antônio, padroeiro de Campo Grande", CAMPO_GRANDE_2],
      ],
      notFound: ["26/08, aniversário de Campo Grande (a lei não foi localizada aqui)"],
    },
  ],
  [
    4205407,
    {
      name: "Florianópolis",
      days: [
        ["03-23", "Dia do Município de Florianópolis", FLORIANOPOLIS],
        [60, "Corpus Christi", FLORIANOPOLIS],
      ],
    },
  ],
  [
    3205309,
    {
      name: "Vitória",
      days: [
        [8, "Nossa Senhora da Penha", VITORIA],
        [60, "Corpus Christi", VITORIA],
        ["09-08", "Nossa Senhora da Vitória", VITORIA],
      ],
    },
  ],
  [
    2704302,
    {
      name: "Maceió",
      days: [
        [60, "Corpus Christi", MACEIO],
        ["06-29", "Marechal Floriano Peixoto", MACEIO_2],
        ["08-27", "Nossa Senhora dos Prazeres, padroeira de Maceió", MACEIO_3],
        ["12-08", "Nossa Senhora da Conceição", MACEIO],
      ],
    },
  ],
  [
    1100205,
    {
      name: "Porto Velho",
      days: [
        ["01-24", "Instalação do Município de Porto Velho", PORTO_VELHO],
        ["05-24", "Nossa Senhora Auxiliadora, padroeira de Porto Velho", PORTO_VELHO],
        ["10-02", "Criação do Município de Porto Velho", PORTO_VELHO],
      ],
    },
  ],
  [
    1400100,
    {
      name: "Boa Vista",
      days: [
        ["01-20", "São Sebastião", BOA_VISTA],
        ["06-29", "São Pedro", BOA_VISTA],
        ["07-09", "Aniversário de Boa Vista", BOA_VISTA_2],
        ["12-08", "Nossa Senhora da Conceição", BOA_VISTA],
      ],
    },
  ],
  [
    1721000,
    {
      name: "Palmas",
      days: [
        ["03-19", "São José, padroeiro de Palmas", PALMAS],
        ["05-20", "Aniversário de Palmas", PALMAS],
      ],
    },
  ],
  [
    2111300,
    {
      name: "São Luís",
      days: [
        ["06-29", "São Pedro", SAO_LUIS],
        ["09-08", "Fundação de São Luís", SAO_LUIS],
      ],
    },
  ],
  [
    5208707,
    {
      name: "Goiânia",
      days: [["05-24", "Nossa Senhora Auxiliadora, padroeira de Goiânia", GOIANIA]],
      notFound: ["24/10, aniversário de Goiânia (a lei não foi localizada aqui)"],
    },
  ],
  [
    1200401,
    {
      name: "Rio Branco",
      days: [],
      notFound: ["feriados municipais de Rio Branco (leis não localizadas aqui)"],
    },
  ],
  [
    1600303,
    {
      name: "Macapá",
      days: [],
      notFound: ["04/02, aniversário de Macapá (a lei não foi localizada aqui)"],
    },
  ],
  [
    1501402,
    {
      name: "Belém",
      days: [],
      notFound: [
        "feriados municipais de Belém (08/12 e 12/01 aparecem como ponto facultativo; leis não localizadas aqui)",
      ],
    },
  ],
  [
    2408102,
    {
      name: "Natal",
      days: [],
      notFound: [
        "21/11, Nossa Senhora da Apresentação, e 06/01, Santos Reis, em Natal (leis não localizadas aqui)",
      ],
    },
  ],
  [
    2800308,
    {
      name: "Aracaju",
      days: [],
      notFound: ["17/03 e 08/12 em Aracaju (leis não localizadas aqui)"],
    },
  ],
  [5300108, { name: "Brasília", days: [] }],
]);

/** Capitals whose holidays are here, by IBGE code (for tests and docs/deadlines.md). */
export const CAPITAL_CODES: readonly number[] = [...CAPITALS.keys()];

/** A capital's name by IBGE code, or null for a seat whose days are not here. */
export function municipalityName(code: number): string | null {
  return CAPITALS.get(code)?.name ?? null;
}

function dateOf(when: string | number, year: number): IsoDate {
  return typeof when === "number" ? addDays(easterSunday(year), when) : `${year}-${when}`;
}

function municipalRule([, name, law]: MunicipalDay): DayRule {
  return { effect: "holiday", name, source: law.source, url: law.url, scope: "municipal" };
}

/** The municipal holidays of the seat in `year`. */
export function municipalDays(
  seat: CourtSeat,
  year: number,
): LayerYear & { corpusChristi: boolean } {
  if (seat.branch === "superior" || seat.branch === null) {
    return { days: [], considered: [], notConsidered: [], corpusChristi: false };
  }
  if (seat.municipality === null) {
    return {
      days: [],
      considered: [],
      notConsidered: ["feriados municipais (a sede da unidade não é conhecida)"],
      corpusChristi: false,
    };
  }
  const capital = CAPITALS.get(seat.municipality);
  if (capital === undefined) {
    return {
      days: [],
      considered: [],
      notConsidered: [
        `feriados municipais da sede (IBGE ${seat.municipality}): só os das capitais estão nos dados`,
      ],
      corpusChristi: false,
    };
  }
  const days: DatedRule[] = capital.days.map((d) => ({
    date: dateOf(d[0], year),
    rule: municipalRule(d),
  }));
  const sources = citations(capital.days.map(([, , law]) => law.source));
  return {
    days,
    considered:
      days.length === 0
        ? []
        : [{ scope: "municipal", text: `feriados municipais de ${capital.name} (${sources})` }],
    notConsidered: (capital.notFound ?? []).map((n) => `feriado municipal: ${n}`),
    corpusChristi: capital.days.some(([when]) => when === 60),
  };
}
