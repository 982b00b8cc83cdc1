/*
 * The little of Markdown the docs tests read: the anchors GitHub gives a page's headings and the
 * relative links a page makes. Fenced code is skipped: a `](x)` in an example is not a link.
 */

/** The lines of a page outside fenced code blocks. */
export function proseLines(text: string): string[] {
  let fenced = false;
  const lines: string[] = [];
  for (const line of text.split("\n")) {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (!fenced) lines.push(line);
  }
  return lines;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor of a page: a repeated heading gets `-1`, `-2`... as GitHub numbers them. */
export function headingAnchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of proseLines(text)) {
    const heading = /^#{1,6} (.+)$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = headingSlug(heading);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

export interface MarkdownLink {
  /** The file part, relative to the page ("" for a link within the page). */
  path: string;
  /** The part after `#`, or null. */
  anchor: string | null;
  line: number;
}

/** The page's links that stay in the repository (no scheme, no `mailto:`). */
export function relativeLinks(text: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  let fenced = false;
  text.split("\n").forEach((line, i) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced) return;
    // Inline code is text, not a link: `[x](y)` in backticks is left alone.
    const prose = line.replace(/`[^`]*`/g, (code) => (code.includes("](") ? "" : code));
    for (const match of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1] ?? "";
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const hash = target.indexOf("#");
      links.push({
        path: hash === -1 ? target : target.slice(0, hash),
        anchor: hash === -1 ? null : target.slice(hash + 1),
        line: i + 1,
      });
    }
  });
  return links;
}
