import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { z } from "zod";
import {
  type TableFile,
  TableFileSchema,
  type TableItem,
  type TableSource,
} from "../src/tpu/schema.js";

/*
 * Refreshes CNJ's tables vendored in src/tpu/data/ (`npm run tpu:refresh`).
 *
 * From CNJ's TPU gateway (the default; needs the internet):
 *   GET https://gateway.cloud.pje.jus.br/tpu/api/v1/publico/download/movimentos
 *   GET https://gateway.cloud.pje.jus.br/tpu/api/v1/publico/download/classes
 * Each answers a JSON array of every item, active and inactive, one object per item. Public
 * clients read the movements' code as `id` (or `cod_item`), their name as `movimento` (or
 * `nome`), the classes' as `cod_item` and `nome`, and the parent as `cod_item_pai`; the detailed
 * query (`.../consulta/detalhada/movimentos?codigo=N`) adds `glossario`, `data_versao`. The
 * answer is read leniently (either spelling, extra fields ignored) and written strictly.
 *
 * From a copy of CNJ's SGT dump as CSV (how the committed tables were made):
 *   npm run tpu:refresh -- --sgt-csv movs.csv,classes.csv --via "..." --retrieved 2026-05-19
 * with the columns cod_item, cod_item_pai, nome, situacao (A/I), dat_versao of
 * hsigstad/diarios' diarios/data/cnj_movs.csv and cnj_classes.csv.
 */

export const GATEWAY = "https://gateway.cloud.pje.jus.br/tpu/api/v1/publico/download";

const TABLES = {
  movements: { path: "movimentos", file: "src/tpu/data/movements.json" },
  classes: { path: "classes", file: "src/tpu/data/classes.json" },
} as const;

type TableName = keyof typeof TABLES;

const LICENCE =
  "CNJ's Tabelas Processuais Unificadas (Resolução CNJ 46/2007), an official act: not subject to copyright (Lei 9.610/1998, art. 8º, IV)";

const code = z.union([z.int(), z.string().regex(/^\s*\d+\s*$/)]).transform((v) => Number(v));
const optionalText = z
  .string()
  .nullish()
  .transform((v) => (v === null || v === undefined || v.trim() === "" ? undefined : v.trim()));

/** One item of the gateway's download, as public clients read it: leniently. */
const GatewayItemSchema = z
  .looseObject({
    id: code.optional(),
    cod_item: code.optional(),
    codigo: code.optional(),
    cod_item_pai: code.nullish(),
    movimento: z.string().optional(),
    nome: z.string().optional(),
    situacao: z.string().nullish(),
    ativo: z.union([z.boolean(), z.string()]).nullish(),
    glossario: optionalText,
    descricao_glossario: optionalText,
    data_versao: z.string().nullish(),
    dat_versao: z.string().nullish(),
  })
  .transform((row, ctx) => {
    const itemCode = row.cod_item ?? row.id ?? row.codigo;
    const name = (row.movimento ?? row.nome ?? "").trim();
    if (itemCode === undefined || name === "") {
      ctx.addIssue({ code: "custom", message: "an item without a code or a name" });
      return z.NEVER;
    }
    return {
      code: itemCode,
      parent: row.cod_item_pai ?? null,
      name,
      active: activeOf(row.situacao, row.ativo),
      version: dayOf(row.data_versao ?? row.dat_versao),
      gloss: row.glossario ?? row.descricao_glossario,
    };
  });

function activeOf(situacao: string | null | undefined, ativo: unknown): boolean {
  if (typeof ativo === "boolean") return ativo;
  if (typeof ativo === "string") return !/^(n|f|0|i)/i.test(ativo.trim());
  return (situacao ?? "A").trim().toUpperCase() !== "I";
}

/** SGT's timestamps ("2025-09-11 16:34:41", ISO, or "11/09/2025") as a day; unknown: 1970. */
export function dayOf(text: string | null | undefined): string {
  const value = text?.trim() ?? "";
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (iso !== null) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const br = /^(\d{2})\/(\d{2})\/(\d{4})/.exec(value);
  if (br !== null) return `${br[3]}-${br[2]}-${br[1]}`;
  return "1970-01-01";
}

function item(row: {
  code: number;
  parent: number | null;
  name: string;
  active: boolean;
  version: string;
  gloss?: string | undefined;
}): TableItem {
  const out: TableItem = {
    code: row.code,
    parent: row.parent === 0 ? null : row.parent,
    name: row.name,
    active: row.active,
    version: row.version,
  };
  if (row.gloss !== undefined) out.gloss = row.gloss;
  return out;
}

/** The gateway's answer for one table as our items, sorted by code. */
export function itemsFromGateway(answer: unknown): TableItem[] {
  const rows = z.array(GatewayItemSchema).parse(answer);
  return sortedUnique(rows.map(item));
}

/** A CSV text (RFC 4180: quoted fields, doubled quotes) as rows of fields. */
export function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += ch;
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((f) => f !== ""));
}

/** SGT's items as CSV (cod_item, cod_item_pai, nome, situacao, dat_versao) as our items. */
export function itemsFromSgtCsv(text: string): TableItem[] {
  const [header, ...rows] = csvRows(text);
  const column = (name: string): number => {
    const at = header?.indexOf(name) ?? -1;
    if (at < 0) throw new Error(`the CSV has no column "${name}" (header: ${header?.join(",")})`);
    return at;
  };
  const at = {
    code: column("cod_item"),
    parent: column("cod_item_pai"),
    name: column("nome"),
    situacao: column("situacao"),
    version: column("dat_versao"),
  };
  const objects = rows.map((r) => ({
    cod_item: r[at.code],
    cod_item_pai: r[at.parent] === "" ? null : r[at.parent],
    nome: r[at.name],
    situacao: r[at.situacao],
    dat_versao: r[at.version],
  }));
  return itemsFromGateway(objects);
}

function sortedUnique(items: TableItem[]): TableItem[] {
  const byCode = new Map<number, TableItem>();
  for (const it of items) {
    const seen = byCode.get(it.code);
    if (seen !== undefined && seen.version >= it.version) continue;
    byCode.set(it.code, it);
  }
  return [...byCode.values()].sort((a, b) => a.code - b.code);
}

/** The table file, checked by our schema and every parent present. */
export function tableFile(
  table: TableName,
  items: TableItem[],
  source: Omit<TableSource, "newestItem">,
): TableFile {
  const codes = new Set(items.map((i) => i.code));
  const orphans = items.filter((i) => i.parent !== null && !codes.has(i.parent));
  if (orphans.length > 0) {
    const list = orphans.map((i) => `${i.code} (parent ${i.parent})`).join(", ");
    throw new Error(`${table}: items whose parent is not in the table: ${list}`);
  }
  const newestItem =
    items
      .map((i) => i.version)
      .sort()
      .at(-1) ?? "1970-01-01";
  return TableFileSchema.parse({ table, source: { ...source, newestItem }, items });
}

/** One item a line, so a refresh's diff reads item by item. */
export function tableText(file: TableFile): string {
  const head = JSON.stringify({ table: file.table, source: file.source }, null, 2);
  const items = file.items.map((i) => `    ${JSON.stringify(i)}`).join(",\n");
  return `${head.slice(0, -2)},\n  "items": [\n${items}\n  ]\n}\n`;
}

async function fromGateway(table: TableName): Promise<TableItem[]> {
  const url = `${GATEWAY}/${TABLES[table].path}`;
  const answer = await fetch(url, { headers: { accept: "application/json" } });
  if (!answer.ok) throw new Error(`${url}: HTTP ${answer.status}`);
  return itemsFromGateway(await answer.json());
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      "sgt-csv": { type: "string" },
      via: { type: "string" },
      retrieved: { type: "string" },
    },
  });
  const root = fileURLToPath(new URL("../", import.meta.url));
  const today = new Date().toISOString().slice(0, 10);
  const csv = values["sgt-csv"]?.split(",");
  if (csv !== undefined && (csv.length !== 2 || values.via === undefined)) {
    throw new Error("--sgt-csv takes movements.csv,classes.csv and needs --via naming the copy");
  }
  for (const [index, table] of (["movements", "classes"] as const).entries()) {
    const path = csv?.[index];
    const items =
      path === undefined ? await fromGateway(table) : itemsFromSgtCsv(readFileSync(path, "utf8"));
    const source: Omit<TableSource, "newestItem"> = {
      publisher: `CNJ, Tabela Processual Unificada de ${table === "movements" ? "Movimentos" : "Classes"}`,
      url: `${GATEWAY}/${TABLES[table].path}`,
      licence: LICENCE,
      retrieved: values.retrieved ?? today,
    };
    if (values.via !== undefined) source.via = values.via;
    const file = tableFile(table, items, source);
    writeFileSync(`${root}${TABLES[table].file}`, tableText(file));
    process.stdout.write(
      `wrote ${TABLES[table].file}: ${file.items.length} items, newest ${file.source.newestItem}\n`,
    );
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `tpu:refresh: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 1;
  });
}
