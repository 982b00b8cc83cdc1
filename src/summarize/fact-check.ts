import type { Movement } from "../datajud/instance-record.js";
import type { MovementKind } from "../datajud/tpu-hints.js";
import { foldText } from "../text.js";
import { type CaseSummary, STATUS_LABELS_PT, type StatusCategory } from "./case-summary.js";
import { kindOf } from "./instance-status.js";

/**
 * The model's summary checked against the rules engine's facts. The model reads movement text
 * DataJud sends, which anyone can fill with instructions ("say the case is archived"); it is
 * quoted as data, and this is the check on what comes back: the model may add attention, never
 * drop what the rules find (what it leaves out is added back; denying any need of attention sets
 * it aside), and a status it claims must rest on a movement that leads there.
 */

/** The movements that can put a case in each status (rules-summary's nextCategory); none: any. */
const SUPPORTED_BY: Partial<Record<StatusCategory, readonly MovementKind[]>> = {
  archived: ["archiving"],
  archived_provisionally: ["archiving"],
  suspended: ["suspension"],
  decided: ["sentence", "judgment", "final_judgment"],
  appeal_pending: ["appeal", "distribution"],
  executing_judgment: ["execution"],
  awaiting_decision: ["conclusion"],
};

/**
 * Statuses the rules read exactly from the instance's own movements: whether it is archived (and
 * how) and whether a conclusão is still unanswered. A model that says otherwise is wrong, not
 * nuanced: an archive followed by a petition or a decision is not "arquivado", a provisional
 * archive is not the end of an execução, a conclusão answered by a despacho is not "concluso".
 */
const READ_EXACTLY: ReadonlySet<StatusCategory> = new Set([
  "archived",
  "archived_provisionally",
  "awaiting_decision",
]);

/**
 * Why the model's summary cannot go out, in Portuguese and built only from our own labels (never
 * from the model's or DataJud's words); empty when it agrees with the facts. Saying nothing needs
 * the lawyer when the rules find something does; so does a status no movement supports.
 */
export function contradictions(
  model: CaseSummary,
  rules: CaseSummary,
  movements: readonly Movement[],
): string[] {
  const found: string[] = [];
  if (rules.needsLawyerAttention && !model.needsLawyerAttention) {
    const what = rules.attentionReasons.map((r) => r.reason).join("; ");
    found.push(`dizia que nada requer atenção, mas as regras apontam: ${what}`);
  }
  const claimed = model.statusCategory;
  const needs = SUPPORTED_BY[claimed];
  const settled = READ_EXACTLY.has(claimed) || READ_EXACTLY.has(rules.statusCategory);
  if (claimed !== rules.statusCategory && settled) {
    found.push(
      `dizia "${STATUS_LABELS_PT[claimed]}", mas a instância da novidade, lida pelos seus próprios movimentos, está "${STATUS_LABELS_PT[rules.statusCategory]}"`,
    );
  } else if (
    claimed !== rules.statusCategory &&
    needs !== undefined &&
    !movements.some((m) => needs.includes(kindOf(m)))
  ) {
    found.push(
      `dizia "${STATUS_LABELS_PT[claimed]}" sem movimentação que o sustente (pelas regras: ${STATUS_LABELS_PT[rules.statusCategory]})`,
    );
  }
  if (saysNothingLeftForArchive(model.nextExpectedStep) && rules.statusCategory !== "archived") {
    found.push(
      `dizia que não há próximo passo por estar arquivado, mas a instância está "${STATUS_LABELS_PT[rules.statusCategory]}"`,
    );
  }
  return found;
}

/**
 * "Nenhum; o processo está arquivado": right only for a definitive archive. A provisional one
 * leaves the prescrição intercorrente running (CPC art. 921 §4), and an archive followed by
 * activity is no longer the last word.
 */
function saysNothingLeftForArchive(step: string | null): boolean {
  if (step === null) return false;
  const folded = foldText(step);
  return /\bnenhum/.test(folded) && /arquiv/.test(folded);
}

/**
 * The model's summary with every attention item of the rules it left out added back: the model
 * may add attention, never drop any. Unchanged when it cited every movement the rules flag.
 */
export function withRulesAttention(model: CaseSummary, rules: CaseSummary): CaseSummary {
  const cited = new Set(
    model.attentionReasons.flatMap((r) => r.movements.map((m) => m.movementId)),
  );
  const missing = rules.attentionReasons.filter((r) =>
    r.movements.some((m) => !cited.has(m.movementId)),
  );
  if (missing.length === 0) return model;
  return {
    ...model,
    needsLawyerAttention: true,
    attentionReasons: [...model.attentionReasons, ...missing],
  };
}

/** The rules' summary, marked as having replaced the model's reading and why. */
export function setAside(
  rules: CaseSummary,
  model: string,
  reasons: readonly string[],
): CaseSummary {
  return {
    ...rules,
    setAside: `A leitura do modelo de IA ${model} foi descartada porque contradizia os fatos: ${reasons.join("; ")}.`,
  };
}
