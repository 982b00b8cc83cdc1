import { z } from "zod";

/*
 * DJEN's answers as they come, read leniently: the API mixes snake_case and camelCase (and has
 * changed between them), so every field a name variant is known for is read under each name and
 * the normalizer picks the first one present. A field of the wrong type is read as absent; only
 * what decides identity (`id`) or completeness (`count`, `items`) is strict. The names and their
 * variants are those of test/fixtures/djen/README.md's sources.
 */

/** Text, or a number given where text was expected; anything else is absent. */
const Text = z
  .union([z.string(), z.number()])
  .transform((value) => String(value))
  .nullish()
  .catch(null);

/** A list whose unreadable elements are dropped, never the whole item. */
function listOf<T extends z.ZodType>(element: T) {
  return z
    .array(z.unknown())
    .nullish()
    .catch(null)
    .transform(
      (list): Array<z.infer<T>> =>
        (list ?? []).flatMap((entry) => {
          const parsed = element.safeParse(entry);
          return parsed.success ? [parsed.data] : [];
        }),
    );
}

export const RawLawyer = z.looseObject({
  nome: Text,
  numero_oab: Text,
  numeroOab: Text,
  numeroOAB: Text,
  uf_oab: Text,
  ufOab: Text,
  ufOAB: Text,
});
export type RawLawyer = z.infer<typeof RawLawyer>;

export const RawRecipientLawyer = z.looseObject({
  advogado: RawLawyer.nullish().catch(null),
});

export const RawRecipient = z.looseObject({
  nome: Text,
  polo: Text,
});
export type RawRecipient = z.infer<typeof RawRecipient>;

/** DJEN's communication id: a non-negative integer, sometimes sent as a string. */
const Id = z
  .union([z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER), z.string().regex(/^\d+$/)])
  .transform((value) => String(value).replace(/^0+(?=\d)/, ""));

export const RawItem = z.looseObject({
  id: Id,
  hash: Text,
  numero_processo: Text,
  numeroProcesso: Text,
  numeroprocessocommascara: Text,
  siglaTribunal: Text,
  sigla_tribunal: Text,
  nomeOrgao: Text,
  nome_orgao: Text,
  orgao: Text,
  tipoComunicacao: Text,
  tipo_comunicacao: Text,
  tipoDocumento: Text,
  tipo_documento: Text,
  nomeClasse: Text,
  nome_classe: Text,
  data_disponibilizacao: Text,
  dataDisponibilizacao: Text,
  datadisponibilizacao: Text,
  meio: Text,
  meiocompleto: Text,
  texto: Text,
  link: Text,
  ativo: z.union([z.boolean(), z.string(), z.number()]).nullish().catch(null),
  status: Text,
  motivo_cancelamento: Text,
  motivoCancelamento: Text,
  data_cancelamento: Text,
  dataCancelamento: Text,
  destinatarios: listOf(RawRecipient),
  destinatarioadvogados: listOf(RawRecipientLawyer),
  destinatarioAdvogados: listOf(RawRecipientLawyer),
});
export type RawItem = z.infer<typeof RawItem>;

const Count = z.union([
  z.number().int().nonnegative(),
  z.string().regex(/^\d+$/).transform(Number),
]);

/**
 * `{ status, message, count, items[] }`. `count` and `items` decide whether everything was read,
 * so they are required; items are parsed one by one by the client (a bad one spoils the answer).
 */
export const RawAnswer = z.looseObject({
  status: Text,
  message: Text,
  count: Count,
  items: z.array(z.unknown()),
});
export type RawAnswer = z.infer<typeof RawAnswer>;

/** What DJEN says in an error body (`message` or `mensagem`), when it says anything. */
export const RawErrorBody = z.looseObject({
  message: Text,
  mensagem: Text,
  error: Text,
});
