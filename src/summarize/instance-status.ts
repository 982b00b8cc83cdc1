import { formatWallClock } from "../datajud/dates.js";
import { instanceName } from "../datajud/glossary.js";
import type { InstanceRecord, Movement } from "../datajud/instance-record.js";
import { type MovementKind, movementKind } from "../datajud/tpu-hints.js";
import { foldText } from "../text.js";
import { STATUS_LABELS_PT, type StatusCategory } from "./case-summary.js";
import { isCriminalClass, movementTitle } from "./movement-reading.js";

/*
 * Where one instance stands, read from its own movements only: a G2 judgment does not take the
 * first instance's archive, and a G1 archive never heads a G2 alert. Pure.
 *
 * What a lawyer reads differently from the TPU's bare kinds:
 * - a conclusão is answered by the next decision, despacho or judgment: "concluso" lasts until
 *   the judge acts, not until the next conclusão;
 * - an archive is provisional (CPC art. 921 §2: the execução without assets is archived and the
 *   prescrição intercorrente runs, §§4-5; Lei 6.830/1980 art. 40 §§2-4 in an execução fiscal),
 *   definitive, or unspecified when DataJud gives only the parent "Arquivamento" (861);
 * - an act after an archive (a petition, a conclusão, a decision) is activity: the archive is no
 *   longer the last word, and no archive outranks a later decision.
 */

export type ArchiveKind = "provisional" | "definitive" | "unspecified";

export interface InstanceStatus {
  instance: string;
  /** Whether the instance's class is criminal (its judgments read as condenação, absolvição). */
  criminal: boolean;
  /** "Execução", "Execução fiscal" or null: what a provisional archive means depends on it. */
  execution: "execution" | "tax_execution" | null;
  category: StatusCategory;
  /** The movement that put the instance in its category; null when none did. */
  cause: Movement | null;
  /** The instance's last archive, whether or not activity followed it. */
  archive: { kind: ArchiveKind; movement: Movement } | null;
  /** The first act after that archive, when there was one: the archive is then history. */
  afterArchive: Movement | null;
  /** A conclusão the judge answered later (by a decision or a despacho), and the answer. */
  answeredConclusion: { conclusion: Movement; answer: Movement } | null;
}

/** Instances that hear appeals: a distribution there means an appeal is pending. */
export function isAppellate(instance: string): boolean {
  return !["G1", "JE", "unknown"].includes(instance);
}

export function kindOf(m: Movement): MovementKind {
  const said = m.complements.map((c) => [c.description, c.name, c.value].join(" "));
  return movementKind(m.code, m.name, said);
}

/** TPU 11009 Despacho and 11010 Mero expediente, or a name that says despacho. */
export function isDespacho(m: Movement): boolean {
  return (
    m.code === 11009 || m.code === 11010 || /\bdespacho|mero expediente/.test(foldText(m.name))
  );
}

/** TPU 85 Petição (juntada), 118 Protocolo de Petição, or a name that says petição. */
export function isPetition(m: Movement): boolean {
  return m.code === 85 || m.code === 118 || /\bpeticao\b/.test(foldText(m.name));
}

/** TPU 245 Provisório and 246 Definitivo under 861 Arquivamento; otherwise the words say it. */
export function archiveKind(m: Movement): ArchiveKind {
  if (m.code === 245) return "provisional";
  if (m.code === 246) return "definitive";
  const said = foldText(
    [m.name, ...m.complements.map((c) => `${c.name ?? ""} ${c.value ?? ""}`)].join(" "),
  );
  if (/provisori/.test(said)) return "provisional";
  if (/definitiv/.test(said)) return "definitive";
  return "unspecified";
}

/** Acts that show the instance is moving again after an archive. */
const ACTIVITY: ReadonlySet<MovementKind> = new Set([
  "conclusion",
  "decision",
  "sentence",
  "judgment",
  "final_judgment",
  "appeal",
  "execution",
  "suspension",
  "resumption",
  "hearing",
  "session",
  "citation",
  "distribution",
]);

function isActivity(m: Movement, kind: MovementKind): boolean {
  return ACTIVITY.has(kind) || isDespacho(m) || isPetition(m);
}

function executionOf(record: Pick<InstanceRecord, "class">): InstanceStatus["execution"] {
  const klass = record.class;
  if (klass === null) return null;
  const name = foldText(klass.name);
  if (klass.code === 1116 || /execucao fiscal/.test(name)) return "tax_execution";
  return /execu|cumprimento/.test(name) ? "execution" : null;
}

function byDate(a: Movement, b: Movement): number {
  return (a.dateTime ?? "").localeCompare(b.dateTime ?? "");
}

/** One instance's status from its own movements, oldest first. */
export function instanceStatus(
  record: Pick<InstanceRecord, "instance" | "class" | "movements">,
): InstanceStatus {
  const appellate = isAppellate(record.instance);
  const walk: Walk = {
    category: null,
    cause: null,
    archive: null,
    afterArchive: null,
    conclusion: null,
    beforeConclusion: null,
    answeredConclusion: null,
  };
  for (const m of [...record.movements].sort(byDate)) read(walk, m, appellate);
  return {
    instance: record.instance,
    criminal: isCriminalClass(record.class),
    execution: executionOf(record),
    category: walk.category ?? "in_progress",
    cause: walk.cause,
    archive: walk.archive,
    afterArchive: walk.afterArchive,
    answeredConclusion: walk.answeredConclusion,
  };
}

/** Where the instance stands so far, as its movements are read oldest first. */
interface Walk {
  category: StatusCategory | null;
  cause: Movement | null;
  archive: InstanceStatus["archive"];
  afterArchive: Movement | null;
  /** The conclusão the judge has not answered yet. */
  conclusion: Movement | null;
  /** Where the instance stood before the judge got it: a despacho returns it there. */
  beforeConclusion: StatusCategory | null;
  answeredConclusion: InstanceStatus["answeredConclusion"];
}

function set(walk: Walk, next: StatusCategory, m: Movement): void {
  walk.category = next;
  walk.cause = m;
}

/** The next movement read into the walk. */
function read(walk: Walk, m: Movement, appellate: boolean): void {
  const kind = kindOf(m);
  if (kind === "archiving") {
    const which = archiveKind(m);
    walk.archive = { kind: which, movement: m };
    walk.afterArchive = null;
    walk.conclusion = null;
    set(walk, which === "provisional" ? "archived_provisionally" : "archived", m);
    return;
  }
  if (kind === "unarchiving") {
    set(walk, "in_progress", m);
    walk.afterArchive = null;
    return;
  }
  const archived = walk.category === "archived" || walk.category === "archived_provisionally";
  if (archived && isActivity(m, kind)) {
    walk.afterArchive = m;
    set(walk, "in_progress", m);
  }
  if (walk.conclusion !== null && (kind === "decision" || isDespacho(m) || ANSWERS.has(kind))) {
    walk.answeredConclusion = { conclusion: walk.conclusion, answer: m };
    walk.conclusion = null;
    // The judge acting is the case moving: a case awaiting citation is no longer only that.
    const back = walk.beforeConclusion === "awaiting_citation" ? null : walk.beforeConclusion;
    if (walk.category === "awaiting_decision") set(walk, back ?? "in_progress", m);
  }
  if (kind === "conclusion") {
    if (walk.conclusion === null) walk.beforeConclusion = walk.category;
    walk.conclusion = m;
    walk.answeredConclusion = null;
  }
  const next = categoryAfter(kind, walk.category, appellate);
  if (next !== null) set(walk, next, m);
}

/**
 * The category a movement of this kind puts the instance in from where it stands (archives
 * aside); null: it stays where it is.
 */
export function categoryAfter(
  kind: MovementKind,
  current: StatusCategory | null,
  appellate: boolean,
): StatusCategory | null {
  switch (kind) {
    case "distribution":
      if (appellate) return "appeal_pending";
      return current === null ? "awaiting_citation" : null;
    case "citation":
      return current === null || current === "awaiting_citation" ? "in_progress" : null;
    case "conclusion":
      return "awaiting_decision";
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
    case "resumption":
      return current === "suspended" ? "in_progress" : null;
    default:
      return null;
  }
}

/** Judgments answer a conclusão as a decision does. */
const ANSWERS: ReadonlySet<MovementKind> = new Set(["sentence", "judgment", "final_judgment"]);

export function movementDay(m: Movement): string {
  return m.dateTime === null ? "data não informada" : formatWallClock(m.dateTime).slice(0, 10);
}

function actText(m: Movement, s: InstanceStatus): string {
  return `${movementTitle(m, { criminal: s.criminal })} em ${movementDay(m)}`;
}

/** What a provisional archive means in this class, with its law. */
export function provisionalArchiveText(s: InstanceStatus): string {
  if (s.execution === "tax_execution") {
    return "execução fiscal arquivada sem baixa (Lei 6.830/1980, art. 40, § 2º): a prescrição intercorrente corre (art. 40, § 4º); desarquiva-se se forem encontrados o devedor ou bens (§ 3º)";
  }
  if (s.execution === "execution") {
    return "execução arquivada por falta de bens ou do executado (CPC, art. 921, § 2º): a prescrição intercorrente corre e pode ser reconhecida de ofício, ouvidas as partes (art. 921, §§ 4º e 5º); desarquiva-se se forem encontrados bens penhoráveis (§ 3º)";
  }
  return "arquivamento provisório: os autos podem ser desarquivados a pedido da parte";
}

const ARCHIVE_PT: Record<ArchiveKind, string> = {
  provisional: "arquivado provisoriamente",
  definitive: "arquivado definitivamente",
  unspecified: "arquivado (o DataJud não diz se provisória ou definitivamente)",
};

/**
 * "arquivado provisoriamente em 20/01/2023 (execução arquivada...)", "concluso para decisão desde
 * 02/09/2026", "em andamento: petição em 10/11/2026, depois do arquivamento provisório de
 * 20/01/2023": where the instance stands, with the act and day that put it there.
 */
export function instanceStatusText(s: InstanceStatus): string {
  const { archive, afterArchive, cause } = s;
  if (archive !== null && afterArchive === null && cause === archive.movement) {
    const what = `${ARCHIVE_PT[archive.kind]} em ${movementDay(archive.movement)}`;
    return archive.kind === "provisional" ? `${what} (${provisionalArchiveText(s)})` : what;
  }
  const label = STATUS_LABELS_PT[s.category];
  if (archive !== null && afterArchive !== null) {
    const then = cause !== null && cause !== afterArchive ? `; depois, ${actText(cause, s)}` : "";
    return `${label}: ${actText(afterArchive, s)}, depois do arquivamento ${ARCHIVE_WORD[archive.kind]}de ${movementDay(archive.movement)}${then}`;
  }
  if (s.category === "awaiting_decision" && cause !== null)
    return `${label} desde ${movementDay(cause)}`;
  const answered = s.answeredConclusion;
  if (answered !== null && cause === answered.answer && !ANSWERS.has(kindOf(cause))) {
    return `${label}: a conclusão de ${movementDay(answered.conclusion)} foi respondida (${actText(answered.answer, s)})`;
  }
  return cause === null ? label : `${label} (${actText(cause, s)})`;
}

const ARCHIVE_WORD: Record<ArchiveKind, string> = {
  provisional: "provisório ",
  definitive: "definitivo ",
  unspecified: "",
};

/** "1º grau: arquivado definitivamente em ..." for each instance, in the records' order. */
export function instancesStatusText(statuses: readonly InstanceStatus[]): string {
  return statuses
    .map((s) => `${instanceName(s.instance) ?? s.instance}: ${instanceStatusText(s)}`)
    .join("; ");
}
