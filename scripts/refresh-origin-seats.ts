import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { IBGE_UF, type Uf } from "../src/time/calendar/court-seat.js";
import { type OriginSeat, parseOriginSeats } from "../src/time/calendar/origin-seats.js";
import { csvRows } from "./refresh-tpu.js";

/*
 * Rewrites one court's entries of src/time/calendar/origin-seats.json from a published list of
 * its origin codes (`npm run seats:refresh`), placing each unit at its municipality's IBGE code.
 *
 *   npm run seats:refresh -- --court tjrs --segment 8 --tribunal 21 --uf rs \
 *     --list foros.csv --ibge municipios.csv --url "<where the list was read>" \
 *     --source "TJRS, Numeração Única (...): {code} '{unit}', Comarca de {comarca}" \
 *     [--unit "{unit} (Comarca de {comarca})"] [--alias "Santana do Livramento=Sant'Ana do Livramento"]
 *
 * --list: CSV with the columns code, unit, municipality and optionally comarca, one row per code
 * of the source (how the committed lists were made: the R data sets named in each entry's
 * `source`, read with Python's rdata and written as CSV). --ibge: IBGE's municipalities as CSV
 * with codigo_ibge and nome (kelvins/municipios-brasileiros csv/municipios.csv). A municipality
 * is matched by name within the state, ignoring case, accents, hyphens and apostrophes; --alias
 * maps a name the list spells otherwise, or a district, to the municipality's IBGE name. A row
 * whose name matches none is left out and printed. The court's entries read from the same --url
 * are replaced; entries from other sources (hand-read pairings) are kept and win over the list.
 */

/** A name folded for matching: lower case, no accents, hyphens and apostrophes as spaces. */
export function foldName(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{Mn}/gu, "")
    .toLowerCase()
    .replace(/[-'’]/gu, " ")
    .replace(/\s+/gu, " ")
    .trim();
}

export interface Municipality {
  ibge: number;
  name: string;
}

/** IBGE's municipalities of one state (`codigo_ibge`, `nome`), by folded name. */
export function municipalitiesOf(ibgeCsv: string, uf: Uf): Map<string, Municipality> {
  const [header, ...rows] = csvRows(ibgeCsv);
  const code = header?.indexOf("codigo_ibge") ?? -1;
  const name = header?.indexOf("nome") ?? -1;
  if (code < 0 || name < 0) throw new Error("the IBGE CSV needs the columns codigo_ibge and nome");
  const byName = new Map<string, Municipality>();
  for (const row of rows) {
    const ibge = Number(row[code]);
    const municipality = row[name] ?? "";
    if (Math.floor(ibge / 100_000) !== IBGE_UF[uf]) continue;
    byName.set(foldName(municipality), { ibge, name: municipality });
  }
  return byName;
}

export interface ListOptions {
  court: string;
  segment: string;
  tribunal: string;
  uf: Uf;
  url: string | null;
  /** The entry's source line: {code}, {unit}, {comarca}, {municipality} are the row's. */
  source: string;
  /** The entry's unit: as `source`; absent: the row's unit. */
  unit?: string | undefined;
  /** A name as the list spells it -> the municipality's IBGE name. */
  aliases?: ReadonlyMap<string, string>;
}

function fill(template: string, row: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/gu, (whole, key: string) => row[key] ?? whole);
}

/** The seats a list names, and the rows placed nowhere. */
export function seatsFromList(
  listCsv: string,
  municipalities: ReadonlyMap<string, Municipality>,
  options: ListOptions,
): { seats: OriginSeat[]; unplaced: string[] } {
  const [header, ...rows] = csvRows(listCsv);
  const column = (name: string): number => header?.indexOf(name) ?? -1;
  const at = { code: column("code"), unit: column("unit"), municipality: column("municipality") };
  if (at.code < 0 || at.unit < 0 || at.municipality < 0) {
    throw new Error(
      "the list needs the columns code, unit and municipality (and may have comarca)",
    );
  }
  const comarcaAt = column("comarca");
  const seats: OriginSeat[] = [];
  const unplaced: string[] = [];
  for (const cells of rows) {
    const row = {
      code: (cells[at.code] ?? "").trim().padStart(4, "0"),
      unit: (cells[at.unit] ?? "").trim(),
      municipality: (cells[at.municipality] ?? "").trim(),
      comarca: comarcaAt < 0 ? "" : (cells[comarcaAt] ?? "").trim(),
    };
    const name = options.aliases?.get(row.municipality) ?? row.municipality;
    const municipality = municipalities.get(foldName(name));
    if (!/^\d{4}$/u.test(row.code) || municipality === undefined) {
      unplaced.push(`${row.code} ${row.unit} (${row.municipality})`);
      continue;
    }
    seats.push({
      segment: options.segment,
      tribunal: options.tribunal,
      origin: row.code,
      court: options.court,
      unit: options.unit === undefined ? row.unit : fill(options.unit, row),
      municipality,
      uf: options.uf,
      source: fill(options.source, row),
      url: options.url,
    });
  }
  return { seats, unplaced };
}

/**
 * `current` with the court's entries from `url` replaced by `fresh`: a code listed before keeps
 * its place, a new one goes after the last entry replaced (or last), a code the list no longer
 * has is dropped, and a code another source already places keeps that entry.
 */
export function mergeSeats(
  current: readonly OriginSeat[],
  fresh: readonly OriginSeat[],
  court: string,
  url: string | null,
): OriginSeat[] {
  const key = (seat: OriginSeat) => `${seat.segment}.${seat.tribunal}.${seat.origin}`;
  const replaced = (seat: OriginSeat) => seat.court === court && seat.url === url;
  const waiting = new Map(fresh.map((seat) => [key(seat), seat]));
  const merged: OriginSeat[] = [];
  let insertAt = -1;
  for (const seat of current) {
    if (!replaced(seat)) {
      merged.push(seat);
      waiting.delete(key(seat));
      continue;
    }
    const update = waiting.get(key(seat));
    if (update !== undefined) merged.push(update);
    waiting.delete(key(seat));
    insertAt = merged.length;
  }
  const added = [...waiting.values()].sort((a, b) => a.origin.localeCompare(b.origin));
  merged.splice(insertAt < 0 ? merged.length : insertAt, 0, ...added);
  return merged;
}

function main(): void {
  const { values } = parseArgs({
    options: {
      court: { type: "string" },
      segment: { type: "string" },
      tribunal: { type: "string" },
      uf: { type: "string" },
      list: { type: "string" },
      ibge: { type: "string" },
      url: { type: "string" },
      source: { type: "string" },
      unit: { type: "string" },
      alias: { type: "string", multiple: true },
    },
  });
  const { court, segment, tribunal, uf, list, ibge, source } = values;
  if (
    court === undefined ||
    segment === undefined ||
    tribunal === undefined ||
    uf === undefined ||
    list === undefined ||
    ibge === undefined ||
    source === undefined
  ) {
    throw new Error("needs --court, --segment, --tribunal, --uf, --list, --ibge and --source");
  }
  if (!(uf in IBGE_UF)) throw new Error(`--uf ${uf} is no state`);
  const aliases = new Map(
    (values.alias ?? []).map((pair) => {
      const [from = "", to = ""] = pair.split("=");
      return [from, to] as const;
    }),
  );
  const file = fileURLToPath(new URL("../src/time/calendar/origin-seats.json", import.meta.url));
  const json = JSON.parse(readFileSync(file, "utf8")) as { about: string; seats: unknown };
  const url = values.url ?? null;
  const { seats, unplaced } = seatsFromList(
    readFileSync(list, "utf8"),
    municipalitiesOf(readFileSync(ibge, "utf8"), uf as Uf),
    { court, segment, tribunal, uf: uf as Uf, url, source, unit: values.unit, aliases },
  );
  const merged = mergeSeats(parseOriginSeats(json), seats, court, url);
  // Checked as the monitor will read it before anything is written.
  parseOriginSeats({ about: json.about, seats: merged });
  writeFileSync(file, `${JSON.stringify({ about: json.about, seats: merged }, null, 2)}\n`);
  process.stdout.write(
    `wrote src/time/calendar/origin-seats.json: ${seats.length} ${court} codes from the list, ${merged.length} entries in all\n`,
  );
  for (const row of unplaced)
    process.stdout.write(`not placed (no municipality of that name): ${row}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (error: unknown) {
    process.stderr.write(
      `seats:refresh: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 1;
  }
}
