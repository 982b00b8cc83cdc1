import { foldText } from "../text.js";

/*
 * Whether a case's class is criminal: its deadlines count under the CPP (art. 798) and its
 * judgments read as condenação, absolvição, denúncia recebida. One rule for the deadline engine
 * and the case reading. Pure.
 */

/**
 * CNJ's Tabela Processual Unificada de Classes, the criminal branch ("Processo Criminal", 268, and
 * its children): 283 Ação Penal - Procedimento Ordinário, 10943 Sumário, 10944 Sumaríssimo, 282
 * Júri, 279 Inquérito Policial, 280 Auto de Prisão em Flagrante, 278 Termo Circunstanciado, 307
 * Habeas Corpus, 386 Execução da Pena, 417 Apelação (Criminal), 426 Recurso em Sentido Estrito,
 * 428 Revisão Criminal, 413 Agravo de Execução Penal, 421 Embargos Infringentes e de Nulidade,
 * and the incidents, cautelares and execução incidents listed here (12121-12129 among them).
 */
const CRIMINAL_CLASS_CODES: ReadonlySet<number> = new Set([
  268, 270, 272, 273, 275, 276, 278, 279, 280, 282, 283, 287, 288, 289, 290, 293, 297, 299, 300,
  302, 305, 307, 309, 310, 311, 313, 314, 315, 326, 328, 329, 330, 333, 335, 355, 375, 386, 407,
  408, 409, 410, 411, 413, 417, 418, 419, 421, 424, 425, 426, 428, 432, 1715, 1717, 1719, 1733,
  10943, 10944, 11398, 11399, 11793, 11955, 11957, 12077, 12089, 12121, 12122, 12123, 12125, 12126,
  12127, 12128, 12129,
]);

/** Courts create local children of these classes: their names say what they are. */
const CRIMINAL_NAME =
  /penal|criminal|crime|inquerito|flagrante|termo circunstanciado|sentido estrito|execucao da pena|prisao|liberdade provisoria|medidas? protetivas?|maria da penha|carta testemunhavel|queixa|nao persecucao|medida de seguranca|livramento condicional|progressao de regime|regressao de regime|remicao|unificacao de penas|juri\b|insanidade mental|revisao criminal/u;

/**
 * True for a class of the criminal branch (by its TPU code, else its name: a habeas corpus unless
 * "cível"); false for another class; null when neither code nor name was given.
 */
export function criminalClass(code: number | null, name: string | null): boolean | null {
  if (code !== null && CRIMINAL_CLASS_CODES.has(code)) return true;
  if (name === null || name.trim() === "") return code === null ? null : false;
  const folded = foldText(name);
  if (/habeas corpus/u.test(folded)) return !/civel/u.test(folded);
  return CRIMINAL_NAME.test(folded);
}
