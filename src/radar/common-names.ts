/*
 * Names too common to watch alone: DJEN's name search would bring every person who bears them.
 * Data, with its source; folded (no accents, upper case) as names are compared.
 *
 * Source: IBGE, "Nomes no Brasil", Censo Demográfico 2022, published 04/11/2025
 * (https://censo2022.ibge.gov.br/nomes; figures as reported by the press on that day, e.g.
 * https://www.jornaldocomercio.com/geral/2025/11/1224450-maria-e-jose-sao-os-nomes-mais-comuns-no-pais-segundo-ibge.html).
 * The twenty commonest first names (Maria 12,284,478 people, José 5,164,752 ... Felipe 676,680)
 * and the three next commonest women's names (Francisca, Júlia, Antônia); the eighteen commonest
 * surnames (Silva 34,030,104 people, 16.76% of the population ... Barbosa 2,738,119).
 */

export const COMMON_NAMES_SOURCE =
  "IBGE, Nomes no Brasil (Censo Demográfico 2022, publicado em 04/11/2025)";

export const COMMON_FIRST_NAMES: readonly string[] = [
  "MARIA",
  "JOSE",
  "ANA",
  "JOAO",
  "ANTONIO",
  "FRANCISCO",
  "PEDRO",
  "CARLOS",
  "LUCAS",
  "LUIZ",
  "PAULO",
  "GABRIEL",
  "MARCOS",
  "DAVI",
  "RAFAEL",
  "LUIS",
  "DANIEL",
  "MIGUEL",
  "GUSTAVO",
  "FELIPE",
  "FRANCISCA",
  "JULIA",
  "ANTONIA",
];

export const COMMON_SURNAMES: readonly string[] = [
  "SILVA",
  "SANTOS",
  "OLIVEIRA",
  "SOUZA",
  "PEREIRA",
  "FERREIRA",
  "LIMA",
  "ALVES",
  "RODRIGUES",
  "COSTA",
  "SOUSA",
  "GOMES",
  "NASCIMENTO",
  "ARAUJO",
  "RIBEIRO",
  "ALMEIDA",
  "JESUS",
  "BARBOSA",
];

/**
 * Words that name what a company does or where, not which company: a name made of these alone
 * ("COMERCIO E SERVICOS LTDA", "BRASIL") is in thousands of company names.
 */
export const GENERIC_COMPANY_WORDS: readonly string[] = [
  "BRASIL",
  "BRASILEIRA",
  "COMERCIO",
  "SERVICOS",
  "INDUSTRIA",
  "CONSTRUTORA",
  "TRANSPORTES",
  "EMPRESA",
  "EMPREENDIMENTOS",
  "PARTICIPACOES",
  "HOLDING",
  "GRUPO",
  "CONSULTORIA",
  "ADMINISTRADORA",
  "IMOBILIARIA",
  "DISTRIBUIDORA",
  "FAZENDA",
  "ESTADO",
  "MUNICIPIO",
  "UNIAO",
  "BANCO",
];
