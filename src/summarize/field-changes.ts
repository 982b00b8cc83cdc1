import { z } from "zod";
import { instanceText } from "../datajud/glossary.js";

/*
 * A change of the case's own data (class, subjects, court unit, secrecy level) as a lawyer reads
 * it: which instance, what it was, what it is now, and for secrecy what the level means. Pure.
 */

export type FieldName = "class" | "subjects" | "courtUnit" | "secrecyLevel";

export interface FieldChange {
  instance: string;
  field: FieldName;
  before: unknown;
  after: unknown;
}

export interface FieldChangeReading {
  /** "Classe alterada no 1º grau (G1)". */
  title: string;
  /** "Classe alterada no 1º grau (G1): Procedimento Comum Cível (código 7) → …", full. */
  headline: string;
  /** Short enough for a subject: names without codes, a new court unit without the old one. */
  brief: string;
  /** Each side as one line. */
  before: string;
  after: string;
  /** What it means, in Portuguese (a secrecy level's access, a redistribution); null: nothing. */
  note: string | null;
}

/**
 * DataJud's `nivelSigilo`, the MNI's levels (Modelo Nacional de Interoperabilidade, Resolução
 * Conjunta CNJ/CNMP 3/2013, intercomunicacao-2.2.2.xsd, attribute nivelSigilo), which the
 * publicity rules of Res. CNJ 121/2010 apply to: 0 is public; from 1 up the case is out of
 * public consultation (CNJ's DataJud wiki, "Tag Datamart", counts nivelSigilo >= 1 as "processos
 * em segredo de justiça"). Who may see it, as the MNI says.
 */
export const SECRECY_LEVELS: Readonly<Record<number, { name: string; access: string }>> = {
  0: {
    name: "público",
    access: "acessível a qualquer pessoa, advogados e servidores da Justiça",
  },
  1: {
    name: "segredo de justiça",
    access:
      "acessível aos servidores do Judiciário e dos órgãos de colaboração com a Justiça e às partes do processo e seus advogados",
  },
  2: {
    name: "sigilo mínimo",
    access:
      "acessível aos servidores do Judiciário e dos órgãos de colaboração com a Justiça; as partes, só com autorização",
  },
  3: {
    name: "sigilo médio",
    access:
      "acessível aos servidores do órgão em que tramita, à parte que provocou o incidente e a quem for expressamente incluído",
  },
  4: {
    name: "sigilo intenso",
    access:
      "acessível ao magistrado, ao diretor de secretaria e à assessoria do órgão em que tramita, à parte que provocou o incidente e a quem for expressamente incluído",
  },
  5: {
    name: "sigilo absoluto",
    access:
      "acessível apenas ao magistrado do órgão em que tramita, a quem ele indicar e à parte que provocou o incidente",
  },
};

const NamedValue = z.looseObject({ code: z.number().nullable().catch(null), name: z.string() });
const Unit = z.looseObject({
  code: z.number().nullable().catch(null),
  name: z.string(),
  municipalityCode: z.number().nullable().optional().catch(null),
});

function codeNameText(value: unknown): string {
  const parsed = NamedValue.safeParse(value);
  if (!parsed.success) return "não informado";
  const name = parsed.data.name.trim() || "sem nome";
  return parsed.data.code === null ? name : `${name} (código ${parsed.data.code})`;
}

function subjectsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.map(codeNameText) : [];
}

function unitText(value: unknown): string {
  const parsed = Unit.safeParse(value);
  if (!parsed.success) return "não informado";
  const name = parsed.data.name.trim() || "sem nome";
  return parsed.data.code === null ? name : `${name} (código ${parsed.data.code})`;
}

/** "5 (sigilo absoluto)": the level with its name; "não informado" when DataJud gave none. */
export function secrecyText(level: unknown): string {
  if (typeof level !== "number") return "não informado";
  const known = SECRECY_LEVELS[level];
  return known === undefined
    ? `${level} (nível fora da tabela do MNI)`
    : `${level} (${known.name})`;
}

function secrecyNote(before: unknown, after: unknown): string | null {
  if (typeof after !== "number") return null;
  const known = SECRECY_LEVELS[after];
  if (known === undefined) return null;
  const was = typeof before === "number" ? before : 0;
  const what =
    after === 0
      ? "O processo passou a ser público"
      : after > was
        ? "O acesso ao processo ficou mais restrito"
        : "O acesso ao processo ficou menos restrito";
  const consult = after >= 1 ? "; fica fora da consulta pública" : "";
  return `Nível ${after}, ${known.name}: ${known.access} (níveis do MNI, Res. CNJ 121/2010). ${what}${consult}.`;
}

function subjectsDelta(before: unknown, after: unknown): string {
  const was = subjectsOf(before);
  const now = subjectsOf(after);
  const gone = was.filter((s) => !now.includes(s));
  const came = now.filter((s) => !was.includes(s));
  const parts = [
    ...(came.length > 0 ? [`incluído ${came.join("; ")}`] : []),
    ...(gone.length > 0 ? [`retirado ${gone.join("; ")}`] : []),
  ];
  return parts.length === 0 ? "mesmos assuntos, em outra forma" : parts.join("; ");
}

const FIELD_PT: Record<FieldName, string> = {
  class: "Classe alterada",
  subjects: "Assuntos alterados",
  courtUnit: "Órgão julgador alterado (redistribuição)",
  secrecyLevel: "Nível de sigilo alterado",
};

/** One field change as a lawyer reads it, in the instance where it happened. */
export function readFieldChange(change: FieldChange): FieldChangeReading {
  const where = `${FIELD_PT[change.field]} no ${instanceText(change.instance)}`;
  return { title: where, ...sides(change, where) };
}

function sides(change: FieldChange, where: string): Omit<FieldChangeReading, "title"> {
  const name = (v: unknown): string => NamedValue.safeParse(v).data?.name.trim() || "não informado";
  switch (change.field) {
    case "class": {
      const before = codeNameText(change.before);
      const after = codeNameText(change.after);
      return {
        headline: `${where}: ${before} → ${after}`,
        brief: `${where}: ${name(change.before)} → ${name(change.after)}`,
        before,
        after,
        note: null,
      };
    }
    case "subjects": {
      const before = subjectsOf(change.before).join("; ") || "nenhum";
      const after = subjectsOf(change.after).join("; ") || "nenhum";
      return {
        headline: `${where}: ${subjectsDelta(change.before, change.after)}`,
        brief: where,
        before,
        after,
        note: null,
      };
    }
    case "courtUnit": {
      const before = unitText(change.before);
      const after = unitText(change.after);
      return {
        headline: `${where}: ${before} → ${after}`,
        brief: `${where}: agora ${name(change.after)}`,
        before,
        after,
        note: "O processo passou a outro órgão julgador: confira onde tramita agora e se prazos ou audiências mudam.",
      };
    }
    case "secrecyLevel": {
      const before = secrecyText(change.before);
      const after = secrecyText(change.after);
      return {
        headline: `${where}: ${before} → ${after}`,
        brief: `${where}: ${before} → ${after}`,
        before,
        after,
        note: secrecyNote(change.before, change.after),
      };
    }
  }
}

const StoredFieldChange = z.object({
  instance: z.string(),
  field: z.enum(["class", "subjects", "courtUnit", "secrecyLevel"]),
  before: z.unknown(),
  after: z.unknown(),
});

const FieldChangesOfChange = z.object({ fieldChanges: z.array(z.unknown()).catch([]) });

/** The field changes a stored change reported (`details.fieldChanges`), read leniently. */
export function fieldChangesOfChange(details: unknown): FieldChange[] {
  const parsed = FieldChangesOfChange.safeParse(details);
  if (!parsed.success) return [];
  return parsed.data.fieldChanges.flatMap((c) => {
    const one = StoredFieldChange.safeParse(c);
    return one.success ? [one.data] : [];
  });
}
