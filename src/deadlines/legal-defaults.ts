import { foldText } from "../text.js";
import type { CommunicationReading } from "./communication.js";

/*
 * The periods the law itself gives for the act a communication names, offered when the text
 * states none, always labelled as the law's default and never as the court's. The shortest comes
 * first: after a sentença the embargos de declaração are due before the appeal.
 */

export interface LegalDefault {
  /** The act, in Portuguese: "embargos de declaração", "apelação". */
  act: string;
  days: number;
  /** The article that gives the period. */
  basis: string;
}

const ED_CPC: LegalDefault = { act: "embargos de declaração", days: 5, basis: "CPC, art. 1.023" };
const ED_JEC: LegalDefault = {
  act: "embargos de declaração",
  days: 5,
  basis: "Lei 9.099/1995, art. 49",
};
const ED_CLT: LegalDefault = { act: "embargos de declaração", days: 5, basis: "CLT, art. 897-A" };
const ED_ELEITORAL: LegalDefault = {
  act: "embargos de declaração",
  days: 3,
  basis: "Código Eleitoral, art. 275 §1º",
};

type Document = "sentenca" | "acordao" | "decisao" | "despacho" | null;

function documentOf(documentType: string | null, text: string): Document {
  const doc = foldText(documentType ?? "");
  if (/sentenca/u.test(doc)) return "sentenca";
  if (/acordao|ementa/u.test(doc)) return "acordao";
  if (/decisao/u.test(doc)) return "decisao";
  if (/despacho/u.test(doc)) return "despacho";
  // The first words of the text, when the document type says nothing ("SENTENÇA ...").
  const head = foldText(text.slice(0, 400));
  if (/\bsentenca\b/u.test(head) && /julgo|homologo|extingo/u.test(foldText(text))) {
    return "sentenca";
  }
  if (/\bacordao\b/u.test(head)) return "acordao";
  return null;
}

function civil(document: Document, juizado: boolean): LegalDefault[] {
  switch (document) {
    case "sentenca":
      return juizado
        ? [ED_JEC, { act: "recurso inominado", days: 10, basis: "Lei 9.099/1995, art. 42" }]
        : [ED_CPC, { act: "apelação", days: 15, basis: "CPC, arts. 1.003 §5º e 1.009" }];
    case "acordao":
      return [
        ED_CPC,
        {
          act: "recurso especial, extraordinário ou outro recurso de 15 dias",
          days: 15,
          basis: "CPC, art. 1.003 §5º",
        },
      ];
    case "decisao":
      return [ED_CPC, { act: "agravo, se cabível", days: 15, basis: "CPC, art. 1.003 §5º" }];
    default:
      return [
        {
          act: "ato da parte sem prazo fixado (se o ato pedir uma providência)",
          days: 5,
          basis: "CPC, art. 218 §3º",
        },
      ];
  }
}

function labour(document: Document): LegalDefault[] {
  switch (document) {
    case "sentenca":
      return [ED_CLT, { act: "recurso ordinário", days: 8, basis: "CLT, art. 895, I" }];
    case "acordao":
      return [
        ED_CLT,
        { act: "recurso de revista ou embargos", days: 8, basis: "CLT, arts. 894 e 896" },
      ];
    case "decisao":
      return [ED_CLT];
    default:
      return [];
  }
}

function criminal(document: Document, juizado: boolean): LegalDefault[] {
  switch (document) {
    case "sentenca":
      return juizado
        ? [
            { act: "embargos de declaração", days: 5, basis: "Lei 9.099/1995, art. 83 §1º" },
            { act: "apelação", days: 10, basis: "Lei 9.099/1995, art. 82 §1º" },
          ]
        : [
            { act: "embargos de declaração", days: 2, basis: "CPP, art. 382" },
            { act: "apelação", days: 5, basis: "CPP, art. 593" },
          ];
    case "acordao":
      return [
        { act: "embargos de declaração", days: 2, basis: "CPP, art. 619" },
        {
          act: "recurso especial ou extraordinário",
          days: 15,
          basis: "CPC, art. 1.003 §5º (em dias corridos no processo penal)",
        },
      ];
    default:
      return [];
  }
}

function electoral(document: Document): LegalDefault[] {
  switch (document) {
    case "sentenca":
      return [ED_ELEITORAL, { act: "recurso", days: 3, basis: "Código Eleitoral, art. 258" }];
    case "acordao":
      return [
        ED_ELEITORAL,
        { act: "recurso especial eleitoral", days: 3, basis: "Código Eleitoral, art. 276 §1º" },
      ];
    default:
      return [];
  }
}

/** The law's periods for the act this communication carries, shortest first. */
export function legalDefaults(
  reading: CommunicationReading,
  documentType: string | null,
  text: string,
): LegalDefault[] {
  const document = documentOf(documentType, text);
  switch (reading.procedure) {
    case "civil":
      return civil(document, reading.juizado);
    case "labour":
      return labour(document);
    case "criminal":
      return criminal(document, reading.juizado);
    case "electoral":
      return electoral(document);
  }
}
