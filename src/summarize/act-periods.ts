import { z } from "zod";
import type { InstanceRecord, Movement } from "../datajud/instance-record.js";
import { branchOf, isClassDescendantOf } from "../tpu/classes.js";
import { isDescendantOf } from "../tpu/movements.js";
import type { ClassBranch } from "../tpu/tables.js";
import periodsJson from "./data/act-periods.json" with { type: "json" };
import { kindOf } from "./instance-status.js";
import { isCriminalClass } from "./movement-reading.js";

/*
 * The periods an act opens for a party, each with its article (data/act-periods.json), chosen by
 * the act's place in CNJ's movement tree and the branch of the case's class: a civil sentence
 * opens the apelação (15 dias úteis, CPC art. 1.003 § 5º) and the embargos de declaração (5, CPC
 * art. 1.023); a criminal one the apelação in 5 calendar days (CPP arts. 593 and 798); a
 * juizado's the recurso inominado (10, Lei 9.099/1995 art. 42). Embargos decided, an approved
 * settlement, a freeze of assets, a suspension and the start of a cumprimento de sentença each
 * change what the lawyer must do. Pure: no dates here, only what the law gives.
 */

const PeriodSchema = z.strictObject({
  name: z.string().min(1),
  days: z.number().int().positive().nullable(),
  counting: z.enum(["business", "calendar"]),
  article: z.string().min(1),
  from: z.string().min(1),
});
export type ActPeriod = z.infer<typeof PeriodSchema>;

const FileSchema = z.strictObject({
  about: z.string(),
  acts: z.record(
    z.string(),
    z.strictObject({ act: z.string().min(1), periods: z.array(PeriodSchema) }),
  ),
  suspensions: z.array(
    z.strictObject({ code: z.number().int(), what: z.string().min(1), ends: z.string().min(1) }),
  ),
});

const TABLE = FileSchema.parse(periodsJson);

export type ActKey =
  | "civil_sentence"
  | "civil_judgment"
  | "criminal_sentence"
  | "juizado_sentence"
  | "embargos_decided"
  | "juizado_embargos_decided"
  | "settlement_approved"
  | "asset_freeze"
  | "tax_execution_freeze"
  | "judgment_enforcement";

export interface ActReading {
  key: ActKey;
  /** The act in a lawyer's words ("sentença", "acórdão"). */
  act: string;
  periods: readonly ActPeriod[];
}

/** Embargos de declaração decided: accepted, in part or not (under 385 and under 3). */
const EMBARGOS_DECIDED: ReadonlySet<number> = new Set([198, 200, 871, 15162, 15163, 15164]);
/** A settlement approved: the case judged on the merits by the parties' own terms (CPC art. 487, III, b). */
const SETTLEMENT: ReadonlySet<number> = new Set([466, 377, 14099, 15244]);
/** Bloqueio, Penhora ou Arresto (Sisbajud and the like). */
const FREEZE = 11382;
/** Evolução da Classe Processual; Execução/Cumprimento de Sentença Iniciada. */
const ENFORCEMENT_START: ReadonlySet<number> = new Set([14739, 11385]);
/** Class codes: Execução Fiscal (LEF); Cumprimento de sentença (quantia certa, CPC art. 523). */
const TAX_EXECUTION = 1116;
const JUDGMENT_ENFORCEMENT = 156;

type RecordLike = Pick<InstanceRecord, "class">;

/** The branch the case's periods follow: CNJ's class tree first, the class's words where it lacks the code. */
export function caseBranch(record: RecordLike | null): ClassBranch | null {
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
  return { key, act: entry.act, periods: entry.periods };
}

/**
 * The act a movement records and the periods it opens, or null when its effect is the generic
 * one of its kind (or a labour case's, which the table does not hold yet).
 */
export function actPeriods(m: Movement, record: RecordLike | null): ActReading | null {
  const code = m.code;
  const branch = caseBranch(record);
  const classCode = record?.class?.code ?? null;
  if (code !== null && EMBARGOS_DECIDED.has(code)) {
    return reading(branch === "juizado" ? "juizado_embargos_decided" : "embargos_decided");
  }
  if (code !== null && SETTLEMENT.has(code)) return reading("settlement_approved");
  if (code === FREEZE) {
    return reading(
      isClassDescendantOf(classCode, TAX_EXECUTION) ? "tax_execution_freeze" : "asset_freeze",
    );
  }
  if (code !== null && ENFORCEMENT_START.has(code)) {
    return isClassDescendantOf(classCode, JUDGMENT_ENFORCEMENT)
      ? reading("judgment_enforcement")
      : null;
  }
  const kind = kindOf(m);
  if (kind === "sentence") {
    if (branch === "criminal") return reading("criminal_sentence");
    if (branch === "juizado") return reading("juizado_sentence");
    if (branch === "civil") return reading("civil_sentence");
    return null;
  }
  if (kind === "judgment" && branch === "civil") return reading("civil_judgment");
  return null;
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
    p.days === null
      ? ""
      : `${p.days} ${p.counting === "business" ? "dias úteis" : "dias corridos"} `;
  return `${p.name}: ${length}${p.from} (${p.article})`;
}

/** The periods of an act joined for a reason or a step; "" when it opens none. */
export function periodsText(r: ActReading): string {
  return r.periods.map(periodText).join("; ");
}
