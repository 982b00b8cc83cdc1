import { formatWallClock } from "../datajud/dates.js";
import { instanceName, newMovementsText } from "../datajud/glossary.js";
import type { InstanceRecord, Movement } from "../datajud/instance-record.js";
import type { MovementKind } from "../datajud/tpu-hints.js";
import { actAttention, actInformation } from "./act-reading.js";
import {
  type AttentionReason,
  type CaseSummary,
  type MovementRef,
  STATUS_LABELS_PT,
  type StatusCategory,
} from "./case-summary.js";
import { COUNTING_STILL_MATTERS_DAYS, type Correction, readCorrection } from "./corrections.js";
import { type FieldChange, readFieldChange } from "./field-changes.js";
import type { HearingDate } from "./hearing-when.js";
import { type HiddenMovement, hiddenText } from "./hidden-movements.js";
import {
  type InstanceStatus,
  instanceStatus,
  instanceStatusText,
  instancesStatusText,
  kindOf,
  provisionalArchiveText,
} from "./instance-status.js";
import { isHearing, readingContextOf } from "./movement-reading.js";

export { kindOf };

/**
 * The deterministic summary: the same rules the prompt states, applied to movement kinds. Used when
 * there is no API key, the budget is spent or the model fails, so a change is never dropped.
 */

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
    kind: "suspension",
    reason:
      "processo suspenso ou sobrestado: os prazos ficam suspensos (CPC, art. 221); acompanhar o fim da suspensão",
    next: "Fim da suspensão: conferir então os prazos que voltam a correr (CPC, art. 221).",
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
  {
    kind: "resumption",
    reason:
      "suspensão levantada: o processo volta a andar e os prazos suspensos voltam a correr pelo que faltava (CPC, art. 221)",
    next: "Prazos suspensos voltam a correr pelo que faltava de cada um (CPC, art. 221): conferir quais estavam em curso quando o processo foi suspenso.",
  },
  {
    kind: "unknown",
    reason:
      "movimento de código não encontrado nas tabelas do CNJ: conferir nos autos o que foi registrado",
    next: "Conferir nos autos o movimento que as tabelas do CNJ não identificam.",
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
  archived: "Nenhum; o processo está arquivado definitivamente.",
  archived_provisionally: "Desarquivamento a pedido da parte, se houver o que pedir.",
};

/**
 * The step where the instance stands, from the same reading as its status: a provisional
 * archive of an execução is the prescrição intercorrente running, not "nothing"; an archive
 * DataJud does not qualify is something to check; a petition after an archive awaits the judge.
 */
function standingStep(s: InstanceStatus): string {
  const { cause } = s;
  if (s.category === "archived_provisionally") {
    return s.execution === null
      ? NEXT_STEP.archived_provisionally
      : `Acompanhar a prescrição intercorrente e indicar bens penhoráveis para o desarquivamento (${provisionalArchiveText(s)}).`;
  }
  if (s.category === "archived" && s.archive?.kind !== "definitive") {
    return "Conferir nos autos se o arquivamento é provisório (a prescrição intercorrente pode correr, CPC art. 921, §§ 4º e 5º) ou definitivo.";
  }
  if (s.afterArchive !== null && cause === s.afterArchive && s.category === "in_progress") {
    return "Despacho ou decisão do juízo sobre o ato praticado depois do arquivamento.";
  }
  if (s.category === "decided" && cause !== null && kindOf(cause) === "final_judgment") {
    return "Cumprimento da decisão ou arquivamento.";
  }
  return NEXT_STEP[s.category];
}

export interface RulesInput {
  cnjNumber: string;
  court: string;
  records: readonly InstanceRecord[];
  /** Movements this change brought, oldest first. */
  newMovements: readonly Movement[];
  /** Late records (policy/late-records.ts): named in the status, never news nor attention. */
  lateMovements?: readonly Movement[];
  /** The case's own data this change altered (class, subjects, court unit, secrecy). */
  fieldChanges?: readonly FieldChange[];
  /** Known movements the court corrected in this change. */
  corrections?: readonly Correction[];
  /** New hearings' own dates, by movement id, where a text says them (hearing-when.ts). */
  hearingDates?: Readonly<Record<string, HearingDate>>;
  /** Movements a secrecy level now hides (hidden-movements.ts): still read, still owed. */
  hiddenMovements?: readonly HiddenMovement[];
  now: Date;
}

/** Acts whose attention outlives their listing: judgments and decisions whose period may run. */
const OWED_KINDS: ReadonlySet<MovementKind> = new Set([
  "sentence",
  "judgment",
  "decision",
  "hearing",
]);

/**
 * What a hidden act still asks: a judgment of the last 180 days (corrections.ts's window: the
 * longest period named ends well inside) keeps its attention, said to be hidden, not undone.
 */
function owedAttention(
  hidden: readonly HiddenMovement[],
  records: readonly InstanceRecord[],
  now: Date,
): AttentionReason[] {
  const recent = hidden.filter((h) => {
    const at = Date.parse(`${(h.movement.dateTime ?? "").slice(0, 19)}Z`);
    return !Number.isNaN(at) && now.getTime() - at <= COUNTING_STILL_MATTERS_DAYS * 86_400_000;
  });
  const owed = recent.filter((h) => OWED_KINDS.has(kindOf(h.movement)));
  return attentionReasons(
    owed.map((h) => h.movement),
    records,
  ).map((r) => ({ ...r, reason: `${r.reason} (ato agora oculto pelo sigilo: continua valendo)` }));
}

/** Urgent corrections (a hearing cancelled or moved, a counting date moved) ask for attention. */
function correctionAttention(
  records: readonly InstanceRecord[],
  corrections: readonly Correction[],
  now: Date,
): Array<{ reason: AttentionReason; next: string }> {
  return corrections.flatMap((c) => {
    const reading = readCorrection(c, readingContextOf(records, c.instance), now);
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

function byDate(a: Movement, b: Movement): number {
  return (a.dateTime ?? "").localeCompare(b.dateTime ?? "");
}

/**
 * The case's status is the status of the instance the news happened in, read from that
 * instance's own movements (instance-status.ts): a G2 judgment is not "arquivado" because the
 * first instance was archived while the appeal went up.
 */
export function statusCategoryOf(
  records: readonly InstanceRecord[],
  newMovements: readonly Movement[] = [],
): StatusCategory {
  const main = recordOfNews(records, newMovements);
  return main === undefined ? "in_progress" : instanceStatus(main).category;
}

/** The instance record a movement belongs to, for the words of its case. */
function recordOf(records: readonly InstanceRecord[], m: Movement): InstanceRecord | null {
  return (
    records.find((r) => r.movements.some((x) => x.id === m.id && x.dateTime === m.dateTime)) ?? null
  );
}

/**
 * What a new movement asks of the lawyer: its kind's reason and step, in its case's words where
 * they differ (a criminal judgment, a superior court's monocratic decision: act-reading.ts).
 */
function attentionOf(
  m: Movement,
  records: readonly InstanceRecord[],
  hearings: Readonly<Record<string, HearingDate>> = {},
): { rank: number; reason: string; next: string } | null {
  const kind = kindOf(m);
  const specific = actAttention(m, recordOf(records, m), hearings[m.id] ?? null);
  // An act the tree files under the registry's acts (the class evolved into a cumprimento de
  // sentença) asks for attention by its own effect, ranked as the execution it starts.
  const rank = ATTENTION.findIndex(
    (a) =>
      a.kind ===
      (kind === "execution" || specific === null
        ? kind
        : ATTENTION_BY_KIND.has(kind)
          ? kind
          : "execution"),
  );
  const generic = ATTENTION[rank];
  if (generic === undefined) return null;
  return { rank, ...generic, ...(specific ?? {}) };
}

export function attentionReasons(
  newMovements: readonly Movement[],
  records: readonly InstanceRecord[] = [],
  hearings: Readonly<Record<string, HearingDate>> = {},
): AttentionReason[] {
  const byReason = new Map<string, Movement[]>();
  for (const m of newMovements) {
    const reason = attentionOf(m, records, hearings)?.reason;
    if (reason === undefined) continue;
    byReason.set(reason, [...(byReason.get(reason) ?? []), m]);
  }
  return [...byReason].map(([reason, movements]) => ({ reason, movements: movements.map(ref) }));
}

/**
 * A new act of the parties after an archive (a petition, usually) asks for a look: it may ask to
 * unarchive, to go on with the execução, or to declare the prescrição intercorrente (CPC art.
 * 921 §5). Acts that ask for attention by themselves (a decision) already have their reason.
 */
function activityAfterArchive(
  status: InstanceStatus | null,
  newMovements: readonly Movement[],
): AttentionReason[] {
  const act = status?.afterArchive ?? null;
  if (status === null || act === null || status.archive === null) return [];
  if (!newMovements.some((m) => m.id === act.id) || ATTENTION_BY_KIND.has(kindOf(act))) return [];
  const which = ARCHIVE_ADJECTIVE[status.archive.kind];
  const reason = `atividade depois do arquivamento${which}: conferir o ato (pedido de desarquivamento, de prosseguimento ou de reconhecimento da prescrição intercorrente)`;
  return [{ reason, movements: [ref(act)] }];
}

const ARCHIVE_ADJECTIVE = {
  provisional: " provisório",
  definitive: " definitivo",
  unspecified: "",
};

/**
 * The step the most pressing new movement points to; otherwise the step where the instance of
 * the news stands. A change without any new act (a field DataJud changed: class, secrecy) opens
 * no deadline and says so, instead of repeating a step the record may have passed long ago.
 */
function nextStep(
  newMovements: readonly Movement[],
  records: readonly InstanceRecord[],
  status: InstanceStatus | null,
  hearings: Readonly<Record<string, HearingDate>> = {},
): string {
  const items = newMovements.flatMap((m) => attentionOf(m, records, hearings) ?? []);
  const pressing = items.sort((a, b) => a.rank - b.rank)[0]?.next;
  if (pressing !== undefined) return pressing;
  // Nothing pressing: the newest act may still say where the case went (a baixa definitiva).
  const newest = newMovements.at(-1);
  const info = newest === undefined ? null : actInformation(newest, recordOf(records, newest));
  if (info !== null) return info;
  const standing = status === null ? NEXT_STEP.in_progress : standingStep(status);
  if (newMovements.length > 0 || status === null) return standing;
  if (status.category === "decided" && status.cause !== null) {
    return `Nenhum ato novo nesta mudança; o último julgamento é de ${formatWallClock(status.cause.dateTime ?? "").slice(0, 10) || "data não informada"}: conferir nos autos se houve recurso ou trânsito em julgado.`;
  }
  return `Nenhum ato novo nesta mudança; ${lowerFirst(standing)}`;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLocaleLowerCase("pt-BR") + text.slice(1);
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

/** "; 1 registro antigo listado agora pelo DataJud (20/01/2024)": late records by their dates. */
function lateText(late: readonly Movement[]): string {
  if (late.length === 0) return "";
  const what =
    late.length === 1
      ? "1 registro antigo listado agora"
      : `${late.length} registros antigos listados agora`;
  const dates = [
    ...new Set(
      late.map((m) => (m.dateTime ? formatWallClock(m.dateTime).slice(0, 10) : "sem data")),
    ),
  ];
  return `; ${what} pelo DataJud (${dates.join(", ")})`;
}

export function rulesSummary(input: RulesInput): CaseSummary {
  const all = input.records.flatMap((r) => r.movements).sort(byDate);
  const main = recordOfNews(input.records, input.newMovements);
  const statuses = input.records.map((r) => instanceStatus(r));
  const mainStatus = main === undefined ? null : (statuses[input.records.indexOf(main)] ?? null);
  const category = mainStatus?.category ?? "in_progress";
  const fixes = correctionAttention(input.records, input.corrections ?? [], input.now);
  const reasons = [
    ...fixes.map((f) => f.reason),
    ...attentionReasons(input.newMovements, input.records, input.hearingDates),
    ...activityAfterArchive(mainStatus, input.newMovements),
    ...owedAttention(input.hiddenMovements ?? [], input.records, input.now),
  ];
  const relevant =
    [...input.newMovements].reverse().find((m) => ATTENTION_BY_KIND.has(kindOf(m))) ??
    input.newMovements.at(-1) ??
    all.at(-1) ??
    null;
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
  const standing =
    input.records.length > 1
      ? instancesStatusText(statuses)
      : mainStatus === null
        ? STATUS_LABELS_PT[category]
        : instanceStatusText(mainStatus);
  const late = lateText(input.lateMovements ?? []);
  const fields = (input.fieldChanges ?? []).map((f) => `; ${readFieldChange(f).brief}`).join("");
  const hidden = hiddenText(input.hiddenMovements ?? []);
  const status = `${head}situação: ${standing}; ${news}${late}${fields}${hidden}.`;
  return {
    cnjNumber: input.cnjNumber,
    court: input.court,
    instances: input.records.map((r) => r.instance),
    statusCategory: category,
    status,
    needsLawyerAttention: reasons.length > 0,
    attentionReasons: reasons,
    latestRelevantMovement: relevant ? ref(relevant) : null,
    nextExpectedStep:
      fixes[0]?.next ?? nextStep(input.newMovements, input.records, mainStatus, input.hearingDates),
    generatedBy: "rules",
    generatedAt: input.now.toISOString(),
  };
}
