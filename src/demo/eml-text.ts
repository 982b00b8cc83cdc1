/**
 * Just enough MIME to show an alert's plain-text part on a terminal: headers (unfolded, RFC 2047
 * words decoded), multipart bodies, quoted-printable and base64. Only for messages our own
 * transport wrote; anything it does not understand yields null rather than a guess.
 */

interface Part {
  headers: Map<string, string>;
  body: string;
}

function splitPart(raw: string): Part {
  const text = raw.replace(/\r\n/g, "\n");
  const end = text.indexOf("\n\n");
  const head = end === -1 ? text : text.slice(0, end);
  const body = end === -1 ? "" : text.slice(end + 2);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, " ").split("\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function parameter(header: string, name: string): string | undefined {
  const match = new RegExp(`;\\s*${name}="?([^";]+)"?`, "i").exec(header);
  return match?.[1];
}

function decodeQuotedPrintable(text: string): Buffer {
  const joined = text.replace(/=\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const char = joined[i] ?? "";
    const hex = joined.slice(i + 1, i + 3);
    if (char === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(char, "utf8"));
    }
  }
  return Buffer.from(bytes);
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  const bytes =
    encoding === "base64"
      ? Buffer.from(part.body.replace(/\s+/g, ""), "base64")
      : encoding === "quoted-printable"
        ? decodeQuotedPrintable(part.body)
        : Buffer.from(part.body, "utf8");
  return bytes.toString("utf8").replace(/\r\n/g, "\n");
}

/** `=?UTF-8?Q?...?=` and `=?UTF-8?B?...?=` words, as nodemailer writes non-ASCII subjects. */
export function decodeHeaderWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_all, _charset: string, kind: string, data) => {
      if (kind.toUpperCase() === "B") return Buffer.from(data, "base64").toString("utf8");
      return decodeQuotedPrintable(String(data).replace(/_/g, " ")).toString("utf8");
    });
}

function findText(part: Part, depth: number): string | null {
  const type = (part.headers.get("content-type") ?? "text/plain").toLowerCase();
  if (type.startsWith("text/plain")) return decodeBody(part);
  if (!type.startsWith("multipart/") || depth > 5) return null;
  const boundary = parameter(part.headers.get("content-type") ?? "", "boundary");
  if (boundary === undefined) return null;
  const sections = part.body.split(`--${boundary}`).slice(1);
  for (const section of sections) {
    if (section.startsWith("--")) break;
    // The line break before each boundary belongs to the boundary, not to the part.
    const found = findText(splitPart(section.replace(/^\n/, "").replace(/\n$/, "")), depth + 1);
    if (found !== null) return found;
  }
  return null;
}

export interface EmlSummary {
  subject: string | null;
  to: string | null;
  /** The text/plain part, decoded; null when the message has none. */
  text: string | null;
}

export function readEml(raw: string): EmlSummary {
  const message = splitPart(raw);
  const subject = message.headers.get("subject");
  const to = message.headers.get("to");
  return {
    subject: subject === undefined ? null : decodeHeaderWords(subject),
    to: to === undefined ? null : decodeHeaderWords(to),
    text: findText({ headers: message.headers, body: message.body.replace(/\r\n/g, "\n") }, 0),
  };
}
