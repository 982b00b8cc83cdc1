import { z } from "zod";

/*
 * The shape of the vendored tables (src/tpu/data/*.json), ours and strict: a table that does not
 * match fails at start, naming the item, instead of reading a code wrongly. Pure.
 */

/** Where a table came from: enough to fetch it again and to know how old it is. */
export const TableSourceSchema = z.strictObject({
  /** Who publishes the table and what it is. */
  publisher: z.string().min(1),
  /** Where the refresh script reads it (CNJ's TPU gateway). */
  url: z.url(),
  /** The copy these items were read from, when not the URL itself. */
  via: z.string().min(1).optional(),
  /** The terms the table is published under. */
  licence: z.string().min(1),
  /** The day the copy was taken (YYYY-MM-DD). */
  retrieved: z.iso.date(),
  /** The newest item version in the copy (SGT's dat_versao), YYYY-MM-DD. */
  newestItem: z.iso.date(),
});

export const TableItemSchema = z.strictObject({
  code: z.int().positive(),
  /** The parent's code; null for a root (1 Magistrado, 14 Serventuário; a class branch). */
  parent: z.int().positive().nullable(),
  name: z.string().min(1),
  /** Inactive items are kept: old records still carry them. */
  active: z.boolean(),
  /** The item's SGT version date, YYYY-MM-DD. */
  version: z.iso.date(),
  /** CNJ's glossary text, where the copy carries it. */
  gloss: z.string().min(1).optional(),
});

export const TableFileSchema = z.strictObject({
  table: z.enum(["movements", "classes"]),
  source: TableSourceSchema,
  items: z.array(TableItemSchema).min(1),
});

export type TableSource = z.infer<typeof TableSourceSchema>;
export type TableItem = z.infer<typeof TableItemSchema>;
export type TableFile = z.infer<typeof TableFileSchema>;

/** The monitor's own words for a movement (src/tpu/data/glosses.json). */
export const GlossSchema = z.strictObject({
  code: z.int().positive(),
  /** The name as DataJud sends it in `movimentos[].nome` (it may differ from the TPU's). */
  name: z.string().min(1),
  /** What a lawyer calls the movement where the TPU's leaf alone says nothing. */
  title: z.string().min(1).optional(),
  pt: z.string().min(6),
  en: z.string().min(6),
});

export const GlossFileSchema = z.strictObject({
  about: z.string(),
  glosses: z.array(GlossSchema),
});

export type Gloss = z.infer<typeof GlossSchema>;
