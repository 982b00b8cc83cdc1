import { z } from "zod";
import { formatCnjNumber } from "../datajud/cnj-number.js";
import { courtDocumentLink } from "../datajud/court-links.js";
import { type IsoDate, parseIsoDate } from "../time/calendar-date.js";
import { oabDigits } from "./oab.js";
import type { RawItem, RawLawyer, RawRecipient } from "./raw-schemas.js";

/** A lawyer a communication is addressed to, as DJEN lists them. */
export const PublicationLawyer = z.strictObject({
  name: z.string().nullable(),
  /** As the court stored it ("094719", "123456-O"): what DJEN matched. */
  oabNumber: z.string().nullable(),
  /** Its digits without leading zeros: what registrations are compared by. */
  oabDigits: z.string().nullable(),
  uf: z.string().nullable(),
});
export type PublicationLawyer = z.infer<typeof PublicationLawyer>;

/** "123456-O/SP": the registration as the court stored it, with its state; null without one. */
export function lawyerOabText(lawyer: Pick<PublicationLawyer, "oabNumber" | "uf">): string | null {
  return lawyer.oabNumber === null ? null : `${lawyer.oabNumber}/${lawyer.uf ?? "?"}`;
}

export const PublicationRecipient = z.strictObject({
  name: z.string(),
  /** A: active side, P: passive side, T, D... as DJEN sends it. */
  side: z.string().nullable(),
});
export type PublicationRecipient = z.infer<typeof PublicationRecipient>;

/**
 * One DJEN communication (intimação, citação, edital...), normalized from whichever field names
 * DJEN used. Strict: this is our shape. `text` and `raw` are DJEN's, unchanged and hostile:
 * escape or sanitize (publication-text.ts) before showing them anywhere.
 */
export const Publication = z.strictObject({
  /** DJEN's stable numeric id, as decimal text: the dedupe key. */
  id: z.string().regex(/^\d+$/),
  /** Names the certificate (`certificateUrl`). */
  hash: z.string().nullable(),
  /** 20 digits, when DJEN gave a well-formed case number. */
  caseNumber: z
    .string()
    .regex(/^\d{20}$/)
    .nullable(),
  caseNumberFormatted: z.string().nullable(),
  /** DJEN's court acronym, upper case: TJSP, TRF1, TRT2, STJ... */
  court: z.string().min(1),
  /** The court unit (órgão) that sent it. */
  courtUnit: z.string().nullable(),
  /** Intimação, Citação, Edital, Pauta de julgamento, Lista de distribuição... */
  kind: z.string().nullable(),
  /** Despacho, Sentença, Acórdão, Apelação... */
  documentType: z.string().nullable(),
  className: z.string().nullable(),
  /** The date of disponibilização (a court calendar date, no time). */
  availableOn: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** D: diário, E: edital. */
  medium: z.string().nullable(),
  /** DJEN's `texto` as received (raw HTML or text from the court's system). */
  text: z.string(),
  /**
   * The court's document link, only on a court's host (datajud/court-links.ts
   * `courtDocumentLink`). One stored before that rule may be any http(s) URL: whatever shows a
   * stored publication's link reads it through the rule again.
   */
  link: z.string().nullable(),
  /** DJEN's certificate of publication for this item. */
  certificateUrl: z.string().nullable(),
  recipients: z.array(PublicationRecipient),
  lawyers: z.array(PublicationLawyer),
  /** False once the court cancelled it (the text is then often replaced by the reason). */
  active: z.boolean(),
  cancellation: z
    .strictObject({ reason: z.string().nullable(), at: z.string().nullable() })
    .nullable(),
  /** The item exactly as DJEN sent it. */
  raw: z.record(z.string(), z.unknown()),
});
export type Publication = z.infer<typeof Publication>;

/** A publication as the monitor stores it: its text (sanitized) and raw item are kept apart. */
export const StoredPublication = Publication.omit({ text: true, raw: true });
export type StoredPublication = z.infer<typeof StoredPublication>;

export type PublicationResult = { ok: true; value: Publication } | { ok: false; problem: string };

/** The first of the variants that holds text, trimmed. */
function first(...values: Array<string | null | undefined>): string | null {
  for (const value of values) {
    const trimmed = value?.trim();
    if (trimmed) return trimmed;
  }
  return null;
}

/** `YYYY-MM-DD`, `YYYY-MM-DDThh:mm...` or `DD/MM/YYYY` as a calendar date. */
export function readDjenDate(text: string | null): IsoDate | null {
  if (text === null) return null;
  const iso = /^(\d{4}-\d{2}-\d{2})(?:[T ].*)?$/u.exec(text);
  if (iso?.[1]) return parseIsoDate(iso[1]);
  const br = /^(\d{2})\/(\d{2})\/(\d{4})$/u.exec(text);
  if (br) return parseIsoDate(`${br[3]}-${br[2]}-${br[1]}`);
  return null;
}

function readActive(value: RawItem["ativo"], cancelledReason: string | null): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  if (typeof value === "string") {
    const word = value.trim().toLowerCase();
    if (["true", "s", "sim", "1", "ativo"].includes(word)) return true;
    if (["false", "n", "nao", "não", "0", "inativo", "cancelado"].includes(word)) return false;
  }
  // Absent: a cancellation reason is the only sign left.
  return cancelledReason === null;
}

function lawyerOf(raw: RawLawyer): PublicationLawyer {
  const oabNumber = first(raw.numero_oab, raw.numeroOab, raw.numeroOAB);
  const uf = first(raw.uf_oab, raw.ufOab, raw.ufOAB)?.toUpperCase() ?? null;
  return {
    name: first(raw.nome),
    oabNumber,
    oabDigits: oabDigits(oabNumber),
    uf: uf !== null && /^[A-Z]{2}$/u.test(uf) ? uf : null,
  };
}

function recipientOf(raw: RawRecipient): PublicationRecipient[] {
  const name = first(raw.nome);
  return name === null ? [] : [{ name, side: first(raw.polo) }];
}

/** DJEN's date of disponibilização exactly as it sent it, whichever field carried it. */
export function availableOnAsSent(
  item: Pick<RawItem, "data_disponibilizacao" | "dataDisponibilizacao" | "datadisponibilizacao">,
): string | null {
  return first(item.data_disponibilizacao, item.dataDisponibilizacao, item.datadisponibilizacao);
}

/**
 * DJEN's `dataenvio` (the day the court sent the item) as a calendar date, whichever name carried
 * it; null when absent or unreadable. Read from the item as DJEN sent it: DJEN's own lag is the
 * days from it to the disponibilização.
 */
export function sentOnOf(raw: Readonly<Record<string, unknown>>): IsoDate | null {
  for (const name of ["dataenvio", "dataEnvio", "data_envio"]) {
    const value = raw[name];
    if (typeof value === "string") return readDjenDate(value.trim());
  }
  return null;
}

/**
 * The Publication an item describes, or why it describes none (no date, no court): such an item
 * cannot be checked against the query, so the answer carrying it is not used.
 */
export function toPublication(
  item: RawItem,
  raw: Record<string, unknown>,
  options: { baseUrl: string },
): PublicationResult {
  const availableOn = readDjenDate(availableOnAsSent(item));
  if (availableOn === null) {
    return { ok: false, problem: `item ${item.id} has no readable data_disponibilizacao` };
  }
  const court = first(item.siglaTribunal, item.sigla_tribunal)?.toUpperCase() ?? null;
  if (court === null) return { ok: false, problem: `item ${item.id} has no siglaTribunal` };

  const digits =
    first(item.numero_processo, item.numeroProcesso, item.numeroprocessocommascara)?.replace(
      /\D/gu,
      "",
    ) ?? "";
  const caseNumber = digits.length === 20 ? digits : null;
  const hash = first(item.hash);
  const reason = first(item.motivo_cancelamento, item.motivoCancelamento);
  const active = readActive(item.ativo, reason);
  const cancelledAt = first(item.data_cancelamento, item.dataCancelamento);
  const publication: Publication = {
    id: item.id,
    hash,
    caseNumber,
    caseNumberFormatted: caseNumber === null ? null : formatCnjNumber(caseNumber),
    court,
    courtUnit: first(item.nomeOrgao, item.nome_orgao, item.orgao),
    kind: first(item.tipoComunicacao, item.tipo_comunicacao),
    documentType: first(item.tipoDocumento, item.tipo_documento),
    className: first(item.nomeClasse, item.nome_classe),
    availableOn,
    medium: first(item.meio),
    text: item.texto ?? "",
    link: courtDocumentLink(first(item.link)),
    certificateUrl:
      hash !== null && /^[A-Za-z0-9_-]{1,200}$/u.test(hash)
        ? `${options.baseUrl}/api/v1/comunicacao/${hash}/certidao`
        : null,
    recipients: item.destinatarios.flatMap(recipientOf),
    lawyers: [...item.destinatarioadvogados, ...item.destinatarioAdvogados].flatMap((entry) =>
      entry.advogado ? [lawyerOf(entry.advogado)] : [],
    ),
    active,
    cancellation: active && reason === null ? null : { reason, at: cancelledAt },
    raw,
  };
  return { ok: true, value: publication };
}
