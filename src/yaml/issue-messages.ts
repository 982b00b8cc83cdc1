import { isAlias, isMap, isScalar, isSeq, type Node as YamlNode } from "yaml";
import type { z } from "zod";
import { suggestName } from "../text.js";
import type { PositionedError } from "./positioned-error.js";
import { knownKeysAt } from "./schema-path.js";
import {
  describePath,
  errorAt,
  errorAtPath,
  nodeAt,
  offsetOf,
  type YamlPath,
  type YamlSource,
} from "./yaml-source.js";

/*
 * zod's issues about a YAML file as messages a person can act on, at the node they are about:
 * what was expected and what is there, a did-you-mean for a misspelt key or value.
 */

/** A parsed value in the words of an error message: "the number 3", "a list", "nothing". */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return "nothing";
  if (typeof value === "boolean") return `${String(value)} (a yes/no value)`;
  if (typeof value === "number") return `the number ${String(value)}`;
  if (typeof value === "string") return `the text ${JSON.stringify(value)}`;
  if (Array.isArray(value)) return "a list";
  if (value instanceof Date) return "a date";
  return "a mapping";
}

const EXPECTED: Partial<Record<string, string>> = {
  string: "text",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  array: "a list",
  object: "a mapping (indented key: value lines)",
};

function describeNode(source: YamlSource, node: YamlNode | null): string {
  if (node === null) return "nothing";
  let inner: unknown = node;
  if (isAlias(inner)) inner = inner.resolve(source.doc);
  if (isMap(inner)) return "a mapping";
  if (isSeq(inner)) return "a list";
  if (isScalar(inner)) {
    const value = inner.value;
    if (value === null) return "nothing (an empty value)";
    if (typeof value === "number" || typeof value === "bigint")
      return `the number ${sourceText(source, node)}`;
    if (typeof value === "boolean") return `${String(value)} (a yes/no value)`;
    if (typeof value === "string") return `the text ${JSON.stringify(value)}`;
  }
  return "a value of another kind";
}

function sourceText(source: YamlSource, node: YamlNode): string {
  const range = node.range;
  return range ? source.text.slice(range[0], range[1]).trim() : "";
}

export interface IssueOptions {
  /** A message of its own for an unknown key (e.g. a secret that belongs in the environment). */
  unknownKeyHint?: (path: YamlPath, key: string) => string | undefined;
}

function unknownKeyMessage(
  path: YamlPath,
  key: string,
  known: readonly string[],
  options: IssueOptions,
): string {
  const where = path.length === 0 ? "" : ` in ${describePath(path)}`;
  const hint = options.unknownKeyHint?.(path, key);
  if (hint) return `unknown key "${key}"${where}: ${hint}`;
  const suggestion = suggestName(key, known);
  if (suggestion) return `unknown key "${key}"${where}; did you mean "${suggestion}"?`;
  const list = known.length > 0 ? `; the keys allowed here are ${known.join(", ")}` : "";
  return `unknown key "${key}"${where}${list}`;
}

function typeMessage(source: YamlSource, path: YamlPath, expected: string): PositionedError {
  const found = nodeAt(source, path);
  const name = describePath(path);
  if (found.depth < path.length) {
    const parent = path.slice(0, -1);
    const key = String(path[path.length - 1]);
    return errorAtPath(source, parent, `${describePath(parent)}: "${key}" is required but missing`);
  }
  const want = EXPECTED[expected] ?? expected;
  const got = describeNode(source, found.node);
  let message = `${name}: expected ${want}, got ${got}`;
  const value: unknown = isScalar(found.node) ? found.node.value : undefined;
  if (expected === "string" && typeof value === "number" && found.node) {
    message += `; put it in quotes ("${sourceText(source, found.node)}"): unquoted, YAML reads it as a number and drops leading zeros`;
  } else if ((expected === "number" || expected === "int") && typeof value === "string") {
    message += "; write the number without quotes";
  } else if (expected === "array" && isScalar(found.node) && value !== null && found.node) {
    message += `; write it as a list: [${sourceText(source, found.node)}]`;
  }
  return errorAt(source, offsetOf(found.node), message);
}

/** zod issues turned into messages at the YAML node they are about. */
export function issuesToErrors(
  source: YamlSource,
  schema: z.ZodType,
  issues: readonly z.core.$ZodIssue[],
  options: IssueOptions = {},
): PositionedError[] {
  const errors: PositionedError[] = [];
  // "numbr" unknown and "number" missing are one mistake: report the typo only.
  const typoTargets = new Set<string>();
  for (const issue of issues) {
    if (issue.code !== "unrecognized_keys") continue;
    const known = knownKeysAt(schema, issue.path);
    for (const key of issue.keys) {
      const suggestion = suggestName(key, known);
      if (suggestion !== undefined) typoTargets.add(JSON.stringify([...issue.path, suggestion]));
    }
  }
  for (const issue of issues) {
    const path = issue.path;
    if (issue.code === "invalid_type" && typoTargets.has(JSON.stringify(path))) {
      if (nodeAt(source, path).depth < path.length) continue;
    }
    switch (issue.code) {
      case "unrecognized_keys": {
        const known = knownKeysAt(schema, path);
        for (const key of issue.keys) {
          errors.push(
            errorAtPath(
              source,
              [...path, key],
              unknownKeyMessage(path, key, known, options),
              "key",
            ),
          );
        }
        break;
      }
      case "invalid_type":
        errors.push(typeMessage(source, path, issue.expected));
        break;
      case "invalid_value": {
        const choices = issue.values.map((v) => JSON.stringify(v));
        const found = nodeAt(source, path);
        const value: unknown = isScalar(found.node) ? found.node.value : undefined;
        const suggestion =
          typeof value === "string"
            ? suggestName(
                value,
                issue.values.map((v) => String(v)),
              )
            : undefined;
        const tail = suggestion === undefined ? "" : `; did you mean "${suggestion}"?`;
        errors.push(
          errorAtPath(
            source,
            path,
            `${describePath(path)}: must be one of ${choices.join(", ")}, got ${describeNode(source, found.node)}${tail}`,
          ),
        );
        break;
      }
      default:
        errors.push(errorAtPath(source, path, `${describePath(path)}: ${issue.message}`));
    }
  }
  return errors;
}
