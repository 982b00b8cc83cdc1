import { z } from "zod";

/** The fixed status categories; the prompt and the rules engine share these definitions. */
export const STATUS_CATEGORIES = [
  "awaiting_citation",
  "in_progress",
  "awaiting_decision",
  "decided",
  "appeal_pending",
  "executing_judgment",
  "suspended",
  "archived",
  /** Arquivamento provisório: an execução without assets, the prescrição intercorrente running. */
  "archived_provisionally",
] as const;
export type StatusCategory = (typeof STATUS_CATEGORIES)[number];

export const STATUS_LABELS_PT: Record<StatusCategory, string> = {
  awaiting_citation: "aguardando citação",
  in_progress: "em andamento",
  awaiting_decision: "concluso para decisão",
  decided: "decidido",
  appeal_pending: "recurso pendente",
  executing_judgment: "em execução/cumprimento",
  suspended: "suspenso",
  archived: "arquivado",
  archived_provisionally: "arquivado provisoriamente",
};

export const MovementRef = z.strictObject({
  movementId: z.string(),
  dateTime: z.string().nullable(),
  code: z.number().int().nullable(),
  name: z.string(),
});
export type MovementRef = z.infer<typeof MovementRef>;

export const AttentionReason = z.strictObject({
  reason: z.string().min(1),
  movements: z.array(MovementRef).min(1),
});
export type AttentionReason = z.infer<typeof AttentionReason>;

/** Strict: this is our own output, checked on the way out whether a model or the rules wrote it. */
export const CaseSummary = z.strictObject({
  cnjNumber: z.string(),
  court: z.string(),
  instances: z.array(z.string()),
  statusCategory: z.enum(STATUS_CATEGORIES),
  /** One paragraph, in Portuguese. */
  status: z.string().min(1),
  needsLawyerAttention: z.boolean(),
  attentionReasons: z.array(AttentionReason),
  latestRelevantMovement: MovementRef.nullable(),
  nextExpectedStep: z.string().nullable(),
  generatedBy: z.string(),
  generatedAt: z.string(),
  /**
   * Set when the model was asked and this, the rules' summary, went out instead: its summary
   * contradicted the facts or carried what a summary may not, or the model did not answer or
   * failed. Says so and why, in Portuguese, for the alert.
   */
  setAside: z.string().optional(),
});
export type CaseSummary = z.infer<typeof CaseSummary>;

/** A stored summary read back: one written by an older version reads as absent, not as an error. */
export function parseStoredSummary(value: unknown): CaseSummary | null {
  const parsed = CaseSummary.safeParse(value);
  return parsed.success ? parsed.data : null;
}
