/**
 * Indentation mistakes in a hand-edited YAML file, said the way a person fixes them: where the
 * line really starts (the yaml library points at column 1 of the line), and which line above it
 * should line up with. Pure: the file's text in, an offset and a message out.
 */

/** yaml's errors that an indentation mistake produces, by code and what yaml says. */
const INDENT_ERRORS: Readonly<Record<string, RegExp>> = {
  TAB_AS_INDENT: /./u,
  // Not "Flow sequence in block collection must be sufficiently indented": an unclosed [.
  BAD_INDENT: /must start at the same column/iu,
  BLOCK_AS_IMPLICIT_KEY: /./u,
  // A key indented less than the mapping it follows.
  MISSING_CHAR: /sequence item without - indicator/iu,
};

export interface IndentProblem {
  /** Where the line's own text (or the offending tab) starts. */
  offset: number;
  message: string;
}

/** One line of the file, as its indentation reads. */
interface Line {
  /** 1-based. */
  number: number;
  start: number;
  text: string;
  /** 0-based column of the first character that is not a space or a tab. */
  first: number;
  /** 0-based column of the list item's '-', when the line starts one. */
  dash: number | null;
  /** 0-based column of the key or value after any '- ' markers. */
  key: number;
  /** The key's name, when the line holds `name:`. */
  name: string | null;
  /** Something follows `name:` on the same line. */
  inlineValue: boolean;
}

function readLine(text: string, start: number, number: number): Line {
  const end = text.indexOf("\n", start);
  const raw = text.slice(start, end === -1 ? text.length : end).replace(/\r$/u, "");
  const first = raw.search(/[^ \t]/u);
  let key = first === -1 ? raw.length : first;
  let dash: number | null = null;
  while (raw[key] === "-" && (key + 1 === raw.length || /[ \t]/u.test(raw[key + 1] ?? ""))) {
    dash ??= key;
    key++;
    while (raw[key] === " " || raw[key] === "\t") key++;
  }
  const rest = raw.slice(key);
  const named = /^("[^"]*"|'[^']*'|[^\s#:][^:#]*?):(?:[ \t]+(.*))?$/u.exec(rest);
  const value = named?.[2]?.replace(/(^|[ \t])#.*$/u, "").trim() ?? "";
  return {
    number,
    start,
    text: raw,
    first: first === -1 ? raw.length : first,
    dash,
    key,
    name: named?.[1] === undefined ? null : named[1].slice(0, 40),
    inlineValue: value !== "",
  };
}

/** Every line up to and including the one holding `offset`, and that line. */
function linesUpTo(text: string, offset: number): { before: Line[]; line: Line } {
  const before: Line[] = [];
  let start = 0;
  let number = 1;
  for (;;) {
    const line = readLine(text, start, number);
    const next = text.indexOf("\n", start);
    if (next === -1 || next >= offset) return { before, line };
    before.push(line);
    start = next + 1;
    number++;
  }
}

function isContent(line: Line): boolean {
  const rest = line.text.slice(line.first);
  return rest !== "" && !rest.startsWith("#") && rest !== "---";
}

function keyText(line: Line): string {
  return line.name === null ? `line ${line.number}` : `\`${line.name}:\``;
}

function at(line: Line, column: number): string {
  return `${keyText(line)} (line ${line.number}, column ${column + 1})`;
}

function tabProblem(line: Line): IndentProblem | null {
  const lead = line.text.slice(0, line.key);
  const tab = lead.indexOf("\t");
  if (tab === -1) return null;
  return {
    offset: line.start + tab,
    message:
      "YAML: a tab is used for indentation; YAML indents with spaces only: replace the tab with spaces",
  };
}

function listItemProblem(line: Line, before: readonly Line[]): IndentProblem {
  const offset = line.start + (line.dash ?? line.first);
  const column = (line.dash ?? line.first) + 1;
  const above = before.at(-1);
  // `notify: a@b.com` then `- c@d.com`: a list under a key that already has its value.
  if (above?.inlineValue === true && above.name !== null && (line.dash ?? 0) >= above.key) {
    return {
      offset,
      message: `YAML: a list item under \`${above.name}:\` (line ${above.number}), which already has a value: leave nothing after \`${above.name}:\` and put each value on a '- ' line, or write ${above.name}: [a, b]`,
    };
  }
  const item = [...before].reverse().find((l) => l.dash !== null && l.dash !== line.dash);
  const alignWith =
    item === undefined
      ? ""
      : `: line it up with the item on line ${item.number} (column ${(item.dash ?? 0) + 1})`;
  return {
    offset,
    message: `YAML: inconsistent indentation: this list item ('- ') starts at column ${column}${alignWith}; the items of one list start at the same column`,
  };
}

function keyProblem(line: Line, before: readonly Line[]): IndentProblem {
  const above = before.at(-1);
  const offset = line.start + line.key;
  const name = line.name === null ? "this line" : `\`${line.name}:\``;
  const options: string[] = [];
  if (above !== undefined && above.key !== line.key) options.push(at(above, above.key));
  // The enclosing mapping: the nearest line above whose key starts left of this one.
  const outer = [...before].reverse().find((l) => l.key < line.key);
  if (outer !== undefined && outer !== above && outer.key !== above?.key) {
    options.push(at(outer, outer.key));
  }
  // Under `- number: ...`, a key of the same item lines up with `number`, not with the '-'.
  const underDash = above?.dash === line.key ? ", under the '- ' of the item above" : "";
  const alignWith =
    options.length === 0
      ? "; the keys of one mapping start at the same column"
      : `: line it up with ${options.join(" or ")}`;
  return {
    offset,
    message: `YAML: inconsistent indentation: ${name} starts at column ${line.key + 1}${underDash}${alignWith}`,
  };
}

/**
 * Our message for a yaml error that an indentation mistake caused, at the column where the line
 * really starts; null for any other error (it keeps yaml's own words).
 */
export function indentationProblem(
  text: string,
  error: { code: string; message: string; offset: number },
): IndentProblem | null {
  if (INDENT_ERRORS[error.code]?.test(error.message) !== true) return null;
  const { before, line } = linesUpTo(text, error.offset);
  const tab = tabProblem(line);
  if (tab !== null) return tab;
  if (!isContent(line)) return null;
  const content = before.filter(isContent);
  return line.dash !== null ? listItemProblem(line, content) : keyProblem(line, content);
}
