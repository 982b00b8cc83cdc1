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
  let category: StatusCategory | null = null;
  let cause: Movement | null = null;
  let archive: InstanceStatus["archive"] = null;
  let afterArchive: Movement | null = null;
  let conclusion: Movement | null = null;
  /** Where the instance stood before the judge got it: a despacho returns it there. */
  let beforeConclusion: StatusCategory | null = null;
  let answeredConclusion: InstanceStatus["answeredConclusion"] = null;
  const set = (next: StatusCategory, m: Movement): void => {
    category = next;
    cause = m;
  };
  for (const m of [...record.movements].sort(byDate)) {
    const kind = kindOf(m);
    if (kind === "archiving") {
      const which = archiveKind(m);
      archive = { kind: which, movement: m };
      afterArchive = null;
      conclusion = null;
      set(which === "provisional" ? "archived_provisionally" : "archived", m);
      continue;
    }
    if (kind === "unarchiving") {
      set("in_progress", m);
      afterArchive = null;
      continue;
    }
    const archived = category === "archived" || category === "archived_provisionally";
    if (archived && isActivity(m, kind)) {
      afterArchive = m;
      set("in_progress", m);
    }
    if (conclusion !== null && (kind === "decision" || isDespacho(m) || ANSWERS.has(kind))) {
      answeredConclusion = { conclusion, answer: m };
      conclusion = null;
      // The judge acting is the case moving: a case awaiting citation is no longer only that.
      const back = beforeConclusion === "awaiting_citation" ? null : beforeConclusion;
      if (category === "awaiting_decision") set(back ?? "in_progress", m);
    }
    switch (kind) {
      case "distribution":
        if (appellate) set("appeal_pending", m);
        else if (category === null) set("awaiting_citation", m);
        break;
      case "citation":
        if (category === null || category === "awaiting_citation") set("in_progress", m);
        break;
      case "conclusion":
        if (conclusion === null) beforeConclusion = category;
        conclusion = m;
        answeredConclusion = null;
        set("awaiting_decision", m);
        break;
      case "sentence":
      case "judgment":
      case "final_judgment":
        set("decided", m);
        break;
      case "appeal":
        set("appeal_pending", m);
        break;
      case "execution":
        set("executing_judgment", m);
        break;
      case "suspension":
        set("suspended", m);
        break;
      case "resumption":
        if (category === "suspended") set("in_progress", m);
        break;
      default:
        break;
    }
  }
  return {
    instance: record.instance,
    criminal: isCriminalClass(record.class),
    execution: executionOf(record),
    category: category ?? "in_progress",
    cause,
    archive,
    afterArchive,
    answeredConclusion,
  };
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
