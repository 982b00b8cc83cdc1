import type {
  CodeName,
  InstanceRecord,
  Movement,
  MovementComplement,
} from "../datajud/instance-record.js";
import { criminalClass } from "../deadlines/criminal-class.js";
import { foldText, oneLine } from "../text.js";
import {
  isHearingCode,
  isKnownMovement,
  movementTitleOf,
  readableTitle,
} from "../tpu/movements.js";

/*
 * A movement in the words a lawyer reads: the TPU's leaf with its parent where the leaf alone
 * says nothing ("Confirmada" is "Intimação eletrônica confirmada"), a hearing with its type and
 * situation ("Audiência de conciliação designada"), complements with readable descriptors, and a
 * criminal case's judgments in criminal words. Pure.
 */

/** DataJud's complement descriptors (CNJ's TPU de complementos) as a lawyer reads them. */
const DESCRIPTORS: Readonly<Record<string, string>> = {
  situacao_da_audiencia: "situação da audiência",
  tipo_de_audiencia: "tipo de audiência",
  dirigida_por: "dirigida por",
  tipo_de_distribuicao_redistribuicao: "tipo de distribuição",
  motivo_da_redistribuicao: "motivo da redistribuição",
  tipo_de_conclusao: "tipo de conclusão",
  tipo_de_documento: "tipo de documento",
  tipo_de_peticao: "tipo de petição",
  motivo_da_remessa: "motivo da remessa",
  resultado: "resultado",
  numero_da_sirdr: "número da SIRDR",
  prioridade: "prioridade",
};

/** A descriptor DataJud sends (`tipo_de_conclusao`) as words ("tipo de conclusão"). */
export function descriptorText(description: string): string {
  const key = foldText(description).replace(/\s+/g, "_");
  return DESCRIPTORS[key] ?? description.replace(/_/g, " ").trim();
}

/**
 * One complement as "descriptor: name" ("tipo de conclusão: para decisão"). DataJud's numeric
 * `valor` is the TPU's internal number for that name, meaningless to a reader: shown only when
 * there is no name; a text value that says more than the name is kept after it.
 */
export function complementReading(c: MovementComplement): string | null {
  const kind = c.description === null ? "" : descriptorText(c.description);
  const name = c.name?.trim() ?? "";
  const raw = c.value === null ? "" : String(c.value).trim();
  const textValue = typeof c.value === "string" && !/^\d+$/.test(raw) && raw !== name ? raw : "";
  const value = name === "" ? raw : textValue === "" ? name : `${name}: ${textValue}`;
  if (kind === "" && value === "") return null;
  return kind === "" ? value : value === "" ? kind : `${kind}: ${value}`;
}

/** A complement as one clean line (an e-mail, a tool's answer): "situação da audiência: designada". */
export function complementText(c: MovementComplement): string | null {
  const text = complementReading(c);
  return text === null ? null : oneLine(text) || null;
}

type MovementParts = Pick<Movement, "code" | "name" | "complements">;

function complementNamed(m: MovementParts, descriptor: RegExp): string | null {
  for (const c of m.complements) {
    if (c.description !== null && descriptor.test(foldText(c.description))) {
      const name = c.name?.trim() ?? "";
      if (name !== "") return name;
    }
  }
  return null;
}

export type HearingSituation =
  | "designada"
  | "redesignada"
  | "antecipada"
  | "cancelada"
  | "realizada"
  | "nao_realizada"
  | "adiada"
  | "convertida";

const SITUATIONS: ReadonlyArray<readonly [RegExp, HearingSituation]> = [
  [/\bredesignad/, "redesignada"],
  [/\bantecipad/, "antecipada"],
  [/\bcancelad/, "cancelada"],
  [/\bnao[- ]realizad/, "nao_realizada"],
  [/\brealizad/, "realizada"],
  [/\badiad/, "adiada"],
  [/\bconvertid/, "convertida"],
  [/\bdesignad/, "designada"],
];

/** A hearing's situation as its complement (situacao_da_audiencia) or its name says it. */
export function hearingSituation(m: MovementParts): HearingSituation | null {
  const said = complementNamed(m, /situacao.*audiencia/) ?? m.name;
  const folded = foldText(said);
  return SITUATIONS.find(([pattern]) => pattern.test(folded))?.[1] ?? null;
}

export const HEARING_SITUATION_PT: Record<HearingSituation, string> = {
  designada: "designada",
  redesignada: "redesignada",
  antecipada: "antecipada",
  cancelada: "cancelada",
  realizada: "realizada",
  nao_realizada: "não realizada",
  adiada: "adiada",
  convertida: "convertida em diligência",
};

/** Situations that take a scheduled hearing away from its date: the lawyer must know at once. */
export const HEARING_UPSET: ReadonlySet<HearingSituation> = new Set([
  "cancelada",
  "redesignada",
  "antecipada",
  "adiada",
  "nao_realizada",
]);

/**
 * A hearing: its code is 970 Audiência or lies under it in CNJ's table (12740 conciliação, 12749
 * instrução, 12750 instrução e julgamento...), or DataJud states its situation
 * (situacao_da_audiencia), whatever the code, or, without a code or with one CNJ's tables lack,
 * its name says audiência.
 */
export function isHearing(m: MovementParts): boolean {
  if (isHearingCode(m.code)) return true;
  if (complementNamed(m, /situacao.*audiencia/) !== null) return true;
  return !isKnownMovement(m.code) && /\baudiencia\b/.test(foldText(m.name));
}

/** "Audiência de conciliação": the hearing's type, as far as known, without its situation. */
export function hearingName(m: MovementParts): string {
  const type = complementNamed(m, /tipo.*audiencia/);
  if (type !== null) return `Audiência de ${type.toLocaleLowerCase("pt-BR")}`;
  if (isHearingCode(m.code)) return movementTitleOf(m.code) ?? "Audiência";
  return "Audiência";
}

/** "Audiência de conciliação designada": the hearing's type and situation, as far as known. */
function hearingTitle(m: MovementParts): string {
  const situation = hearingSituation(m);
  const base = hearingName(m);
  return situation === null ? base : `${base} ${HEARING_SITUATION_PT[situation]}`;
}

/**
 * A criminal class (CNJ's TPU de classes, the criminal branch: deadlines/criminal-class.ts), by
 * its code when known, else its name.
 */
export function isCriminalClass(
  klass: (Pick<CodeName, "name"> & { code?: number | null }) | string | null,
): boolean {
  if (typeof klass === "string") return criminalClass(null, klass) === true;
  return criminalClass(klass?.code ?? null, klass?.name ?? null) === true;
}

/**
 * A judgment of a criminal case in criminal words: the TPU's civil-sounding "Procedência" of a
 * denúncia is a conviction, its "Improcedência" an acquittal.
 */
const CRIMINAL_TITLES: Readonly<Record<number, { title: string; pt: string }>> = {
  219: {
    title: "Sentença condenatória",
    pt: "Sentença penal condenatória: a denúncia (ou queixa) foi julgada procedente e o réu condenado; cabe apelação (CPP, art. 593).",
  },
  220: {
    title: "Sentença absolutória",
    pt: "Sentença penal absolutória: a denúncia (ou queixa) foi julgada improcedente e o réu absolvido (CPP, art. 386).",
  },
  221: {
    title: "Sentença condenatória em parte",
    pt: "A denúncia (ou queixa) foi julgada procedente em parte: condenação por parte das imputações, absolvição quanto ao resto.",
  },
};

export interface ReadingContext {
  /** The case's class in the instance of the movement: criminal classes read in criminal words. */
  criminal?: boolean;
}

/** The movement's name as a lawyer reads it; the TPU's own name when the table knows no better. */
export function movementTitle(m: MovementParts, context: ReadingContext = {}): string {
  if (context.criminal === true && m.code !== null) {
    const criminal = CRIMINAL_TITLES[m.code];
    if (criminal !== undefined) return criminal.title;
  }
  if (isHearing(m)) return hearingTitle(m);
  const title = readableTitle(m.code);
  const name = m.name.trim();
  if (title !== undefined) return title;
  if (name !== "") return name;
  return (
    movementTitleOf(m.code) ??
    (m.code === null ? "movimento sem nome" : `movimento de código ${m.code}`)
  );
}

/** What the movement records, in plain Portuguese, in the case's own words (criminal or not). */
export function movementMeaning(
  m: Pick<Movement, "code" | "hint">,
  context: ReadingContext = {},
): string | null {
  if (context.criminal === true && m.code !== null) {
    const criminal = CRIMINAL_TITLES[m.code];
    if (criminal !== undefined) return criminal.pt;
  }
  return m.hint?.pt ?? null;
}

/** How the records' instance reads its movements (its class decides criminal words). */
export function readingContextOf(
  records: readonly Pick<InstanceRecord, "instance" | "class">[],
  instance: string,
): ReadingContext {
  const record = records.find((r) => r.instance === instance);
  return { criminal: isCriminalClass(record?.class ?? null) };
}
