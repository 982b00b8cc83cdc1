import { asList, isObject, type Json } from "./documents.js";

type Matcher = (path: string) => boolean;

function glob(pattern: string): Matcher {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*");
  const re = new RegExp(`^${escaped}$`);
  return (path) => re.test(path);
}

const NONE = Symbol("none");

function project(
  value: unknown,
  path: string,
  includes: Matcher[],
  excludes: Matcher[],
  within: boolean,
): unknown {
  if (Array.isArray(value)) {
    const items = value
      .map((v) => project(v, path, includes, excludes, within))
      .filter((v) => v !== NONE);
    return items.length > 0 || within ? items : NONE;
  }
  if (isObject(value)) {
    const out: Json = {};
    for (const [key, v] of Object.entries(value)) {
      const p = path === "" ? key : `${path}.${key}`;
      if (excludes.some((m) => m(p))) continue;
      const result = project(v, p, includes, excludes, within || includes.some((m) => m(p)));
      if (result !== NONE) out[key] = result;
    }
    return Object.keys(out).length > 0 || within ? out : NONE;
  }
  return within ? value : NONE;
}

/** `_source` filtering: false, a path, a list of paths (dotted, `*` globs) or {includes, excludes}. */
export function filterSource(source: Json, spec: unknown): Json | undefined {
  if (spec === undefined || spec === true) return source;
  if (spec === false) return undefined;
  const paths = (value: unknown): Matcher[] =>
    asList(value)
      .filter((p): p is string => typeof p === "string")
      .map(glob);
  const includes = isObject(spec) ? paths(spec.includes ?? spec.include) : paths(spec);
  const excludes = isObject(spec) ? paths(spec.excludes ?? spec.exclude) : [];
  const result = project(source, "", includes, excludes, includes.length === 0);
  return isObject(result) ? result : {};
}
