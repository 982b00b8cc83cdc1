import type { ZodRawShapeCompat } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import { z } from "zod";
import type { CaseReader } from "../datajud/case-reader.js";
import { ToolError } from "./tool-errors.js";

export interface ToolDeps {
  /** null when the server cannot reach DataJud as configured (no API key): see `unavailable`. */
  reader: CaseReader | null;
  /** Why `reader` is null, with the fix; the DataJud tools answer it as a `config` error. */
  unavailable: string;
  /** How often a waiting call sends a progress notification. */
  progressEveryMs: number;
}

/** The DataJud reader, or the `config` error that says how to set the server up for it. */
export function readerOf(deps: ToolDeps): CaseReader {
  if (deps.reader !== null) return deps.reader;
  throw new ToolError("config", deps.unavailable, {
    hint: "Only list_courts and the monitor's own history work until the operator sets this and restarts the server.",
  });
}

export const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
} as const;

/** The tools over the monitor's own database: read-only, and nothing outside this server. */
export const HISTORY_READ_ONLY = { ...READ_ONLY, openWorldHint: false } as const;

/** The registration of a tool over the monitor's own database; its title is the annotations' too. */
export function historyTool<In extends ZodRawShapeCompat, Out extends z.ZodObject>(tool: {
  title: string;
  description: string;
  input: In;
  output: Out;
}) {
  return {
    title: tool.title,
    description: tool.description,
    inputSchema: tool.input,
    outputSchema: tool.output.shape,
    annotations: { title: tool.title, ...HISTORY_READ_ONLY },
  };
}

/** Where a page starts: 0, then the `nextOffset` the previous page returned. */
export const PAGE_OFFSET = z
  .number()
  .int()
  .min(0)
  .default(0)
  .describe("0, then the nextOffset returned");

export const CNJ_NUMBER_DESCRIPTION =
  "CNJ case number, formatted (NNNNNNN-DD.AAAA.J.TR.OOOO) or 20 digits; check digits are verified";
export const COURT_DESCRIPTION =
  "DataJud court alias (e.g. tjsp, trf1, trf6, stj). Optional: derived from the number, and a number its own court's index answers without is then looked for in the court that took its cases over (TRF1 numbers in TRF6). Given, only that index is asked: to read a superior court's record, which keeps the origin court's number";
