import { formatWallClock } from "../datajud/dates.js";
import { instanceName, newMovementsText } from "../datajud/glossary.js";
import type { InstanceRecord, Movement } from "../datajud/instance-record.js";
import { type MovementKind, movementKind } from "../datajud/tpu-hints.js";
import {
  type AttentionReason,
  type CaseSummary,
  type MovementRef,
  STATUS_LABELS_PT,
  type StatusCategory,
} from "./case-summary.js";
import { type Correction, readCorrection } from "./corrections.js";
import { isHearing, readingContextOf } from "./movement-reading.js";

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

/**
 * What a lawyer must look at (decisions, deadlines, hearings, sessions, publications and acts
 * addressed to the parties), most pressing first, with the next step each one points to: when the
 * attention box lists something, "próximo passo" names the step of the most pressing item, so
 * the two never disagree.
 */
const ATTENTION: ReadonlyArray<{ kind: MovementKind; reason: string; next: string }> = [
  {
    kind: "sentence",
    reason: "sentença proferida: verificar prazo de recurso",
    next: "Prazo para recurso da sentença (ou trânsito em julgado).",
  },
  {
    kind: "judgment",
    reason: "acórdão proferido: verificar prazo de recurso",
    next: "Prazo para recurso do acórdão (ou trânsito em julgado).",
  },
  {
    kind: "final_judgment",
    reason: "trânsito em julgado: avaliar cumprimento ou arquivamento",
    next: "Cumprimento da decisão ou arquivamento.",
  },
  {
    kind: "session",
    reason:
      "incluído em pauta de sessão de julgamento: verificar a data da sessão e o prazo para memoriais ou pedido de sustentação oral",
    next: "Sessão de julgamento; antes dela, memoriais ou pedido de sustentação oral, se cabíveis.",
  },
  {
    kind: "session_change",
    reason: "julgamento adiado ou retirado de pauta: acompanhar a nova data da sessão",
    next: "Nova inclusão em pauta para julgamento.",
  },
  {
    kind: "hearing",
    reason: "audiência: verificar data e comparecimento",
    next: "Audiência: conferir a data e o comparecimento.",
  },
  {
    kind: "decision",
    reason: "decisão proferida: verificar se exige providência",
    next: "Cumprir a decisão ou recorrer dela, se exigir providência.",
  },
  {
    kind: "citation",
    reason: "citação: pode abrir prazo de resposta",
    next: "Resposta da parte citada, no prazo.",
  },
  {
    kind: "intimation",
    reason: "intimação: pode abrir prazo",
    next: "Cumprir o que a intimação pede, no prazo que ela abrir.",
  },
  {
    kind: "publication",
    reason:
      "publicação no Diário da Justiça Eletrônico: conferir o ato publicado e se ele abre prazo",
    next: "Conferir o ato publicado e o prazo que ele pode abrir.",
  },
  {
    kind: "deadline",
    reason: "prazo: verificar o decurso",
    next: "Próximo ato depois do prazo: conferir se houve manifestação.",
  },
  {
    kind: "execution",
    reason: "fase de cumprimento/execução iniciada",
    next: "Atos de cumprimento da decisão (pagamento, penhora ou acordo).",
  },
];

const ATTENTION_BY_KIND: ReadonlyMap<MovementKind, (typeof ATTENTION)[number]> = new Map(
  ATTENTION.map((a) => [a.kind, a]),
);

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
  /** Known movements the court corrected in this change. */
  corrections?: readonly Correction[];
  now: Date;
}

/** Urgent corrections (a hearing cancelled or moved, a counting date moved) ask for attention. */
function correctionAttention(
  records: readonly InstanceRecord[],
  corrections: readonly Correction[],
): Array<{ reason: AttentionReason; next: string }> {
  return corrections.flatMap((c) => {
    const reading = readCorrection(c, readingContextOf(records, c.instance));
    if (reading.urgent === null) return [];
    const next = isHearing(c.after)
      ? "Audiência: conferir no processo a nova data ou o cancelamento."
      : "Refazer a contagem do prazo pela data corrigida.";
    return [
      {
        reason: { reason: `correção do tribunal: ${reading.urgent}`, movements: [ref(c.after)] },
        next,
      },
    ];
  });
}

function ref(m: Movement): MovementRef {
  return { movementId: m.id, dateTime: m.dateTime, code: m.code, name: m.name };
}

export function kindOf(m: Movement): MovementKind {
  const said = m.complements.map((c) => [c.description, c.name, c.value].join(" "));
  return movementKind(m.code, m.name, said);
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
    const reason = ATTENTION_BY_KIND.get(kindOf(m))?.reason;
    if (reason === undefined) continue;
    byReason.set(reason, [...(byReason.get(reason) ?? []), m]);
  }
  return [...byReason].map(([reason, movements]) => ({ reason, movements: movements.map(ref) }));
}

/** The step the most pressing new movement points to; the category's usual step otherwise. */
function nextStep(newMovements: readonly Movement[], category: StatusCategory): string {
  const kinds = new Set(newMovements.map(kindOf));
  return ATTENTION.find((a) => kinds.has(a.kind))?.next ?? NEXT_STEP[category];
}

/**
 * The record the news happened in: the instance of the newest new movement (an appeal's movement
 * names the appeal's class and unit, not the first instance's); without new movements, the
 * record DataJud updated last.
 */
function recordOfNews(
  records: readonly InstanceRecord[],
  newMovements: readonly Movement[],
): InstanceRecord | undefined {
  for (const m of [...newMovements].reverse()) {
    const record = records.find((r) => r.movements.some((x) => x.id === m.id));
    if (record !== undefined) return record;
  }
  return [...records].sort((a, b) =>
    (b.lastUpdatedAt ?? "").localeCompare(a.lastUpdatedAt ?? ""),
  )[0];
}

function describeMovement(m: Movement): string {
  const when = m.dateTime ? formatWallClock(m.dateTime) : "data não informada";
  return `${m.name || "movimento sem nome"} (${when})`;
}

export function rulesSummary(input: RulesInput): CaseSummary {
  const all = input.records.flatMap((r) => r.movements).sort(byDate);
  const category = statusCategoryOf(input.records);
  const fixes = correctionAttention(input.records, input.corrections ?? []);
  const reasons = [...fixes.map((f) => f.reason), ...attentionReasons(input.newMovements)];
  const relevant =
    [...input.newMovements].reverse().find((m) => ATTENTION_BY_KIND.has(kindOf(m))) ??
    input.newMovements.at(-1) ??
    all.at(-1) ??
    null;
  const main = recordOfNews(input.records, input.newMovements);
  const parts: string[] = [];
  if (main?.class) parts.push(`${main.class.name}`);
  if (main?.courtUnit?.name) parts.push(`em ${main.courtUnit.name}`);
  if (parts.length > 0 && main !== undefined && input.records.length > 1) {
    parts.push(`(${instanceName(main.instance) ?? main.instance})`);
  }
  const head = parts.length > 0 ? `${parts.join(" ")}; ` : "";
  const latest = input.newMovements.at(-1);
  const news =
    latest === undefined
      ? "sem movimentações novas"
      : `${newMovementsText(input.newMovements.length)}, a mais recente ${describeMovement(latest)}`;
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
    nextExpectedStep: fixes[0]?.next ?? nextStep(input.newMovements, category),
    generatedBy: "rules",
    generatedAt: input.now.toISOString(),
  };
}
