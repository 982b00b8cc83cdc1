import { z } from "zod";
import type { InstanceRecord, Movement } from "../datajud/instance-record.js";
import { foldText } from "../text.js";
import { branchOf, classAncestors } from "../tpu/classes.js";
import { descendantsOf, isDescendantOf } from "../tpu/movements.js";
import {
  CLASS_BRANCHES,
  type ClassBranch,
  MOVEMENT_KINDS,
  type MovementKind,
} from "../tpu/tables.js";
import periodsJson from "./data/act-periods.json" with { type: "json" };
import { isAppellate, kindOf } from "./instance-status.js";
import { isCriminalClass } from "./movement-reading.js";

/*
 * The periods an act opens for a party, each with its article (data/act-periods.json), chosen by
 * the act's place in CNJ's movement tree and the class of the case (its branch, or its own place
 * in the class tree): a civil sentence opens the apelação (15 dias úteis, CPC art. 1.003 § 5º), a
 * labour one the recurso ordinário (8 dias úteis, CLT arts. 895 and 775), a criminal one the
 * apelação in 5 calendar days (CPP arts. 593 and 798); a citação the contestação (CPC art. 335),
 * the resposta à acusação (CPP art. 396) or the embargos (CPC art. 915, LEF art. 16) by the
 * class; a decision the agravo (CPC arts. 1.015, 1.021). Which act a movement is, is data too
 * (the file's `selection`), never a list of leaves here. Pure: no dates, only what the law gives.
 */

const PeriodSchema = z.strictObject({
  name: z.string().min(1),
  days: z.number().int().positive().nullable(),
  counting: z.enum(["business", "calendar"]),
  article: z.string().min(1),
  from: z.string().min(1),
  /** A length not counted in days ("2 anos", "48 horas"); only where `days` is null. */
  term: z.string().min(1).optional(),
  /**
   * The period does not run from the act's intimação or publication (the juntada of a citação,
   * an audiência, a guarantee, the citação itself, the trânsito): a publication's date never
   * dates it.
   */
  notFromPublication: z.literal(true).optional(),
  /** Counted from the day after the previous period's last day (CPC art. 525 after art. 523). */
  startsAfterPrevious: z.literal(true).optional(),
  /**
   * A criminal period in a case whose class does not say the matter (a REsp): counted as the CPP
   * counts it, without the year-end suspension (art. 798-A spares a defendant in custody), the
   * earliest reading.
   */
  unsuspended: z.literal(true).optional(),
});
export type ActPeriod = z.infer<typeof PeriodSchema>;

export const ACT_KEYS = [
  "civil_sentence",
  "civil_judgment",
  "criminal_sentence",
  "juizado_sentence",
  "labour_sentence",
  "labour_judgment",
  "embargos_decided",
  "juizado_embargos_decided",
  "labour_embargos_decided",
  "settlement_approved",
  "asset_freeze",
  "tax_execution_freeze",
  "judgment_enforcement",
  "civil_organization",
  "civil_interlocutory",
  "execution_interlocutory",
  "civil_monocratic",
  "labour_monocratic",
  "superior_civil_monocratic",
  "superior_criminal_monocratic",
  "superior_monocratic",
  "labour_execution_decision",
  "labour_interlocutory",
  "civil_citation",
  "criminal_citation",
  "labour_citation",
  "juizado_citation",
  "execution_citation",
  "tax_execution_citation",
  "labour_execution_citation",
  "citation_failed",
  "final_judgment",
  "criminal_final_judgment",
  "labour_final_judgment",
  "juizado_final_judgment",
  "case_closed",
] as const;
export type ActKey = (typeof ACT_KEYS)[number];

const codes = z.array(z.number().int().positive()).min(1);

const FileSchema = z
  .strictObject({
    about: z.string(),
    acts: z.record(
      z.enum(ACT_KEYS),
      z.strictObject({
        act: z.string().min(1),
        periods: z.array(PeriodSchema),
        /** The periods in a few words, where so many could not be named whole in a reason. */
        brief: z.string().min(1).optional(),
        note: z.string().min(1).optional(),
      }),
    ),
    selection: z.array(
      z.strictObject({
        act: z.enum(ACT_KEYS).nullable(),
        movements: codes.optional(),
        kinds: z.array(z.enum(MOVEMENT_KINDS)).min(1).optional(),
        branches: z.array(z.enum(CLASS_BRANCHES)).min(1).optional(),
        classes: codes.optional(),
        instance: z.enum(["first", "appellate"]).optional(),
        superiorCourt: z.boolean().optional(),
        why: z.string().min(1),
      }),
    ),
    citation: z.strictObject({ sent: codes, why: z.string().min(1) }),
    suspensions: z.array(
      z.strictObject({ code: z.number().int(), what: z.string().min(1), ends: z.string().min(1) }),
    ),
  })
  .superRefine((file, ctx) => {
    for (const key of ACT_KEYS) {
      if (file.acts[key] === undefined)
        ctx.addIssue({ code: "custom", message: `no act "${key}"` });
    }
    for (const [i, p] of Object.values(file.acts)
      .flatMap((a) => a?.periods ?? [])
      .entries()) {
      if (p.term !== undefined && p.days !== null)
        ctx.addIssue({ code: "custom", message: `period ${i} "${p.name}" has both days and term` });
    }
  });

const TABLE = FileSchema.parse(periodsJson);

export interface ActReading {
  key: ActKey;
  /** The act in a lawyer's words ("sentença", "acórdão"). */
  act: string;
  periods: readonly ActPeriod[];
  /** The periods in a few words for reasons and steps, where the table gives them so. */
  brief?: string;
  /** What the act means besides its periods ("no juizado não cabe ação rescisória"). */
  note?: string;
}

/** The courts whose every record is a superior court's (DataJud aliases). */
const SUPERIOR_COURTS: ReadonlySet<string> = new Set(["stj", "stf", "tst", "tse", "stm"]);

export function isSuperiorCourt(record: Pick<InstanceRecord, "instance" | "court">): boolean {
  return record.instance === "SUP" || SUPERIOR_COURTS.has(record.court.toLowerCase());
}

type RecordLike = Pick<InstanceRecord, "class"> &
  Partial<Pick<InstanceRecord, "instance" | "court">>;

/** The branch the case's periods follow: CNJ's class tree first, the class's words where it lacks the code. */
export function caseBranch(record: Pick<InstanceRecord, "class"> | null): ClassBranch | null {
  const klass = record?.class ?? null;
  if (klass === null) return null;
  const branch = branchOf(klass.code ?? null);
  if (branch !== null) return branch;
  if (isCriminalClass(klass)) return "criminal";
  return /juizado/i.test(klass.name ?? "") ? "juizado" : "civil";
}

function reading(key: ActKey): ActReading {
  const entry = TABLE.acts[key];
  if (entry === undefined) throw new Error(`act-periods.json has no act "${key}"`);
  return {
    key,
    act: entry.act,
    periods: entry.periods,
    ...(entry.brief === undefined ? {} : { brief: entry.brief }),
    ...(entry.note === undefined ? {} : { note: entry.note }),
  };
}

const under = (code: number | null, ancestors: readonly number[]): boolean =>
  code !== null && ancestors.some((a) => isDescendantOf(code, a));

type Rule = (typeof TABLE.selection)[number];

/**
 * The selection with each rule's movements as the set of every code they hold (the codes and all
 * under them), built once: a sweep reads every new movement of a change, and a record may bring
 * ten thousand of them at once.
 */
let compiled: ReadonlyArray<{ rule: Rule; codes: ReadonlySet<number> | null }> | null = null;

function selection(): NonNullable<typeof compiled> {
  compiled ??= TABLE.selection.map((rule) => ({
    rule,
    codes:
      rule.movements === undefined
        ? null
        : new Set(rule.movements.flatMap((c) => [c, ...descendantsOf(c)])),
  }));
  return compiled;
}

/**
 * "Expedição de documento" (60) whose document is a citação ("Mandado de citação", "Carta de
 * citação"): the citação sent, as the courts record it when they issue the paper.
 */
function citationDocument(m: Movement): boolean {
  if (!under(m.code, [60])) return false;
  return m.complements.some(
    (c) =>
      /documento/.test(foldText(c.description ?? "")) && /\bcitac/.test(foldText(c.name ?? "")),
  );
}

/**
 * The act a movement records and the periods it opens, or null when its effect is the generic
 * one of its kind: the first rule of the file's `selection` that matches the movement's place in
 * CNJ's tree (or its kind), the case's branch and class, and the instance. `readAs` reads it as a
 * movement of another kind (a judgment the relator gave alone is his decision).
 */
export function actPeriods(
  m: Movement,
  record: RecordLike | null,
  readAs?: MovementKind,
): ActReading | null {
  const branch = caseBranch(record);
  const classCode = record?.class?.code ?? null;
  const kind = readAs ?? (citationDocument(m) ? "citation" : kindOf(m));
  const instance = record?.instance ?? null;
  let classes: ReadonlySet<number> | null = null;
  for (const { rule, codes } of selection()) {
    if (codes !== null && (m.code === null || !codes.has(m.code))) continue;
    if (rule.kinds !== undefined && !rule.kinds.includes(kind)) continue;
    if (rule.branches !== undefined && (branch === null || !rule.branches.includes(branch)))
      continue;
    if (rule.classes !== undefined) {
      classes ??= new Set(classCode === null ? [] : [classCode, ...classAncestors(classCode)]);
      const lineage = classes;
      if (!rule.classes.some((c) => lineage.has(c))) continue;
    }
    if (rule.instance !== undefined) {
      if (instance === null) continue;
      if ((rule.instance === "appellate") !== isAppellate(instance)) continue;
    }
    if (rule.superiorCourt !== undefined) {
      if (record?.court === undefined || instance === null) continue;
      if (isSuperiorCourt({ instance, court: record.court }) !== rule.superiorCourt) continue;
    }
    return rule.act === null ? null : reading(rule.act);
  }
  return null;
}

/** A citação only sent (expedida): what it will open does not run yet. */
export function citationOnlySent(m: Movement): boolean {
  return under(m.code, TABLE.citation.sent) || citationDocument(m);
}

/** The act of a key, for readings that choose it themselves (a monocratic judgment). */
export function actReadingOf(key: ActKey): ActReading {
  return reading(key);
}

/** A suspension's cause and what ends it, by the nearest code of the table on its path. */
export function suspensionReading(m: Movement): { what: string; ends: string } | null {
  if (m.code === null) return null;
  for (const s of TABLE.suspensions) {
    if (m.code === s.code || isDescendantOf(m.code, s.code)) return { what: s.what, ends: s.ends };
  }
  return null;
}

/** "apelação: 15 dias úteis da intimação da sentença (CPC, art. 1.003, § 5º ...)". */
export function periodText(p: ActPeriod): string {
  const length =
    p.days !== null
      ? `${p.days} ${p.counting === "business" ? "dias úteis" : "dias corridos"} `
      : p.term === undefined
        ? ""
        : `${p.term} `;
  return `${p.name}: ${length}${p.from} (${p.article})`;
}

/** The periods of an act joined for a reason or a step; "" when it opens none. */
export function periodsText(r: ActReading): string {
  return r.brief ?? r.periods.map(periodText).join("; ");
}
