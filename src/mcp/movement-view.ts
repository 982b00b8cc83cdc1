import type { InstanceRecord, Movement } from "../datajud/instance-record.js";
import {
  complementText,
  movementMeaning,
  movementTitle,
  type ReadingContext,
  readingContextOf,
} from "../summarize/movement-reading.js";
import type { RecordOverview, ToolMovement } from "./tool-schemas.js";

/*
 * DataJud's movements as the live tools show them: every field DataJud's answer was normalized
 * into, and beside them the same reading history, mail and export give (title, complements in
 * words, meaning in the case's class). Pure.
 */

/** What a lawyer reads of a movement, beside what DataJud sent. */
export function movementWords(
  m: Pick<Movement, "code" | "name" | "complements" | "hint">,
  context: ReadingContext,
): Pick<ToolMovement, "title" | "complementTexts" | "meaning"> {
  return {
    title: movementTitle(m, context),
    complementTexts: m.complements.flatMap((c) => complementText(c) ?? []),
    meaning: movementMeaning(m, context),
  };
}

export function toolMovement(m: Movement, context: ReadingContext): ToolMovement {
  return { ...m, ...movementWords(m, context) };
}

/** A record without its movements (get_case, search_cases), its latest movement read. */
export function recordOverview(record: InstanceRecord): RecordOverview {
  const { movements: _movements, latestMovement, ...overview } = record;
  const context = readingContextOf([record], record.instance);
  return {
    ...overview,
    latestMovement: latestMovement === null ? null : toolMovement(latestMovement, context),
  };
}
