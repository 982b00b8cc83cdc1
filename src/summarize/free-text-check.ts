import { foldText } from "../text.js";
import type { CaseSummary } from "./case-summary.js";

/**
 * The model's own words checked before they go out as the monitor's: the status, the next step
 * and each attention reason. The model reads court text anyone can fill ("Acesse http://... e
 * informe sua senha"), and what it writes is mailed as the monitor's reading, so a summary is
 * about the case's procedure and nothing else: no link, address or phone number, no instruction
 * to the reader, no other case. Any finding sets the whole summary aside for the rules' reading
 * (the authority); the reasons are our own labels, never the model's text.
 */

/** What a summary's free text may not carry, each as the alert names it, in Portuguese. */
export type FreeTextFinding =
  | "um link"
  | "um endereço de e-mail"
  | "um número de telefone"
  | "uma instrução ao leitor"
  | "outro processo";

const LINK = [
  /\b(?:https?|ftp):\/\//u,
  /\bwww\d?\./u,
  // A host name: labels with no space between them, ending in a top-level domain seen in links
  // (legal abbreviations like "art. 1.009" or "fls. 12" have a space or digits instead).
  /\b(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:com|net|org|info|biz|io|co|me|ly|gl|app|dev|xyz|top|site|online|link|click|club|shop|store|ru|cn|tk|br|example|test)\b/u,
  // Any host name followed by a path: "algo.qualquer/prazo".
  /\b[a-z0-9-]+\.[a-z]{2,24}\/\S/u,
];

const EMAIL = /[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+/u;

/**
 * Brazilian phone numbers as a reader would dial them: (11) 91234-5678, 11 3456-7890,
 * +55 11 912345678, 0800 123 4567, 4004-0001. A CNJ number (0713383-43.2025...) has two digits
 * after its dash, not four.
 */
const PHONE = [
  /\+\s?55[\s-]?\(?\d{2}\)?[\s-]?\d{4,5}[\s-]?\d{4}\b/u,
  /\(\d{2}\)\s?\d{4,5}[\s-]?\d{4}\b/u,
  // Bare: never a span of years ("exercícios 2019-2020").
  /(?<![\d.-])(?:\d{2}\s)?(?!(?:19|20)\d{2}-(?:19|20)\d{2}(?![\d-]|\.\d))\d{4,5}-\d{4}(?![\d-]|\.\d)/u,
  /\b0(?:800|300|500|900)[\s-]?\d{3}[\s-]?\d{4}\b/u,
];

/**
 * Words that tell the reader to do something outside the case, accents folded. Not the verbs a
 * summary uses of the parties ("para que a ré informe", "intimado para pagar"): the imperatives
 * a phishing text uses, second-person possessives, and the means such a text asks for.
 */
const INSTRUCTION = [
  /\bclique\b|\bclica\b|\bclicar\b|\bclick\b/u,
  /\bacesse\b|\bacessar o (?:link|site|endereco|portal)\b/u,
  /\bdigite\b|\bbaixe\b|\binstale\b|\bescaneie\b|\bqr ?code\b/u,
  /\bligue\b|\bligar para\b|\btelefone para\b|\bwhats ?app\b|\btelegram\b/u,
  /\bentre em contato\b|\bfale conosco\b|\bresponda (?:a )?(?:este|esta)\b/u,
  /\b(?:sua|seu|suas|seus) (?:senha|dados|cpf|login|conta|codigo|token|cartao|acesso)\b/u,
  /\bsenha\b|\btoken de acesso\b|\bcodigo de (?:verificacao|seguranca|acesso)\b/u,
  /\bpix\b|\bchave pix\b|\btransfira\b|\bboleto\b/u,
  /\bvoce\b|\bvoces\b/u,
];

/** A formatted CNJ number anywhere in the text. */
const CNJ_NUMBER = /\b\d{7}-\d{2}\.\d{4}\.\d\.\d{2}\.\d{4}\b/gu;

/** The summary's free text: what the model wrote in its own words. */
function freeText(summary: CaseSummary): string[] {
  return [
    summary.status,
    summary.nextExpectedStep ?? "",
    ...summary.attentionReasons.map((r) => r.reason),
  ];
}

/**
 * The case numbers the court's own data names (a related agravo, an apensado): formatted as CNJ
 * numbers, whether the record writes them formatted or as 20 digits.
 */
export function citedCaseNumbers(courtData: string): Set<string> {
  const found = new Set<string>();
  for (const m of courtData.matchAll(CNJ_NUMBER)) found.add(m[0]);
  for (const m of courtData.matchAll(/(?<!\d)(\d{7})(\d{2})(\d{4})(\d)(\d{2})(\d{4})(?!\d)/gu)) {
    found.add(`${m[1]}-${m[2]}.${m[3]}.${m[4]}.${m[5]}.${m[6]}`);
  }
  return found;
}

/**
 * What the model's free text carries that a summary of this case may not; empty when clean.
 * `caseNumbers` are those the text may cite: the case's own, and those its records name.
 */
export function freeTextFindings(
  summary: CaseSummary,
  caseNumbers: ReadonlySet<string>,
): FreeTextFinding[] {
  const found = new Set<FreeTextFinding>();
  for (const raw of freeText(summary)) {
    // Folded and lower-cased, with zero-width and other invisible characters taken out, so
    // "cl\u200Bique" or "ＷＷＷ." cannot slip past.
    const text = foldText(raw.normalize("NFKC").replace(/\p{Cf}/gu, ""));
    if (LINK.some((r) => r.test(text))) found.add("um link");
    if (EMAIL.test(text)) found.add("um endereço de e-mail");
    if (PHONE.some((r) => r.test(text))) found.add("um número de telefone");
    if (INSTRUCTION.some((r) => r.test(text))) found.add("uma instrução ao leitor");
    for (const match of text.matchAll(CNJ_NUMBER)) {
      if (!caseNumbers.has(match[0])) found.add("outro processo");
    }
  }
  return [...found];
}

/** The rules' summary, marked as having replaced the model's because of what its text carried. */
export function setAsideForText(
  rules: CaseSummary,
  model: string,
  findings: readonly FreeTextFinding[],
): CaseSummary {
  return {
    ...rules,
    setAside: `A leitura do modelo de IA ${model} foi descartada porque seu texto trazia o que um resumo do processo não traz: ${findings.join("; ")}.`,
  };
}
