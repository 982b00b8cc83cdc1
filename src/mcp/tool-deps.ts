import type { CaseReader } from "../datajud/case-reader.js";

export interface ToolDeps {
  reader: CaseReader;
  /** How often a waiting call sends a progress notification. */
  heartbeatMs: number;
}

export const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
} as const;

export const CNJ_NUMBER_DESCRIPTION =
  "CNJ case number, formatted (NNNNNNN-DD.AAAA.J.TR.OOOO) or 20 digits; check digits are verified";
export const COURT_DESCRIPTION =
  "DataJud court alias (e.g. tjsp, trf1, stj). Optional: derived from the number. Give it to read a superior court's record, which keeps the origin court's number";
