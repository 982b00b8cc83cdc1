import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { webhookEventJsonSchema } from "../src/notify/render/webhook-event.js";

/*
 * Writes the JSON Schemas of what we publish (`npm run schemas`). A unit test compares the
 * committed files with what the zod schemas generate, so an edit of one without the other fails.
 */

export const SCHEMA_FILES = {
  "schemas/webhook-event.v1.json": webhookEventJsonSchema,
} as const;

export function schemaText(make: () => Record<string, unknown>): string {
  return `${JSON.stringify(make(), null, 2)}\n`;
}

const root = fileURLToPath(new URL("../", import.meta.url));
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [path, make] of Object.entries(SCHEMA_FILES)) {
    writeFileSync(`${root}${path}`, schemaText(make));
    process.stdout.write(`wrote ${path}\n`);
  }
}
