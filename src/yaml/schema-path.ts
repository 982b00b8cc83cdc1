import type { z } from "zod";
import type { YamlPath } from "./yaml-source.js";

interface SchemaDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
}

function defOf(schema: z.ZodType): SchemaDef {
  return schema._zod.def as unknown as SchemaDef;
}

/** Strips optional/nullable/default wrappers down to the schema that says what the value is. */
export function unwrapSchema(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    const inner = def.innerType ?? (def.type === "pipe" ? def.in : undefined);
    if (!inner) return current;
    current = inner;
  }
}

/** The schema describing the value at `path`, walking objects and arrays. */
export function schemaAt(schema: z.ZodType, path: YamlPath): z.ZodType | undefined {
  let current: z.ZodType | undefined = schema;
  for (const segment of path) {
    if (!current) return undefined;
    const def = defOf(unwrapSchema(current));
    if (def.type === "object") current = def.shape?.[String(segment)];
    else if (def.type === "array") current = def.element;
    else return undefined;
  }
  return current;
}

/** The keys a strict object at `path` accepts, in schema order. */
export function knownKeysAt(schema: z.ZodType, path: YamlPath): string[] {
  const at = schemaAt(schema, path);
  if (!at) return [];
  const def = defOf(unwrapSchema(at));
  return def.type === "object" ? Object.keys(def.shape ?? {}) : [];
}
