import { formatInstant, formatWallClock } from "../../datajud/dates.js";
import { oneLine } from "../../text.js";

/*
 * What every e-mail we render shares: the two clocks dates are shown in, HTML escaping, inline
 * styles and the page. Text from a label, DataJud or an error message is made safe by `oneLine`
 * and `paragraph` (`text.ts`).
 */

export interface RenderedAlert {
  subject: string;
  text: string;
  html: string;
}

export const ATTENTION_MARKER = "⚠";
export const URGENT_MARKER = "⚠ URGENTE";
export const NOT_LEGAL_ADVICE = "Não é aconselhamento jurídico.";

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** A DataJud date as the court recorded it, never shifted; "sem data" when DataJud gave none. */
export function courtTime(value: string | null): string {
  return value === null ? "sem data" : oneLine(formatWallClock(value));
}

/** One of our own instants (fetched, generated, checked at) in the schedule's time zone. */
export function instantTime(iso: string, timeZone: string): string {
  return oneLine(formatInstant(iso, timeZone));
}

/** Says which clock each kind of time in an e-mail follows. */
export function clocksNote(timeZone: string): string {
  return `Datas das movimentações e do DataJud como o tribunal as registrou; demais horários em ${oneLine(timeZone, 60)}.`;
}

/** Inline styles only: mail clients drop <style> blocks and remote CSS. */
export const STYLES = {
  body: "margin:0;padding:0;background:#f4f4f5;",
  card: "max-width:640px;margin:0 auto;padding:16px;background:#ffffff;color:#18181b;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5;overflow-wrap:break-word;word-wrap:break-word;",
  h1: "font-size:20px;line-height:1.3;margin:0 0 4px;",
  meta: "margin:0 0 4px;color:#52525b;font-size:14px;",
  h2: "font-size:17px;margin:20px 0 8px;padding-top:12px;border-top:1px solid #e4e4e7;",
  attention:
    "margin:16px 0;padding:10px 12px;border-left:4px solid #b45309;background:#fffbeb;color:#78350f;",
  p: "margin:0 0 10px;",
  before: "color:#71717a;",
  muted: "color:#71717a;font-size:14px;",
  ul: "margin:0 0 10px;padding-left:20px;",
  li: "margin:0 0 8px;",
  small: "margin:0 0 4px;color:#52525b;font-size:14px;",
  footer: "margin:16px 0 0;color:#52525b;font-size:13px;",
} as const;

export function tag(name: string, style: string, inner: string): string {
  return `<${name} style="${style}">${inner}</${name}>`;
}

/** A CNJ number as written: NNNNNNN-DD.AAAA.J.TR.OOOO. */
const CNJ_NUMBER = /\b\d{7}-\d{2}\.\d{4}\.\d\.\d{2}\.\d{4}\b/gu;

/**
 * Keeps each CNJ number of an already escaped heading on one line: a phone's mail app otherwise
 * breaks "0708123-34.2024.8.07.0001" at its hyphen, and half a number reads as another case.
 */
export function keepNumbersWhole(escaped: string): string {
  return escaped.replace(CNJ_NUMBER, (n) => `<span style="white-space:nowrap">${n}</span>`);
}

/** Keeps line breaks of an already escaped paragraph. */
export function breaks(escaped: string): string {
  return escaped.replace(/\n/g, "<br>");
}

/** The page around already escaped parts; `subject` is escaped here. */
/** `lang`: "pt-BR" for the lawyers' mail, "en" for the operator's (docs/alerts.md, "Languages"). */
export function htmlDocument(
  subject: string,
  parts: readonly string[],
  lang: "pt-BR" | "en" = "pt-BR",
): string {
  return [
    "<!DOCTYPE html>",
    `<html lang="${lang}">`,
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(subject)}</title></head>`,
    `<body style="${STYLES.body}">`,
    tag("div", STYLES.card, parts.join("\n")),
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
