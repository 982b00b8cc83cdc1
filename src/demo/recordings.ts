import { z } from "zod";
import type { RecordedState } from "./elasticsearch/documents.js";
import baselineJson from "./recordings/baseline.json" with { type: "json" };
import djenJson from "./recordings/djen.json" with { type: "json" };
import laterJson from "./recordings/later.json" with { type: "json" };

/*
 * The demo's DataJud: two recorded states of the same six invented cases in four courts. Imported
 * as JSON modules so the build copies them next to the compiled code.
 */

const Recording = z.object({
  indices: z.record(
    z.string(),
    z.array(z.object({ _id: z.string(), _source: z.record(z.string(), z.unknown()) })),
  ),
});

function recording(json: unknown, name: string): RecordedState {
  const parsed = Recording.safeParse(json);
  if (!parsed.success) throw new Error(`the bundled demo recording ${name} is damaged`);
  return parsed.data;
}

/** What DataJud holds at the first sweep. */
export function baselineState(): RecordedState {
  return recording(baselineJson, "baseline.json");
}

/** A later day: three cases moved (TJDFT, TJSP, STJ); one other was only re-indexed. */
export function laterState(): RecordedState {
  return recording(laterJson, "later.json");
}

const DjenSample = z.object({
  baseline: z.array(
    z.object({
      availableDaysAgo: z.number().int().min(0),
      item: z.record(z.string(), z.unknown()),
    }),
  ),
  later: z.array(
    z.object({
      availableDaysAgo: z.number().int().min(0),
      item: z.record(z.string(), z.unknown()),
    }),
  ),
});

export interface DjenSampleItem {
  /** Made available this many days before the day the demo runs, so it is in the sweep's window. */
  availableDaysAgo: number;
  item: Record<string, unknown>;
}

/** DJEN's sample items: what it holds at the first sweep, and what a later day adds. */
export function djenSample(): { baseline: DjenSampleItem[]; later: DjenSampleItem[] } {
  const parsed = DjenSample.safeParse(djenJson);
  if (!parsed.success) throw new Error("the bundled demo DJEN sample djen.json is damaged");
  return parsed.data;
}

/** The sample watchlist the demo sweeps: the six recorded cases, each court's way of naming it. */
export const SAMPLE_WATCHLIST = `# datajud-monitor demo: the sample watchlist (see watchlist.example.yaml for every key).
defaults:
  notify: [escritorio@example.com]
cases:
  - number: "0708123-34.2024.8.07.0001"
    label: "Condomínio Solar x Construtora Alfa (danos morais)"
    notify: [ana@example.com]
  - number: "07123456320258070016"
    label: "Juizado: conserto do carro"
  - number: "1004567-48.2023.8.26.0100"
    label: "Rescisão de compra e venda"
  - number: "1023456-85.2024.8.26.0562"
    label: "Execução de cheque"
  - number: "1001111-48.2019.8.26.0224"
    court: stj
    label: "Seguro (recurso especial)"
    notify: [rui@example.com]
  - number: "1000456-12.2024.5.02.0033"
    label: "Reclamação trabalhista (horas extras)"
`;
