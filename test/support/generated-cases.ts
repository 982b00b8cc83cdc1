import { computeCheckDigits, formatCnjNumber } from "../../src/datajud/cnj-number.js";
import { NO_ALERT_POLICY } from "../../src/policy/alert-rules.js";
import type { WatchedCase } from "../../src/watchlist/parse-watchlist.js";
import type { FakeDocument } from "../fakes/fake-datajud.js";

/** Five courts of four segments: state, federal and labour. */
export const FIVE_COURTS = [
  { alias: "tjsp", segment: "8", tribunal: "26" },
  { alias: "tjrj", segment: "8", tribunal: "19" },
  { alias: "trf3", segment: "4", tribunal: "03" },
  { alias: "trt15", segment: "5", tribunal: "15" },
  { alias: "tjba", segment: "8", tribunal: "05" },
] as const;

/** A first-instance record with the given update time and movements. */
export function generatedSource(
  digits: string,
  updatedAt: string,
  movements: unknown[],
): Record<string, unknown> {
  return {
    numeroProcesso: digits,
    grau: "G1",
    classe: { codigo: 7, nome: "Procedimento Comum Cível" },
    dataHoraUltimaAtualizacao: updatedAt,
    "@timestamp": updatedAt,
    movimentos: movements,
  };
}

/**
 * `count` never-seen cases filed in 2023, dealt over FIVE_COURTS in turn, with valid check digits
 * and one movement each: the watchlist and what a fake DataJud serves for it, by court alias.
 */
export function generatedCases(
  count: number,
  firstSequence: number,
): { watchlist: WatchedCase[]; documents: Map<string, FakeDocument[]> } {
  const watchlist: WatchedCase[] = [];
  const documents = new Map<string, FakeDocument[]>();
  for (let i = 0; i < count; i++) {
    const court = FIVE_COURTS[i % FIVE_COURTS.length] ?? FIVE_COURTS[0];
    const sequence = String(firstSequence + i).padStart(7, "0");
    const check = computeCheckDigits(sequence, "2023", court.segment, court.tribunal, "0100");
    const digits = `${sequence}${check}2023${court.segment}${court.tribunal}0100`;
    watchlist.push({
      number: formatCnjNumber(digits),
      digits,
      court: court.alias,
      label: null,
      notify: [],
      channels: [],
      policy: NO_ALERT_POLICY,
      line: i + 1,
    });
    const list = documents.get(court.alias) ?? [];
    list.push({
      _id: `${court.alias}_${digits}`,
      _source: generatedSource(digits, "2025-01-01T00:00:00.000Z", [
        { codigo: 26, nome: "Distribuição", dataHora: "2023-02-01T10:00:00.000Z" },
      ]),
    });
    documents.set(court.alias, list);
  }
  return { watchlist, documents };
}
