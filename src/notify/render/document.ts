import {
  breaks,
  escapeHtml,
  htmlDocument,
  keepNumbersWhole,
  type RenderedAlert,
  STYLES,
  tag,
} from "./email-kit.js";

/*
 * One e-mail, written once: each kind builds an `EmailDocument` from its payload and the two
 * writers below turn it into the text part and the HTML part, so the two parts cannot say
 * different things. Every string in a document is plain text, whoever wrote it (a label, DataJud,
 * DJEN, an error message): the HTML writer escapes all of it, the only markup is the writer's own.
 * Pure.
 */

/**
 * A run of text: plain, in bold, a command the reader may type, or an address to open (only one
 * the monitor built itself, never one from DataJud or DJEN: the HTML part makes it a link).
 */
export type Span =
  | string
  | { readonly strong: string }
  | { readonly code: string }
  | { readonly link: string };
/** A line's text: one plain string, or runs of it. */
export type Inline = string | readonly Span[];

/**
 * How quiet a line is: `body` the default, `meta` under a title, `muted` and `small` for detail,
 * `footer` for the closing lines, `attention` for what a person must see (a box in HTML).
 */
export type Tone = "body" | "meta" | "muted" | "small" | "footer" | "attention";

/** A line with its own tone, where a list's default does not fit. */
export interface TonedLine {
  readonly text: Inline;
  readonly tone: Tone;
}
export type Line = Inline | TonedLine;

export interface ListItem {
  readonly title: Line;
  /** Under the title: indented in text, on their own lines in HTML. */
  readonly lines?: readonly Line[];
}

/** A key and its value: "Categoria: Em andamento". */
export interface Row {
  readonly key: string;
  readonly value: string;
  readonly tone?: Tone;
}

/** A numbered part with its own blocks: one case of a digest. */
export interface Entry {
  readonly title: string;
  readonly blocks: readonly Block[];
}

export type Block =
  /**
   * `title` as written (the page's h1); `section` in capitals in text, an h2 (the h1 when it opens
   * the mail); `minor` in capitals in text, a bold muted line in HTML.
   */
  | {
      readonly kind: "heading";
      readonly level: "title" | "section" | "minor";
      readonly text: string;
    }
  | { readonly kind: "paragraph"; readonly text: Inline; readonly tone?: Tone }
  | { readonly kind: "rows"; readonly rows: readonly Row[] }
  /** `spaced`: a blank line before each item in text. `lineTone`: of the items' lines, muted unless said. */
  | {
      readonly kind: "list";
      readonly items: readonly ListItem[];
      readonly ordered?: boolean;
      readonly spaced?: boolean;
      readonly lineTone?: Tone;
    }
  /** A box in HTML; its heading in capitals in text. */
  | { readonly kind: "notice"; readonly heading: string; readonly blocks: readonly Block[] }
  /** "1. title" with its blocks indented in text; a numbered h2 each in HTML. */
  | { readonly kind: "entries"; readonly entries: readonly Entry[] }
  /** Text a court wrote, shown as it came (its line breaks kept): boxed apart in HTML. */
  | { readonly kind: "quote"; readonly text: string }
  /** A blank line in text; HTML's margins already separate its parts. */
  | { readonly kind: "gap" };

export interface EmailDocument {
  /** The HTML page's title. */
  readonly subject: string;
  /** "pt-BR" for the lawyers' mail, "en" for the operator's (docs/alerts.md, "Languages"). */
  readonly lang: "pt-BR" | "en";
  /**
   * A heading atop the HTML page only: a short mail's text part opens with its message, the
   * Subject header already names it, while the HTML page shows a title.
   */
  readonly pageTitle?: string;
  readonly blocks: readonly Block[];
}

export const GAP: Block = { kind: "gap" };

export function heading(level: "title" | "section" | "minor", text: string): Block {
  return { kind: "heading", level, text };
}

export function para(text: Inline, tone: Tone = "body"): Block {
  return { kind: "paragraph", text, tone };
}

export function toned(tone: Tone, text: Inline): TonedLine {
  return { tone, text };
}

function isToned(line: Line): line is TonedLine {
  return typeof line === "object" && !Array.isArray(line) && "tone" in line;
}

function lineText(line: Line): Inline {
  return isToned(line) ? line.text : line;
}

function spans(text: Inline): readonly Span[] {
  return typeof text === "string" ? [text] : text;
}

// ---- text ----

function plain(text: Inline): string {
  return spans(text)
    .map((s) =>
      typeof s === "string" ? s : "strong" in s ? s.strong : "code" in s ? `\`${s.code}\`` : s.link,
    )
    .join("");
}

/** Every line of `text`, the first after `first`, the rest after `rest`. */
function hanging(text: string, first: string, rest: string): string[] {
  return text.split("\n").map((line, i) => `${i === 0 ? first : rest}${line}`);
}

function indent(lines: readonly string[], by: string): string[] {
  return lines.map((l) => `${by}${l}`);
}

function listText(block: Extract<Block, { kind: "list" }>): string[] {
  const out: string[] = [];
  block.items.forEach((item, i) => {
    const marker = block.ordered === true ? `${i + 1}. ` : "- ";
    const under = block.ordered === true ? "   " : "  ";
    if (block.spaced === true) out.push("");
    out.push(...hanging(plain(lineText(item.title)), marker, under));
    for (const line of item.lines ?? []) out.push(...hanging(plain(lineText(line)), under, under));
  });
  return out;
}

function blockText(block: Block): string[] {
  switch (block.kind) {
    case "heading":
      return [block.level === "title" ? block.text : block.text.toUpperCase()];
    case "paragraph":
      return plain(block.text).split("\n");
    case "rows":
      return block.rows.flatMap((r) => `${r.key}: ${r.value}`.split("\n"));
    case "list":
      return listText(block);
    case "notice":
      return [block.heading.toUpperCase(), ...block.blocks.flatMap(blockText)];
    case "entries":
      return block.entries.flatMap((entry, i) => [
        ...hanging(entry.title, `${i + 1}. `, "   "),
        ...indent(blockLines(entry.blocks), "   "),
        "",
      ]);
    case "quote":
      return block.text.split("\n");
    case "gap":
      return [""];
  }
}

function blockLines(blocks: readonly Block[]): string[] {
  return blocks.flatMap(blockText);
}

/** The text part: one line per line of the document, and a final newline. */
export function writeText(doc: EmailDocument): string {
  return `${blockLines(doc.blocks).join("\n")}\n`;
}

// ---- HTML ----

const TONE_STYLE: Record<Tone, string> = {
  body: STYLES.p,
  meta: STYLES.meta,
  muted: STYLES.muted,
  small: STYLES.small,
  footer: STYLES.footer,
  attention: STYLES.attention,
};

const QUOTE_STYLE = `${STYLES.p}padding:10px 12px;border:1px solid #e4e4e7;background:#fafafa;`;

/** `whole`: CNJ numbers kept on one line (never inside a link's address). */
function inlineHtml(text: Inline, whole = false): string {
  const words = (t: string): string => {
    const escaped = breaks(escapeHtml(t));
    return whole ? keepNumbersWhole(escaped) : escaped;
  };
  return spans(text)
    .map((s) =>
      typeof s === "string"
        ? words(s)
        : "strong" in s
          ? `<strong>${words(s.strong)}</strong>`
          : "code" in s
            ? `<code>${escapeHtml(s.code)}</code>`
            : `<a href="${escapeHtml(s.link)}">${escapeHtml(s.link)}</a>`,
    )
    .join("");
}

/** A line inside a list item: its tone as a span; body text as it is. */
function lineHtml(line: Line, fallback: Tone): string {
  const tone = isToned(line) ? line.tone : fallback;
  const inner = inlineHtml(lineText(line));
  return tone === "body" ? inner : tag("span", TONE_STYLE[tone], inner);
}

interface HtmlContext {
  /** The first heading has been written (it is the page's h1). */
  titled: boolean;
  /** Inside a notice: lists sit closer to its heading. */
  inNotice: boolean;
}

function listHtml(block: Extract<Block, { kind: "list" }>, ctx: HtmlContext): string {
  const items = block.items.map((item) => {
    const title = isToned(item.title)
      ? lineHtml(item.title, "body")
      : inlineHtml(lineText(item.title));
    const lines = (item.lines ?? []).map((l) => lineHtml(l, block.lineTone ?? "muted"));
    return tag("li", STYLES.li, [title, ...lines].join("<br>"));
  });
  const style = ctx.inNotice ? `${STYLES.ul}margin-top:6px;` : STYLES.ul;
  return tag(block.ordered === true ? "ol" : "ul", style, items.join(""));
}

function headingHtml(level: "title" | "section", text: string, ctx: HtmlContext): string {
  const h1 = level === "title" || !ctx.titled;
  ctx.titled = true;
  return tag(h1 ? "h1" : "h2", h1 ? STYLES.h1 : STYLES.h2, keepNumbersWhole(escapeHtml(text)));
}

function blockHtml(block: Block, ctx: HtmlContext): string[] {
  switch (block.kind) {
    case "heading":
      return block.level === "minor"
        ? [tag("p", STYLES.muted, `<strong>${escapeHtml(block.text)}</strong>`)]
        : [headingHtml(block.level, block.text, ctx)];
    case "paragraph": {
      const tone = block.tone ?? "body";
      return [tag("p", TONE_STYLE[tone], inlineHtml(block.text, tone === "meta"))];
    }
    case "rows":
      return block.rows.map((r) =>
        tag(
          "p",
          TONE_STYLE[r.tone ?? "body"],
          `<strong>${escapeHtml(r.key)}:</strong> ${breaks(escapeHtml(r.value))}`,
        ),
      );
    case "list":
      return [listHtml(block, ctx)];
    case "notice": {
      const inner = block.blocks.flatMap((b) => blockHtml(b, { ...ctx, inNotice: true }));
      return [
        tag(
          "div",
          STYLES.attention,
          `<strong>${escapeHtml(block.heading)}</strong>${inner.join("")}`,
        ),
      ];
    }
    case "entries":
      return block.entries.flatMap((entry, i) => [
        headingHtml("section", `${i + 1}. ${entry.title}`, ctx),
        ...entry.blocks.flatMap((b) => blockHtml(b, ctx)),
      ]);
    case "quote":
      return [tag("div", QUOTE_STYLE, breaks(escapeHtml(block.text)))];
    case "gap":
      return [];
  }
}

/** The HTML part: the page around the document's blocks, every string escaped here. */
export function writeHtml(doc: EmailDocument): string {
  const ctx: HtmlContext = { titled: false, inNotice: false };
  const top = doc.pageTitle === undefined ? [] : [headingHtml("title", doc.pageTitle, ctx)];
  return htmlDocument(
    doc.subject,
    [...top, ...doc.blocks.flatMap((b) => blockHtml(b, ctx))],
    doc.lang,
  );
}

/** Both parts of one e-mail, with its subject. */
export function renderDocument(doc: EmailDocument): RenderedAlert {
  return { subject: doc.subject, text: writeText(doc), html: writeHtml(doc) };
}
