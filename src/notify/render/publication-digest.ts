import { courtDocumentLink } from "../../datajud/court-links.js";
import { oneLine, paragraph } from "../../text.js";
import { ackLine } from "./acknowledgement.js";
import { datesLine as estimateDatesLine } from "./deadline-text.js";
import { type Block, GAP, heading, toned } from "./document.js";
import { URGENT_MARKER } from "./email-kit.js";
import {
  headerLines,
  kindText,
  OUTSIDE_WATCHLIST,
  type PublicationAlertContent,
  publicationName,
} from "./publication-alert.js";
import { sourcesFooter } from "./sources-line.js";

/*
 * DJEN publications in a digest: those in cases outside the watchlist first, apart, then those of
 * watched cases, then corrections of publications DJEN cancelled; urgent ones first within each.
 * A digest shows the start of each text; the e-mail of one publication shows it whole.
 */

const TEXT_SHOWN = 600;

function itemKey(p: PublicationAlertContent): string {
  return `${p.djenId}|${p.notice}`;
}

export interface PublicationSection {
  heading: string;
  items: PublicationAlertContent[];
}

function urgentFirst(items: readonly PublicationAlertContent[]): PublicationAlertContent[] {
  return items
    .map((content, index) => ({ content, index }))
    .sort((a, b) => Number(b.content.urgent) - Number(a.content.urgent) || a.index - b.index)
    .map((entry) => entry.content);
}

/** One entry per DJEN id and notice, in the order the sections are shown. */
export function publicationSections(
  items: readonly PublicationAlertContent[],
): PublicationSection[] {
  const seen = new Set<string>();
  const unique = items.filter((p) => {
    const key = itemKey(p);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const published = unique.filter((p) => p.notice === "published");
  // The party radar's news of a new lawsuit (docs/radar.md) first: it is not a publication of a
  // case anyone follows yet.
  const news = (p: PublicationAlertContent): boolean => p.radar !== undefined && !p.radar.later;
  const sections: PublicationSection[] = [
    {
      heading: "Possíveis novas ações contra clientes (radar de partes)",
      items: urgentFirst(published.filter(news)),
    },
    {
      heading: "Publicações em processos fora da lista",
      items: urgentFirst(published.filter((p) => p.outsideWatchlist && !news(p))),
    },
    {
      heading: "Publicações no DJEN",
      items: urgentFirst(published.filter((p) => !p.outsideWatchlist)),
    },
    {
      heading: "Publicações canceladas (correção)",
      items: unique.filter((p) => p.notice === "cancelled"),
    },
    {
      heading: "Prazos reestimados (correção)",
      items: unique.filter((p) => p.notice === "re-estimated"),
    },
  ];
  return sections.filter((s) => s.items.length > 0);
}

export function publicationsPhrase(items: readonly PublicationAlertContent[]): string | null {
  const counted = publicationSections(items).flatMap((s) => s.items);
  const published = counted.filter((p) => p.notice === "published").length;
  const cancelled = counted.filter((p) => p.notice === "cancelled").length;
  const reestimated = counted.filter((p) => p.notice === "re-estimated").length;
  const parts: string[] = [];
  if (published > 0) {
    parts.push(published === 1 ? "1 publicação no DJEN" : `${published} publicações no DJEN`);
  }
  if (cancelled > 0) {
    parts.push(cancelled === 1 ? "1 publicação cancelada" : `${cancelled} publicações canceladas`);
  }
  if (reestimated > 0) {
    parts.push(reestimated === 1 ? "1 prazo reestimado" : `${reestimated} prazos reestimados`);
  }
  return parts.length === 0 ? null : parts.join(", ");
}

function title(content: PublicationAlertContent): string {
  const marker = content.urgent && content.notice === "published" ? `${URGENT_MARKER} ` : "";
  const radar = content.radar;
  if (radar !== undefined && !radar.later && content.notice === "published") {
    return `${marker}Possível nova ação contra ${oneLine(radar.party, 80)} · ${publicationName(content)}`;
  }
  const what =
    content.notice === "cancelled"
      ? `${kindText(content)} cancelada`
      : content.notice === "re-estimated"
        ? `${kindText(content)}: prazo reestimado`
        : kindText(content);
  return `${marker}${what} · ${publicationName(content)}`;
}

function datesLine(content: PublicationAlertContent): string {
  return estimateDatesLine(content);
}

function excerpt(content: PublicationAlertContent): string {
  const text = paragraph(content.text, TEXT_SHOWN).replace(/\n+/g, " ");
  return text === "" ? "(sem texto)" : text;
}

function entryLines(content: PublicationAlertContent, timeZone: string): string[] {
  const lines = [
    ...headerLines(content).filter((l) => !l.startsWith(OUTSIDE_WATCHLIST)),
    datesLine(content),
  ];
  if (content.documentType !== null) lines.push(`Documento: ${oneLine(content.documentType, 60)}`);
  if (content.notice === "cancelled") {
    const reason = content.cancellation?.reason ?? null;
    lines.push(
      `Cancelada pelo tribunal; motivo: ${reason === null ? "não informado" : oneLine(reason, 300)}`,
    );
  }
  lines.push(`Texto: ${excerpt(content)}`);
  if (content.certificateUrl !== null) lines.push(`Certidão: ${content.certificateUrl}`);
  const link = courtDocumentLink(content.link);
  if (link !== null) lines.push(`Documento no tribunal: ${link}`);
  lines.push(...sourcesFooter(content.sources, timeZone));
  return lines;
}

/**
 * Each section under its heading and count, its publications numbered; an item whose row asks
 * for an acknowledgement (`acks`, in the order of `items`; null: none) carries its link first.
 */
export function publicationSectionBlocks(
  items: readonly PublicationAlertContent[],
  timeZone: string,
  acks: readonly (string | null)[] = [],
): Block[] {
  const links = new Map<string, string[]>();
  items.forEach((item, i) => {
    const url = acks[i] ?? null;
    if (url !== null) links.set(itemKey(item), [...(links.get(itemKey(item)) ?? []), url]);
  });
  return publicationSections(items).flatMap((section): Block[] => [
    heading("section", `${section.heading} (${section.items.length})`),
    {
      kind: "list",
      ordered: true,
      items: section.items.map((content) => ({
        title: [{ strong: title(content) }],
        lines: [
          ...(links.get(itemKey(content)) ?? []).map((url) => toned("body", ackLine(url))),
          ...entryLines(content, timeZone),
        ],
      })),
    },
    GAP,
  ]);
}
