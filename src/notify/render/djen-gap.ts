import { z } from "zod";
import { oneLine } from "../../text.js";
import { formatBrazilian } from "../../time/calendar-date.js";
import { GAP, para, renderDocument } from "./document.js";
import { instantTime, NOT_LEGAL_ADVICE, type RenderedAlert, URGENT_MARKER } from "./email-kit.js";
import { AlertSources, sourcesFooter } from "./sources-line.js";

/*
 * The lawyer's warning that one source lacks what the other has: DataJud records an act made
 * available in the DJe on a day for which DJEN, asked completely for the case, returned nothing
 * (docs/freshness.md). The net under a DJEN miss: a number written differently by the court, a
 * search that came back short. Everything is computed before it is queued.
 */

export const DjenGapWarning = z.object({
  type: z.literal("djen_gap"),
  /** Formatted CNJ number. */
  caseNumber: z.string(),
  /** DataJud alias. */
  court: z.string(),
  label: z.string().nullable(),
  /** The instance (grau) whose record names it. */
  instance: z.string(),
  /** DataJud's movement as it names it, and its date (the court's wall clock). */
  movementName: z.string(),
  /** The day DataJud says it was made available (YYYY-MM-DD). */
  availableOn: z.string(),
  /** DJEN's last complete answer for the case (our instant). */
  djenAskedAt: z.string(),
  /** A period counted from that day could still run. */
  urgent: z.boolean(),
  /** When the monitor found the gap (our instant). */
  foundAt: z.string(),
  /** The court's own public consultation of the case, when it opens by URL. */
  courtLink: z.string().nullable(),
  /** How fresh each source was for the case when it was found; absent in warnings queued before. */
  sources: AlertSources.optional(),
});
export type DjenGapWarning = z.infer<typeof DjenGapWarning>;

export function renderDjenGapSubject(w: DjenGapWarning): string {
  const label = w.label === null ? "" : ` (${oneLine(w.label, 60)})`;
  return oneLine(
    `${w.urgent ? `${URGENT_MARKER} ` : ""}Intimação no DataJud sem publicação no DJEN: ${w.caseNumber}${label}`,
    200,
  );
}

/** The warning's one sentence, as the issue and docs/freshness.md word it. */
export function djenGapSentence(w: Pick<DjenGapWarning, "availableOn">): string {
  return `O DataJud registra uma intimação disponibilizada em ${formatBrazilian(w.availableOn)} que o DJEN não devolveu: confira no tribunal.`;
}

export function renderDjenGapWarning(w: DjenGapWarning, timeZone: string): RenderedAlert {
  const subject = renderDjenGapSubject(w);
  const asked = instantTime(w.djenAskedAt, timeZone);
  const lines = [
    `Processo ${w.caseNumber} (${w.court.toUpperCase()}, ${oneLine(w.instance, 20)})${w.label === null ? "" : `: ${oneLine(w.label, 80)}`}.`,
    `Movimentação no DataJud: “${oneLine(w.movementName, 120)}” em ${formatBrazilian(w.availableOn)}.`,
    `O DJEN foi consultado por este processo até ${asked} e não devolveu nenhuma comunicação de ${formatBrazilian(w.availableOn)} (nem de três dias antes ou depois).`,
    w.urgent
      ? "Um prazo contado dessa publicação pode estar correndo: confira o teor no sistema do tribunal."
      : "A data é antiga para um prazo ainda em curso, mas confira no sistema do tribunal.",
    "Possíveis causas: número do processo escrito de outro modo pelo tribunal, publicação só no diário do próprio tribunal, ou uma resposta incompleta do DJEN.",
  ];
  const footer = [
    ...(w.courtLink === null ? [] : [`Consulta no tribunal: ${w.courtLink}`]),
    ...sourcesFooter(w.sources, timeZone),
    `Aviso gerado em ${instantTime(w.foundAt, timeZone)}. ${NOT_LEGAL_ADVICE}`,
  ];
  return renderDocument({
    subject,
    lang: "pt-BR",
    pageTitle: subject,
    blocks: [
      para(djenGapSentence(w), "attention"),
      ...lines.map((line) => para(line)),
      GAP,
      ...footer.map((line) => para(line, "footer")),
    ],
  });
}
