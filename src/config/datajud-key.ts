/**
 * CNJ's wiki shows the public key as the whole header value, `APIKey <key>`, and people paste it
 * that way (often with the line break of the web page). The client sends the scheme word itself,
 * so what is pasted is reduced to the key: an optional `Authorization:` and `APIKey` word (any
 * case) and every space or line break are dropped. A key itself never has spaces.
 */
export interface DataJudKey {
  key: string;
  /** What was dropped, for `monitor doctor`; null when the value was the bare key. */
  notice: string | null;
}

const HEADER_PREFIX = /^(?:authorization\s*:\s*)?apikey(?:\s+|\s*[:=]\s*|$)/iu;

export function normalizeDataJudKey(raw: string): DataJudKey {
  const trimmed = raw.trim();
  const prefixed = HEADER_PREFIX.exec(trimmed);
  const rest = prefixed === null ? trimmed : trimmed.slice(prefixed[0].length);
  const key = rest.replace(/\s+/gu, "");
  const dropped: string[] = [];
  if (prefixed !== null) {
    dropped.push(`the "${prefixed[0].trim()}" word before it (the wiki shows the whole header)`);
  }
  if (key !== rest) dropped.push("spaces or line breaks inside it");
  return {
    key,
    notice:
      dropped.length === 0
        ? null
        : `DATAJUD_API_KEY was given with ${dropped.join(" and ")}: those were dropped, the key is sent as "Authorization: APIKey <key>"`,
  };
}
