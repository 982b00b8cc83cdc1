import { formatWallClock } from "../datajud/dates.js";
import type { InstanceRecord, Movement } from "../datajud/instance-record.js";
import { type MovementKind, movementKind } from "../datajud/tpu-hints.js";
import {
  type AttentionReason,
  type CaseSummary,
  type MovementRef,
  STATUS_LABELS_PT,
  type StatusCategory,
} from "./case-summary.js";

/**
 * The deterministic summary: the same rules the prompt states, applied to movement kinds. Used when
 * there is no API key, the budget is spent or the model fails, so a change is never dropped.
 */

/** Instances that hear appeals: a distribution there means an appeal is pending. */
function isAppellate(instance: string): boolean {
  return !["G1", "JE", "unknown"].includes(instance);
}

/**
 * How one movement moves the status. Notices, hearings and routine acts never change it, so a
 * publication after a sentence leaves the case "decided".
 */
function nextCategory(
  current: StatusCategory | null,
  kind: MovementKind,
  appellate: boolean,
): StatusCategory | null {
  switch (kind) {
    case "distribution":
      if (appellate) return "appeal_pending";
      return current ?? "awaiting_citation";
    case "citation":
      return current === null || current === "awaiting_citation" ? "in_progress" : current;
    case "conclusion":
      return current === "archived" ? current : "awaiting_decision";
    case "decision":
      return current === "awaiting_decision" ? "in_progress" : current;
    case "sentence":
    case "judgment":
    case "final_judgment":
      return "decided";
    case "appeal":
      return "appeal_pending";
    case "execution":
      return "executing_judgment";
    case "suspension":
      return "suspended";
    case "archiving":
      return "archived";
    case "unarchiving":
      return "in_progress";
    default:
      return current;
  }
}

/** What a lawyer must look at: decisions, deadlines, hearings and acts addressed to the parties. */
const ATTENTION: Partial<Record<MovementKind, string>> = {
  sentence: "sentença proferida: verificar prazo de recurso",
  judgment: "acórdão proferido: verificar prazo de recurso",
  decision: "decisão proferida: verificar se exige providência",
  intimation: "intimação expedida: pode abrir prazo",
  citation: "citação: pode abrir prazo de resposta",
  hearing: "audiência: verificar data e comparecimento",
  final_judgment: "trânsito em julgado: avaliar cumprimento ou arquivamento",
  deadline: "prazo: verificar o decurso",
  execution: "fase de cumprimento/execução iniciada",
};

const NEXT_STEP: Record<StatusCategory, string> = {
  awaiting_citation: "Citação da parte contrária.",
  in_progress: "Andamento regular; aguardar o próximo ato do juízo ou das partes.",
  awaiting_decision: "Decisão ou despacho do juízo.",
  decided: "Prazo para recurso ou trânsito em julgado.",
  appeal_pending: "Julgamento do recurso.",
  executing_judgment: "Atos de cumprimento da decisão (pagamento, penhora ou acordo).",
  suspended: "Fim da suspensão.",
  archived: "Nenhum; o processo está arquivado.",
};

export interface RulesInput {
  cnjNumber: string;
  court: string;
  records: readonly InstanceRecord[];
  /** Movements this change brought, oldest first. */
  newMovements: readonly Movement[];
  now: Date;
}

function ref(m: Movement): MovementRef {
  return { movementId: m.id, dateTime: m.dateTime, code: m.code, name: m.name };
}

function kindOf(m: Movement): MovementKind {
  return movementKind(m.code, m.name);
}

function byDate(a: Movement, b: Movement): number {
  return (a.dateTime ?? "").localeCompare(b.dateTime ?? "");
}

export function statusCategoryOf(records: readonly InstanceRecord[]): StatusCategory {
  const timeline = records
    .flatMap((r) => r.movements.map((m) => ({ m, appellate: isAppellate(r.instance) })))
    .sort((a, b) => byDate(a.m, b.m));
  let category: StatusCategory | null = null;
  for (const { m, appellate } of timeline) category = nextCategory(category, kindOf(m), appellate);
  return category ?? "in_progress";
}

export function attentionReasons(newMovements: readonly Movement[]): AttentionReason[] {
  const byReason = new Map<string, Movement[]>();
  for (const m of newMovements) {
    const reason = ATTENTION[kindOf(m)];
    if (reason === undefined) continue;
    byReason.set(reason, [...(byReason.get(reason) ?? []), m]);
  }
  return [...byReason].map(([reason, movements]) => ({ reason, movements: movements.map(ref) }));
}

function describeMovement(m: Movement): string {
  const when = m.dateTime ? formatWallClock(m.dateTime) : "data não informada";
  return `${m.name || "movimento sem nome"} (${when})`;
}

export function rulesSummary(input: RulesInput): CaseSummary {
  const all = input.records.flatMap((r) => r.movements).sort(byDate);
  const category = statusCategoryOf(input.records);
  const reasons = attentionReasons(input.newMovements);
  const relevant =
    [...input.newMovements].reverse().find((m) => ATTENTION[kindOf(m)] !== undefined) ??
    input.newMovements.at(-1) ??
    all.at(-1) ??
    null;
  const main = input.records[0];
  const parts: string[] = [];
  if (main?.class) parts.push(`${main.class.name}`);
  if (main?.courtUnit?.name) parts.push(`em ${main.courtUnit.name}`);
  const head = parts.length > 0 ? `${parts.join(" ")}; ` : "";
  const news =
    input.newMovements.length === 0
      ? "sem movimentações novas"
      : `${input.newMovements.length} movimentação(ões) nova(s), a mais recente ${describeMovement(
          input.newMovements.at(-1) as Movement,
        )}`;
  const status = `${head}situação: ${STATUS_LABELS_PT[category]}; ${news}.`;
  return {
    cnjNumber: input.cnjNumber,
    court: input.court,
    instances: input.records.map((r) => r.instance),
    statusCategory: category,
    status,
    needsLawyerAttention: reasons.length > 0,
    attentionReasons: reasons,
    latestRelevantMovement: relevant ? ref(relevant) : null,
    nextExpectedStep: NEXT_STEP[category],
    generatedBy: "rules",
    generatedAt: input.now.toISOString(),
  };
}
