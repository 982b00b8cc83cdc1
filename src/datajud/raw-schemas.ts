import { z } from "zod";

/**
 * DataJud's `_source` documents, parsed leniently: the live API drifts from its own glossary
 * (codes as strings or numbers, compact or ISO dates, nested subject arrays, renamed fields).
 * A field of the wrong shape becomes null instead of failing the whole record.
 */

const looseInt = z
  .union([z.number(), z.string()])
  .transform((value): number | null => {
    const n = typeof value === "number" ? value : Number(value.trim());
    return Number.isFinite(n) && Number.isInteger(n) && String(value).trim() !== "" ? n : null;
  })
  .nullable()
  .optional()
  .catch(null);

const looseText = z
  .union([z.string(), z.number()])
  .transform((value) => String(value))
  .nullable()
  .optional()
  .catch(null);

/** Dates stay raw here; normalization decides their form. */
const looseDate = z.union([z.string(), z.number()]).nullable().optional().catch(null);

const RawCodeName = z
  .looseObject({ codigo: looseInt, nome: looseText })
  .nullable()
  .optional()
  .catch(null);

const RawComplement = z.looseObject({
  codigo: looseInt,
  nome: looseText,
  valor: z.union([z.string(), z.number()]).nullable().optional().catch(null),
  descricao: looseText,
});

const RawMovementUnit = z
  .looseObject({
    codigoOrgao: looseInt,
    nomeOrgao: looseText,
    codigo: looseInt,
    nome: looseText,
  })
  .nullable()
  .optional()
  .catch(null);

/** Some courts nest a movement's TPU code and name (`movimentoNacional`, `movimentoLocal`). */
const RawNestedMovement = z
  .looseObject({
    codigoNacional: looseInt,
    codigoMovimento: looseInt,
    codigoPaiNacional: looseInt,
    codigo: looseInt,
    descricao: looseText,
    nome: looseText,
  })
  .nullable()
  .optional()
  .catch(null);

export const RawMovement = z.looseObject({
  codigo: looseInt,
  nome: looseText,
  movimentoNacional: RawNestedMovement,
  movimentoLocal: RawNestedMovement,
  dataHora: looseDate,
  complementosTabelados: z.array(z.unknown()).nullable().optional().catch(null),
  complemento: z.unknown().optional(),
  orgaoJulgador: RawMovementUnit,
});
export type RawMovement = z.infer<typeof RawMovement>;

export const RawCaseSource = z.looseObject({
  numeroProcesso: looseText,
  id: looseText,
  tribunal: looseText,
  grau: looseText,
  classe: RawCodeName,
  sistema: RawCodeName,
  formato: RawCodeName,
  nivelSigilo: looseInt,
  dataAjuizamento: looseDate,
  dataHoraUltimaAtualizacao: looseDate,
  "@timestamp": looseDate,
  orgaoJulgador: z
    .looseObject({ codigo: looseInt, nome: looseText, codigoMunicipioIBGE: looseInt })
    .nullable()
    .optional()
    .catch(null),
  // Seen both flat and as arrays of arrays; flattened during normalization.
  assuntos: z.array(z.unknown()).nullable().optional().catch(null),
  movimentos: z.array(z.unknown()).nullable().optional().catch(null),
});
export type RawCaseSource = z.infer<typeof RawCaseSource>;

export const RawCodeNameItem = z.looseObject({ codigo: looseInt, nome: looseText });
export { RawComplement };

/** The `_source` keys we read; anything else is counted as drift. */
export const KNOWN_SOURCE_FIELDS: ReadonlySet<string> = new Set([
  "numeroProcesso",
  "id",
  "tribunal",
  "grau",
  "classe",
  "sistema",
  "formato",
  "nivelSigilo",
  "dataAjuizamento",
  "dataHoraUltimaAtualizacao",
  "@timestamp",
  "orgaoJulgador",
  "assuntos",
  "movimentos",
]);
