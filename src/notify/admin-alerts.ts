import { z } from "zod";
import { type Db, immediate } from "../store/database.js";
import { enqueueAlert } from "../store/outbox.js";
import { alertMessageId, caseThreadKey } from "./message-ids.js";
import {
  ATTENTION_MARKER,
  escapeHtml,
  htmlDocument,
  oneLine,
  type RenderedAlert,
  STYLES,
  tag,
  when,
} from "./render-alert.js";

/**
 * Mail to `mail.admin` about problems only a person can fix. Every finding is derived from what
 * the sweeps stored (the `checks` table), so it is the same whichever process asks, and each one
 * is an outbox row with its own key: it is mailed once, however many sweeps still see it.
 */

export const DEFAULT_FAILING_AFTER_MS = 24 * 60 * 60_000;
const KEY_PAGE = "https://datajud-wiki.cnj.jus.br/api-publica/acesso";
const ERROR_SHOWN = 300;
const SUBJECT_MAX = 200;

export const AuthRejectedAlert = z.object({
  type: z.literal("auth_rejected"),
  /** The first check refused after the last check DataJud answered: identifies the incident. */
  since: z.string(),
  lastError: z.string().nullable(),
  /** Watched cases whose latest check was refused for the key. */
  affectedCases: z.number().int().nonnegative(),
});
export type AuthRejectedAlert = z.infer<typeof AuthRejectedAlert>;

export const CaseFailingAlert = z.object({
  type: z.literal("case_failing"),
  caseNumber: z.string(),
  court: z.string(),
  label: z.string().nullable(),
  /** The oldest failed check after the case's last check that did not fail. */
  failingSince: z.string(),
  lastCheckedAt: z.string().nullable(),
  failures: z.number().int().nonnegative(),
  lastErrorKind: z.string().nullable(),
  lastError: z.string().nullable(),
  thresholdHours: z.number().positive(),
});
export type CaseFailingAlert = z.infer<typeof CaseFailingAlert>;

export const AdminAlert = z.discriminatedUnion("type", [AuthRejectedAlert, CaseFailingAlert]);
export type AdminAlert = z.infer<typeof AdminAlert>;

export interface QueueAdminAlertsInput {
  db: Db;
  /** `mail.admin`; null: nobody is told (the sweep's own log lines remain). */
  admin: string | null;
  /** The domain of our Message-IDs. */
  domain: string;
  now: Date;
  /** How long a case may keep failing before the operator hears of it. @default 24 h */
  failingAfterMs?: number;
}

interface FailingCaseRow {
  id: number;
  number: string;
  court: string;
  label: string | null;
  watched: number;
  failures: number;
  lastCheckedAt: string | null;
}

interface CheckRef {
  at: string;
  errorKind: string | null;
  error: string | null;
}

interface Finding {
  dedupeKey: string;
  caseId: number | null;
  alert: AdminAlert;
}

/*
 * Every query below walks the (case_id, checked_at) index from one end and stops at the first
 * match, and only for cases whose latest check failed, so a sweep pays nothing when all is well.
 */
function failingCases(db: Db): FailingCaseRow[] {
  return db
    .prepare<[], FailingCaseRow>(
      `SELECT id, number, court, label, watched, consecutive_failures AS failures,
         last_checked_at AS lastCheckedAt
       FROM cases WHERE last_outcome = 'failed' ORDER BY id`,
    )
    .all();
}

/** When DataJud last answered for any case that is not failing now. */
function lastAnsweredOfHealthyCases(db: Db): string | null {
  return (
    db
      .prepare<[], { at: string | null }>(
        `SELECT MAX(last_checked_at) AS at FROM cases
         WHERE last_outcome IS NOT NULL AND last_outcome != 'failed'`,
      )
      .get()?.at ?? null
  );
}

function lastAnswered(db: Db, caseId: number): string | null {
  return (
    db
      .prepare<[number], { at: string }>(
        `SELECT checked_at AS at FROM checks WHERE case_id = ? AND outcome != 'failed'
         ORDER BY checked_at DESC, id DESC LIMIT 1`,
      )
      .get(caseId)?.at ?? null
  );
}

/** `>=`: a failure stamped the same millisecond as another case's answer still counts. */
function firstFailureAfter(
  db: Db,
  caseId: number,
  after: string | null,
  onlyKind: string | null,
): string | null {
  return (
    db
      .prepare<{ caseId: number; after: string; kind: string | null }, { at: string }>(
        `SELECT checked_at AS at FROM checks
         WHERE case_id = @caseId AND outcome = 'failed' AND checked_at >= @after
           AND (@kind IS NULL OR error_kind = @kind)
         ORDER BY checked_at, id LIMIT 1`,
      )
      .get({ caseId, after: after ?? "", kind: onlyKind })?.at ?? null
  );
}

function latestCheck(db: Db, caseId: number): CheckRef | null {
  return (
    db
      .prepare<[number], CheckRef>(
        `SELECT checked_at AS at, error_kind AS errorKind, error FROM checks WHERE case_id = ?
         ORDER BY checked_at DESC, id DESC LIMIT 1`,
      )
      .get(caseId) ?? null
  );
}

function latestOf(values: ReadonlyArray<string | null>): string | null {
  let best: string | null = null;
  for (const v of values) if (v !== null && (best === null || v > best)) best = v;
  return best;
}

function earliestOf(values: ReadonlyArray<string | null>): string | null {
  let best: string | null = null;
  for (const v of values) if (v !== null && (best === null || v < best)) best = v;
  return best;
}

/**
 * What the operator should hear about now. The key incident is "DataJud refused the key at some
 * point after it last answered for any case": it starts with the first refusal and ends with the
 * first answer, so it is one e-mail per incident (a rotated key left for a week is one e-mail; a
 * key rotated again next month is another). A case failing for a day is one e-mail per
 * (case, failing since): it ends when the case is read again.
 */
function findings(db: Db, recipient: string, now: Date, failingAfterMs: number): Finding[] {
  const cases = failingCases(db).map((row) => {
    const answered = lastAnswered(db, row.id);
    return { row, answered, latest: latestCheck(db, row.id) };
  });
  const lastAnsweredAnywhere = latestOf([
    lastAnsweredOfHealthyCases(db),
    ...cases.map((c) => c.answered),
  ]);
  const authSince = earliestOf(
    cases.map((c) => firstFailureAfter(db, c.row.id, lastAnsweredAnywhere, "auth")),
  );
  const out: Finding[] = [];
  const who = recipient.toLowerCase();

  if (authSince !== null) {
    const refused = cases.filter((c) => c.latest?.errorKind === "auth");
    out.push({
      dedupeKey: `admin:auth:${authSince}:${who}`,
      caseId: null,
      alert: {
        type: "auth_rejected",
        since: authSince,
        lastError: refused.find((c) => c.latest?.error)?.latest?.error ?? null,
        affectedCases: refused.filter((c) => c.row.watched === 1).length,
      },
    });
  }

  for (const { row, answered, latest } of cases) {
    if (row.watched !== 1) continue;
    // The key e-mail already covers these, and says what to do for all of them at once.
    if (authSince !== null && latest?.errorKind === "auth") continue;
    const since = firstFailureAfter(db, row.id, answered, null);
    if (since === null || now.getTime() - Date.parse(since) < failingAfterMs) continue;
    out.push({
      dedupeKey: `admin:failing:${caseThreadKey(row.number, row.court)}:${since}:${who}`,
      caseId: row.id,
      alert: {
        type: "case_failing",
        caseNumber: row.number,
        court: row.court,
        label: row.label,
        failingSince: since,
        lastCheckedAt: latest?.at ?? row.lastCheckedAt,
        failures: row.failures,
        lastErrorKind: latest?.errorKind ?? null,
        lastError: latest?.error ?? null,
        thresholdHours: Math.round((failingAfterMs / 3_600_000) * 10) / 10,
      },
    });
  }
  return out;
}

/**
 * Queues what the operator has not been told yet; call it after each sweep, before the drain.
 * Returns how many rows were new (0 when nothing is wrong, or everything was already queued).
 */
export function queueAdminAlerts(input: QueueAdminAlertsInput): number {
  const admin = input.admin?.trim() ?? "";
  if (admin === "") return 0;
  const failingAfterMs = input.failingAfterMs ?? DEFAULT_FAILING_AFTER_MS;
  const createdAt = input.now.toISOString();
  return immediate(input.db, () => {
    let queued = 0;
    for (const finding of findings(input.db, admin, input.now, failingAfterMs)) {
      const inserted = enqueueAlert(input.db, {
        changeId: null,
        caseId: finding.caseId,
        recipient: admin,
        kind: "admin",
        dedupeKey: finding.dedupeKey,
        subject: renderAdminSubject([finding.alert]),
        messageId: alertMessageId(finding.dedupeKey, input.domain),
        payload: finding.alert,
        createdAt,
      });
      if (inserted) queued++;
    }
    return queued;
  });
}

function partition(alerts: readonly AdminAlert[]): {
  auth: AuthRejectedAlert | null;
  failing: CaseFailingAlert[];
} {
  let auth: AuthRejectedAlert | null = null;
  const failing: CaseFailingAlert[] = [];
  for (const a of alerts) {
    if (a.type === "auth_rejected") auth ??= a;
    else failing.push(a);
  }
  return { auth, failing };
}

function hoursText(hours: number): string {
  return hours === 24 ? "um dia" : `${String(hours).replace(".", ",")} h`;
}

function failingPhrase(failing: readonly CaseFailingAlert[]): string {
  const hours = hoursText(Math.min(...failing.map((f) => f.thresholdHours)));
  return failing.length === 1
    ? `1 processo sem consulta há mais de ${hours}`
    : `${failing.length} processos sem consulta há mais de ${hours}`;
}

export function renderAdminSubject(alerts: readonly AdminAlert[]): string {
  const { auth, failing } = partition(alerts);
  const parts: string[] = [];
  if (auth !== null) parts.push("DataJud recusou a chave da API");
  if (failing.length > 0) parts.push(failingPhrase(failing));
  return oneLine(`[datajud] ${ATTENTION_MARKER} ${parts.join("; ")}`, SUBJECT_MAX);
}

function errorText(kind: string | null, error: string | null): string {
  const message = error === null ? "" : oneLine(error, ERROR_SHOWN);
  const label = kind === null ? "" : oneLine(kind, 40);
  if (message === "") return label === "" ? "sem detalhes" : label;
  return label === "" ? message : `${label}: ${message}`;
}

function authLines(auth: AuthRejectedAlert): { intro: string[]; steps: string[]; outro: string[] } {
  const cases = auth.affectedCases === 1 ? "1 processo" : `${auth.affectedCases} processos`;
  return {
    intro: [
      `Desde ${when(auth.since)}, o DataJud recusa a chave da API pública (HTTP 401); ${cases} do watchlist não estão sendo consultados.`,
      "O CNJ troca essa chave pública de tempos em tempos, sem aviso.",
    ],
    steps: [
      `Copie a chave atual em ${KEY_PAGE}.`,
      "Grave-a em DATAJUD_API_KEY (ou no arquivo de DATAJUD_API_KEY_FILE, ou na credencial do systemd).",
      "Reinicie o serviço (systemctl restart datajud-monitor) e confira com monitor run-once.",
    ],
    outro: [
      "Nada se perde: o que mudou nos processos enquanto isso é detectado na primeira consulta depois da troca.",
      `Último erro: ${errorText("auth", auth.lastError)}`,
    ],
  };
}

function caseTitle(f: CaseFailingAlert): string {
  const label = f.label === null ? "" : oneLine(f.label, 80);
  const number = oneLine(f.caseNumber, 40);
  return label === "" ? number : `${label} (${number})`;
}

function caseLines(f: CaseFailingAlert): string[] {
  return [
    `${caseTitle(f)} · ${oneLine(f.court, 20).toUpperCase()}`,
    `Falhando desde ${when(f.failingSince)}; ${f.failures} tentativa(s); última em ${when(f.lastCheckedAt)}.`,
    `Último erro: ${errorText(f.lastErrorKind, f.lastError)}`,
  ];
}

const FAILING_ADVICE = [
  "Falhas de rede, tempo esgotado ou erro do servidor (network, timeout, server) costumam ser do DataJud e passam sozinhas; o monitor continua tentando.",
  "unknown_index ou unsupported_court: o tribunal do processo no watchlist está errado; corrija o campo court.",
  "monitor status mostra a situação de cada processo.",
];

function renderText(alerts: readonly AdminAlert[]): string {
  const { auth, failing } = partition(alerts);
  const out: string[] = [];
  if (auth !== null) {
    const { intro, steps, outro } = authLines(auth);
    out.push(`${ATTENTION_MARKER} O DATAJUD RECUSOU A CHAVE DA API`, ...intro, "", "O que fazer:");
    steps.forEach((step, i) => {
      out.push(`${i + 1}. ${step}`);
    });
    out.push("", ...outro, "");
  }
  if (failing.length > 0) {
    out.push(`${ATTENTION_MARKER} ${failingPhrase(failing).toUpperCase()}`);
    for (const f of failing)
      out.push("", ...caseLines(f).map((l, i) => (i === 0 ? `- ${l}` : `  ${l}`)));
    out.push("", ...FAILING_ADVICE, "");
  }
  out.push("Horários de Brasília (America/Sao_Paulo). Mensagem automática do datajud-monitor.");
  return `${out.join("\n")}\n`;
}

function renderHtml(alerts: readonly AdminAlert[], subject: string): string {
  const e = escapeHtml;
  const { auth, failing } = partition(alerts);
  const parts: string[] = [];
  if (auth !== null) {
    const { intro, steps, outro } = authLines(auth);
    parts.push(tag("h1", STYLES.h1, `${ATTENTION_MARKER} O DataJud recusou a chave da API`));
    for (const line of intro) parts.push(tag("p", STYLES.p, e(line)));
    parts.push(tag("p", STYLES.p, "<strong>O que fazer:</strong>"));
    parts.push(tag("ol", STYLES.ul, steps.map((s) => tag("li", STYLES.li, e(s))).join("")));
    for (const line of outro) parts.push(tag("p", STYLES.small, e(line)));
  }
  if (failing.length > 0) {
    const heading = `${ATTENTION_MARKER} ${failingPhrase(failing)}`;
    parts.push(tag(auth === null ? "h1" : "h2", auth === null ? STYLES.h1 : STYLES.h2, e(heading)));
    const items = failing.map((f) => {
      const [title = "", ...rest] = caseLines(f);
      return tag(
        "li",
        STYLES.li,
        [`<strong>${e(title)}</strong>`, ...rest.map((l) => tag("span", STYLES.muted, e(l)))].join(
          "<br>",
        ),
      );
    });
    parts.push(tag("ul", STYLES.ul, items.join("")));
    for (const line of FAILING_ADVICE) parts.push(tag("p", STYLES.small, e(line)));
  }
  parts.push(
    tag(
      "p",
      STYLES.footer,
      "Horários de Brasília (America/Sao_Paulo). Mensagem automática do datajud-monitor.",
    ),
  );
  return htmlDocument(subject, parts);
}

/** One e-mail for every operator finding due to one address; pure, like the alert renderer. */
export function renderAdminAlert(alerts: readonly AdminAlert[]): RenderedAlert {
  if (alerts.length === 0) throw new RangeError("an operator alert needs at least one finding");
  const subject = renderAdminSubject(alerts);
  return { subject, text: renderText(alerts), html: renderHtml(alerts, subject) };
}
