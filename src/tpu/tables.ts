import { z } from "zod";
import branchesJson from "./data/class-branches.json" with { type: "json" };
import classesJson from "./data/classes.json" with { type: "json" };
import glossesJson from "./data/glosses.json" with { type: "json" };
import kindsJson from "./data/movement-kinds.json" with { type: "json" };
import movementsJson from "./data/movements.json" with { type: "json" };
import { type Gloss, GlossFileSchema, type TableFile, TableFileSchema } from "./schema.js";
import { buildTree, type TpuTree } from "./tree.js";

/*
 * CNJ's tables as vendored in src/tpu/data/, checked once when first read: a table that does not
 * match its schema, a parent missing, or a rule naming a code the table lacks stops the process
 * with what is wrong, rather than reading an act wrongly. Pure (the data is imported, not read).
 */

export const MOVEMENT_KINDS = [
  "filing",
  "distribution",
  "citation",
  "intimation",
  /** Publicação / disponibilização no Diário: a publication, an intimação only when it says so. */
  "publication",
  "hearing",
  /** Inclusão em pauta: a judgment session listing (presencial or virtual), not a hearing. */
  "session",
  /** Retirado de pauta, adiado: the listed session will not judge it. */
  "session_change",
  "decision",
  "sentence",
  /** acórdão: a panel's judgment, usually on appeal */
  "judgment",
  "appeal",
  /** trânsito em julgado */
  "final_judgment",
  "execution",
  "suspension",
  /** A stay lifted: the case runs again (CNJ's "Levantamento da Suspensão"). */
  "resumption",
  "archiving",
  "unarchiving",
  "conclusion",
  "routine",
  "deadline",
  "remittance",
  "other",
  /** A code CNJ's tables do not hold, whose name says nothing the monitor can read. */
  "unknown",
] as const;

export type MovementKind = (typeof MOVEMENT_KINDS)[number];

export const CLASS_BRANCHES = [
  "civil",
  "labour",
  "juizado",
  "criminal",
  "infancy",
  "electoral",
  "military",
  "administrative",
  "pre_procedural",
  /** STJ and STF classes that serve every branch (Recurso Especial, Agravo Interno...). */
  "superior",
] as const;

export type ClassBranch = (typeof CLASS_BRANCHES)[number];

const KindRulesSchema = z.strictObject({
  about: z.string(),
  rules: z.array(
    z.strictObject({ code: z.int().positive(), kind: z.enum(MOVEMENT_KINDS), why: z.string() }),
  ),
});

const BranchRulesSchema = z.strictObject({
  about: z.string(),
  rules: z.array(
    z.strictObject({ code: z.int().positive(), branch: z.enum(CLASS_BRANCHES), why: z.string() }),
  ),
});

function table(name: string, json: unknown): TableFile {
  const parsed = TableFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `src/tpu/data/${name}: ${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid"}`,
    );
  }
  return parsed.data;
}

/** Rules keyed by code, every code one the tree holds. */
function rulesOf<T>(
  name: string,
  tree: TpuTree,
  rules: readonly { code: number; value: T }[],
): ReadonlyMap<number, T> {
  const map = new Map<number, T>();
  for (const rule of rules) {
    if (!tree.has(rule.code))
      throw new Error(`src/tpu/data/${name}: no code ${rule.code} in the table`);
    if (map.has(rule.code)) throw new Error(`src/tpu/data/${name}: code ${rule.code} listed twice`);
    map.set(rule.code, rule.value);
  }
  return map;
}

export interface Tables {
  movements: TpuTree;
  movementsSource: TableFile["source"];
  classes: TpuTree;
  classesSource: TableFile["source"];
  kindRules: ReadonlyMap<number, MovementKind>;
  branchRules: ReadonlyMap<number, ClassBranch>;
  glosses: ReadonlyMap<number, Gloss>;
}

/** The tables from their files' contents (tests pass small ones). */
export function loadTables(json: {
  movements: unknown;
  classes: unknown;
  kinds: unknown;
  branches: unknown;
  glosses?: unknown;
}): Tables {
  const movementsFile = table("movements.json", json.movements);
  const classesFile = table("classes.json", json.classes);
  const movements = buildTree(movementsFile.items);
  const classes = buildTree(classesFile.items);
  const kinds = KindRulesSchema.parse(json.kinds).rules.map((r) => ({
    code: r.code,
    value: r.kind,
  }));
  const branches = BranchRulesSchema.parse(json.branches).rules.map((r) => ({
    code: r.code,
    value: r.branch,
  }));
  const glosses = GlossFileSchema.parse(json.glosses ?? { about: "", glosses: [] }).glosses;
  return {
    movements,
    movementsSource: movementsFile.source,
    classes,
    classesSource: classesFile.source,
    kindRules: rulesOf("movement-kinds.json", movements, kinds),
    branchRules: rulesOf("class-branches.json", classes, branches),
    glosses: rulesOf(
      "glosses.json",
      movements,
      glosses.map((g) => ({ code: g.code, value: g })),
    ),
  };
}

let loaded: Tables | undefined;

/** The vendored tables, read and checked on first use. */
export function tables(): Tables {
  loaded ??= loadTables({
    movements: movementsJson,
    classes: classesJson,
    kinds: kindsJson,
    branches: branchesJson,
    glosses: glossesJson,
  });
  return loaded;
}
