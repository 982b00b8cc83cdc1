import { z } from "zod";
import { COURT_TIME_ZONE } from "../../datajud/dates.js";
import {
  type EndpointAlert,
  EndpointDeadAlert,
  EndpointDisabledAlert,
  EndpointUnsendableAlert,
  enableCommand,
} from "../../policy/endpoint-health.js";
import { CaseFailingAlert } from "../../policy/failing-cases.js";
import { CaseGoneAlert } from "../../policy/gone-cases.js";
import {
  AuthRecoveredAlert,
  AuthRejectedAlert,
  DjenFailingAlert,
  DjenRecoveredAlert,
  type HealthAlert,
  SweepsFailingAlert,
  SweepsRecoveredAlert,
} from "../../policy/health.js";
import { CourtSilentAlert } from "../../policy/source-freshness.js";
import {
  type WatchlistAlert,
  WatchlistInvalidAlert,
  WatchlistRecoveredAlert,
} from "../../policy/watchlist-health.js";
import { oneLine } from "../../text.js";
import { formatBrazilian } from "../../time/calendar-date.js";
import { type Block, type EmailDocument, GAP, heading, para, renderDocument } from "./document.js";
import { ATTENTION_MARKER, instantTime, type RenderedAlert } from "./email-kit.js";

/**
 * Mail to `mail.admin` about problems only a person can fix: the key refused, DataJud down for
 * whole sweeps, a case failing for a day, a case DataJud no longer returns (what decides them:
 * policy/health.ts, policy/failing-cases.ts, policy/gone-cases.ts; what queues them:
 * notify/outbox/queue-operator-alerts.ts). In English like the CLI and the logs (it is for the
 * operator; what lawyers read is Portuguese); labels, court names and errors are quoted as data.
 */

const KEY_PAGE = "https://datajud-wiki.cnj.jus.br/api-publica/acesso";
const ERROR_SHOWN = 300;
const SUBJECT_MAX = 200;

export const AdminAlert = z.discriminatedUnion("type", [
  AuthRejectedAlert,
  AuthRecoveredAlert,
  SweepsFailingAlert,
  SweepsRecoveredAlert,
  CaseFailingAlert,
  CaseGoneAlert,
  DjenFailingAlert,
  DjenRecoveredAlert,
  EndpointDisabledAlert,
  EndpointDeadAlert,
  EndpointUnsendableAlert,
  CourtSilentAlert,
  WatchlistInvalidAlert,
  WatchlistRecoveredAlert,
]);
export type AdminAlert = z.infer<typeof AdminAlert>;

function isEndpoint(alert: AdminAlert): alert is EndpointAlert {
  return (
    alert.type === "endpoint_disabled" ||
    alert.type === "endpoint_dead" ||
    alert.type === "endpoint_unsendable"
  );
}

function isWatchlist(alert: AdminAlert): alert is WatchlistAlert {
  return alert.type === "watchlist_invalid" || alert.type === "watchlist_recovered";
}

function isHealth(alert: AdminAlert): alert is HealthAlert {
  return (
    alert.type !== "case_failing" &&
    alert.type !== "case_gone" &&
    alert.type !== "court_silent" &&
    !isEndpoint(alert) &&
    !isWatchlist(alert)
  );
}

function silentPhrase(alert: CourtSilentAlert): string {
  return `DataJud silent for ${oneLine(alert.court, 20).toUpperCase()} while DJEN publishes`;
}

function watchlistSubject(alert: WatchlistAlert): string {
  return alert.type === "watchlist_invalid"
    ? "The watchlist file is invalid: the daemon runs on its last good copy"
    : "The watchlist file is valid again";
}

function isProblem(alert: AdminAlert): boolean {
  return (
    alert.type !== "auth_recovered" &&
    alert.type !== "sweeps_recovered" &&
    alert.type !== "djen_recovered"
  );
}

function hoursText(hours: number): string {
  return hours === 24 ? "a day" : `${hours} h`;
}

function failingPhrase(failing: readonly CaseFailingAlert[]): string {
  const hours = hoursText(Math.min(...failing.map((f) => f.thresholdHours)));
  return failing.length === 1
    ? `1 case not checked for over ${hours}`
    : `${failing.length} cases not checked for over ${hours}`;
}

function gonePhrase(gone: readonly CaseGoneAlert[]): string {
  return gone.length === 1
    ? "1 case not found in DataJud"
    : `${gone.length} cases not found in DataJud`;
}

function endpointName(alert: EndpointAlert): string {
  return `${oneLine(alert.channel, 20)} "${oneLine(alert.name, 60)}"`;
}

function endpointPhrase(alert: EndpointAlert): string {
  if (alert.type === "endpoint_unsendable") {
    return `alerts not sent to endpoint ${endpointName(alert)}: the daemon has no ${alert.missing.map((v) => oneLine(v, 64)).join(" and ")}`;
  }
  return alert.type === "endpoint_disabled"
    ? `endpoint ${endpointName(alert)} disabled (410 Gone)`
    : `alerts not delivered to endpoint ${endpointName(alert)}`;
}

function sweepsPhrase(n: number): string {
  return n === 1 ? "in the last sweep" : `in ${n} sweeps in a row`;
}

function healthSubject(alert: HealthAlert): string {
  switch (alert.type) {
    case "auth_rejected":
      return "DataJud refused the API key";
    case "auth_recovered":
      return "DataJud accepts the API key again";
    case "sweeps_failing":
      return `DataJud did not answer ${sweepsPhrase(alert.failedSweeps)}`;
    case "sweeps_recovered":
      return "DataJud answers again";
    case "djen_failing":
      return alert.blocked
        ? "DJEN refused this server's address (outside Brazil)"
        : `DJEN did not answer ${sweepsPhrase(alert.failedSweeps)}`;
    case "djen_recovered":
      return "DJEN answers again";
  }
}

/** Problems first, then what is over; the marker only when something still needs a person. */
export function renderAdminSubject(alerts: readonly AdminAlert[]): string {
  const failing = alerts.filter((a) => a.type === "case_failing");
  const gone = alerts.filter((a) => a.type === "case_gone");
  const problems = alerts.filter(isHealth).filter(isProblem).map(healthSubject);
  problems.push(
    ...alerts.filter((a) => a.type === "watchlist_invalid").map((a) => watchlistSubject(a)),
  );
  if (failing.length > 0) problems.push(failingPhrase(failing));
  if (gone.length > 0) problems.push(gonePhrase(gone));
  problems.push(...alerts.filter(isEndpoint).map(endpointPhrase));
  problems.push(...alerts.filter((a) => a.type === "court_silent").map(silentPhrase));
  const recoveries = [
    ...alerts
      .filter(isHealth)
      .filter((a) => !isProblem(a))
      .map(healthSubject),
    ...alerts.filter((a) => a.type === "watchlist_recovered").map((a) => watchlistSubject(a)),
  ];
  const parts = [...new Set([...problems, ...recoveries])];
  const marker = problems.length > 0 ? ` ${ATTENTION_MARKER}` : "";
  return oneLine(`[datajud]${marker} ${parts.join("; ")}`, SUBJECT_MAX);
}

function errorText(kind: string | null, error: string | null): string {
  const message = error === null ? "" : oneLine(error, ERROR_SHOWN);
  const label = kind === null ? "" : oneLine(kind, 40);
  if (message === "") return label === "" ? "no details" : label;
  return label === "" ? message : `${label}: ${message}`;
}

/** One part of the e-mail. Every string is plain text: the HTML part escapes it. */
interface Section {
  /** The text part shows it in capitals. */
  heading: string;
  intro: string[];
  /** One per case: its title, then its detail lines. */
  items: string[][];
  /** "Possible causes", a bulleted list before the steps. */
  causes: string[];
  /** "What to do", numbered. */
  steps: string[];
  notes: string[];
}

function section(heading: string, parts: Partial<Omit<Section, "heading">>): Section {
  return { heading, intro: [], items: [], causes: [], steps: [], notes: [], ...parts };
}

/** Our instants, shown in the schedule's time zone. */
type ShowInstant = (iso: string | null) => string;

function authRejectedSection(auth: AuthRejectedAlert, when: ShowInstant): Section {
  const cases =
    auth.affectedCases === 1 ? "1 watched case is" : `${auth.affectedCases} watched cases are`;
  return section(`${ATTENTION_MARKER} DataJud refused the API key`, {
    intro: [
      `Since ${when(auth.since)}, DataJud has refused the public API key (HTTP 401); ${cases} not being checked.`,
      "CNJ replaces this public key from time to time, without notice.",
    ],
    steps: [
      `Copy the current key from ${KEY_PAGE}.`,
      "Store it in DATAJUD_API_KEY (or in the file DATAJUD_API_KEY_FILE names, or in the systemd credential).",
      "Restart the service (systemctl restart datajud-monitor) and check with datajud-monitor run-once.",
    ],
    notes: [
      "Nothing is lost: what changed in the cases meanwhile is found at the first check after the new key.",
      `Last error: ${errorText("auth", auth.lastError)}`,
    ],
  });
}

function authRecoveredSection(alert: AuthRecoveredAlert, when: ShowInstant): Section {
  return section("DataJud accepts the API key again", {
    intro: [
      `The public API key, refused by DataJud since ${when(alert.since)}, is accepted again: cases were checked again at ${when(alert.recoveredAt)}.`,
      "The monitor works normally again; nothing more to do.",
    ],
  });
}

function sweepsFailingSection(alert: SweepsFailingAlert, when: ShowInstant): Section {
  const n = alert.failedSweeps;
  const sweeps = n === 1 ? "the last sweep ended" : `${n} sweeps in a row ended`;
  return section(`${ATTENTION_MARKER} The monitor cannot reach DataJud`, {
    intro: [
      `Since ${when(alert.since)}, ${sweeps} without a single answer from DataJud: no watched case was checked.`,
      "Nothing is lost: the monitor keeps trying every sweep, and what changed in the cases meanwhile is found at the first check that works.",
    ],
    // One operator saw a rotated key as two days of timeouts, never a 401: whatever the error,
    // the key stays on the list.
    causes: [
      "DataJud down or slow (timeout, 5xx error): it usually passes on its own.",
      `A wrong or replaced API key: CNJ replaces the public key without notice, and a replaced key can show as a timeout on every check, not only as a refusal (HTTP 401). Compare DATAJUD_API_KEY with the key published at ${KEY_PAGE}.`,
      "The server's network: DNS, proxy or firewall blocking api-publica.datajud.cnj.jus.br.",
    ],
    steps: [
      `Check the key at ${KEY_PAGE}; if it changed, store the new one in DATAJUD_API_KEY (or in the file DATAJUD_API_KEY_FILE names, or in the systemd credential) and restart the service.`,
      "datajud-monitor status shows each case's last error.",
      "datajud-monitor doctor tests the configuration, the API key and access to DataJud, and says what to fix.",
      "journalctl -u datajud-monitor shows the service's log (network, DNS, proxy, timeouts).",
    ],
    notes: [
      "Another e-mail will say when DataJud answers again.",
      `Last error: ${errorText(alert.lastErrorKind, alert.lastError)}`,
    ],
  });
}

function sweepsRecoveredSection(alert: SweepsRecoveredAlert, when: ShowInstant): Section {
  const n = alert.failedSweeps ?? 0;
  const streak =
    n === 0 ? "" : ` (${n === 1 ? "1 sweep" : `${n} sweeps in a row`} without an answer)`;
  return section("The monitor reaches DataJud again", {
    intro: [
      `DataJud checks, failing since ${when(alert.since)}${streak}, work again since ${when(alert.recoveredAt)}.`,
      "The monitor works normally again; what changed in the cases meanwhile is found in the next sweeps.",
    ],
  });
}

function djenFailingSection(alert: DjenFailingAlert, when: ShowInstant): Section {
  const last = `Last error${alert.lastSource === null ? "" : ` (${oneLine(alert.lastSource, 80)})`}: ${errorText(alert.lastErrorKind, alert.lastError)}`;
  if (alert.blocked) {
    return section(`${ATTENTION_MARKER} DJEN refuses this server's address`, {
      intro: [
        `Since ${when(alert.since)}, DJEN (Diário de Justiça Eletrônico Nacional, the source of the intimações and citações that start deadlines) has answered HTTP 403 to this server: DJEN's API answers only addresses in Brazil.`,
        "Meanwhile no DJEN publication is read; the cases are still followed through DataJud.",
      ],
      steps: [
        "Run the monitor from a server in Brazil, or point DJEN_BASE_URL at a proxy in Brazil.",
        "If publications are not needed, turn DJEN off: djen.enabled: false in the configuration (or DJEN_ENABLED=false), then restart the service.",
        "datajud-monitor doctor tests access to DJEN and says whether the address was refused.",
      ],
      notes: ["Another e-mail will say when DJEN answers again.", last],
    });
  }
  const n = alert.failedSweeps;
  const sweeps = n === 1 ? "the last sweep ended" : `${n} sweeps in a row ended`;
  return section(`${ATTENTION_MARKER} The monitor cannot reach DJEN`, {
    intro: [
      `Since ${when(alert.since)}, ${sweeps} without a single answer from DJEN: no publication (intimações, citações) was read.`,
      "This does not mean there were no publications: the monitor keeps trying every sweep, and the first check that works asks again for everything made available since the last complete check (up to 31 days back).",
    ],
    causes: [
      "DJEN down, slow or limiting requests (HTTP 429 or 5xx): it usually passes on its own.",
      "The server's network: DNS, proxy or firewall blocking comunicaapi.pje.jus.br.",
      "Answers that do not match the request (DJEN ignored a filter): they are refused, never used.",
    ],
    steps: [
      "datajud-monitor status shows the last error of each DJEN check.",
      "datajud-monitor doctor tests access to DJEN.",
      "If sweeps do not finish in time, follow fewer cases or OAB registrations (each costs DJEN requests, and DJEN takes about 20 a minute).",
    ],
    notes: ["Another e-mail will say when DJEN answers again.", last],
  });
}

function djenRecoveredSection(alert: DjenRecoveredAlert, when: ShowInstant): Section {
  return section("The monitor reaches DJEN again", {
    intro: [
      `DJEN checks, failing since ${when(alert.since)}, work again since ${when(alert.recoveredAt)}.`,
      "Publications are followed normally again.",
    ],
  });
}

function healthSection(alert: HealthAlert, when: ShowInstant): Section {
  switch (alert.type) {
    case "auth_rejected":
      return authRejectedSection(alert, when);
    case "auth_recovered":
      return authRecoveredSection(alert, when);
    case "sweeps_failing":
      return sweepsFailingSection(alert, when);
    case "sweeps_recovered":
      return sweepsRecoveredSection(alert, when);
    case "djen_failing":
      return djenFailingSection(alert, when);
    case "djen_recovered":
      return djenRecoveredSection(alert, when);
  }
}

function watchlistSection(alert: WatchlistAlert, when: ShowInstant): Section {
  const file = oneLine(alert.file, 200);
  if (alert.type === "watchlist_recovered") {
    return section("The watchlist file is valid again", {
      intro: [
        `${file}, invalid since ${when(alert.since)}, was accepted at ${when(alert.recoveredAt)}: the monitor follows the file again.`,
        "Nothing more to do.",
      ],
    });
  }
  const count = alert.errorCount === 1 ? "1 error" : `${alert.errorCount} errors`;
  const start = alert.atStart
    ? "The daemon started with it and, instead of stopping, runs on the last good copy of the watchlist kept in its database"
    : "The daemon refused the edit and runs on the last good copy of the watchlist";
  const shown =
    alert.errors.length < alert.errorCount
      ? [`(the first ${alert.errors.length}; datajud-monitor validate lists them all)`]
      : [];
  return section(`${ATTENTION_MARKER} The watchlist file is invalid`, {
    intro: [
      `Since ${when(alert.since)}, ${file} has ${count}. ${start}, accepted at ${when(alert.goodCopyAcceptedAt)} (${alert.goodCopyCases === 1 ? "1 case" : `${alert.goodCopyCases} cases`}).`,
      "Until the file is fixed, cases added to it since are not checked, and cases removed from it are still checked and alerted on.",
    ],
    items: [...alert.errors.map((e) => [oneLine(e, 400)]), ...shown.map((l) => [l])],
    steps: [
      "Fix the lines named above; datajud-monitor validate checks the file and lists every error as file:line:col.",
      "Save it: the daemon reads it again at once (or send it SIGHUP: systemctl reload datajud-monitor).",
      "datajud-monitor status shows the errors and since when; /readyz answers 503 until the file is valid.",
    ],
    notes: ["Another e-mail will say when the file is valid again."],
  });
}

function caseTitle(f: CaseFailingAlert | CaseGoneAlert): string {
  const label = f.label === null ? "" : oneLine(f.label, 80);
  const number = oneLine(f.caseNumber, 40);
  return label === "" ? number : `${label} (${number})`;
}

function caseLines(f: CaseFailingAlert, when: ShowInstant): string[] {
  return [
    `${caseTitle(f)} · ${oneLine(f.court, 20).toUpperCase()}`,
    `Failing since ${when(f.failingSince)}; ${f.failures === 1 ? "1 attempt" : `${f.failures} attempts`}; last at ${when(f.lastCheckedAt)}.`,
    `Last error: ${errorText(f.lastErrorKind, f.lastError)}`,
  ];
}

function goneLines(g: CaseGoneAlert, when: ShowInstant): string[] {
  const answers =
    g.notFoundAnswers === 1
      ? "1 complete answer"
      : `${g.notFoundAnswers} complete answers in a row`;
  return [
    `${caseTitle(g)} · ${oneLine(g.court, 20).toUpperCase()}`,
    `Not found since ${when(g.goneAt)} (${answers} without the case); last seen at ${when(g.lastSeenAt)}.`,
  ];
}

const GONE_ADVICE = [
  "Only complete DataJud answers count: failures and partial answers never declare a case gone.",
  "Check the number and the court in the watchlist and look the case up in the court's own system: it may have been moved to another court, put under secrecy (segredo de justiça) or taken out of DataJud.",
  "The monitor keeps checking the case and alerts normally again if it comes back; if it is no longer needed, remove it from the watchlist.",
];

const FAILING_ADVICE = [
  "Network failures, timeouts or server errors (network, timeout, server) are usually DataJud's and pass on their own; the monitor keeps trying.",
  "unknown_index or unsupported_court: the case's court in the watchlist is wrong; fix its court field.",
  "datajud-monitor status shows each case's state.",
];

function unsendableSection(alert: EndpointUnsendableAlert, when: ShowInstant): Section {
  const missing = alert.missing.map((v) => oneLine(v, 64));
  const lacking = missing.join(" and ");
  return section(`${ATTENTION_MARKER} Alerts not sent to endpoint ${endpointName(alert)}`, {
    intro: [
      `Since ${when(alert.since)}, the daemon runs without ${lacking}, which endpoint ${endpointName(alert)} needs. Its alerts are queued and wait in the outbox; none is sent until the daemon has ${missing.length === 1 ? "it" : "them"}.`,
      "Alerts still go by e-mail and to the other endpoints.",
    ],
    steps: [
      `Give the daemon ${lacking}: in its environment, as ${missing[0] ?? "NAME"}_FILE, or as a systemd credential (a LoadCredential= line in a drop-in; systemd/README.md).`,
      "Restart the daemon: the alerts queued meanwhile are sent then, once each.",
      `datajud-monitor doctor names what is missing; datajud-monitor test-notify ${oneLine(alert.name, 60)} sends a sample.`,
    ],
    notes: ["The variables' names are shown here, never their values."],
  });
}

function endpointSection(alert: EndpointAlert, when: ShowInstant): Section {
  if (alert.type === "endpoint_unsendable") return unsendableSection(alert, when);
  const where = `${endpointName(alert)} (${oneLine(alert.host, 100)})`;
  const last = `Last answer: ${errorText(null, alert.lastError)}`;
  if (alert.type === "endpoint_disabled") {
    const givenUp =
      alert.givenUp === 0
        ? ""
        : ` ${alert.givenUp === 1 ? "1 pending alert was given up" : `${alert.givenUp} pending alerts were given up`}.`;
    return section(`${ATTENTION_MARKER} Endpoint ${where} disabled`, {
      intro: [
        alert.channel === "whatsapp"
          ? `At ${when(alert.since)}, the WhatsApp Cloud API refused the token of endpoint ${where}: it is invalid or expired. Nothing more is sent to it, not even after restarting the service.${givenUp}`
          : `At ${when(alert.since)}, endpoint ${where} answered 410 Gone: the destination says it no longer exists (an archived channel, a deleted webhook). Nothing more is sent to it, not even after restarting the service.${givenUp}`,
        "Alerts still go by e-mail and to the other endpoints.",
      ],
      steps: [
        "Check the destination (the channel, the webhook, the bot) and, if it moved, store the new address in the endpoint's variable (or in its file or credential).",
        `Enable it again with: ${enableCommand(oneLine(alert.name, 60))} (or give the endpoint another name in notify.endpoints).`,
        `Test with: datajud-monitor test-notify ${oneLine(alert.name, 60)}`,
      ],
      notes: ["Alerts given up are not sent again.", last],
    });
  }
  const attempts = alert.attempts === 1 ? "1 failed attempt" : `${alert.attempts} failed attempts`;
  return section(`${ATTENTION_MARKER} Alerts not delivered to endpoint ${where}`, {
    intro: [
      `Since ${when(alert.since)}, alerts to endpoint ${where} are given up after ${attempts}. This notice covers every alert that fails until the next delivery that works.`,
      "Alerts still go by e-mail and to the other endpoints.",
    ],
    steps: [
      "datajud-monitor status shows, per endpoint, the alerts pending, retrying and given up, with the last error.",
      "datajud-monitor doctor checks each endpoint's configuration without sending anything.",
      `datajud-monitor test-notify ${oneLine(alert.name, 60)} sends a sample and shows the answer.`,
    ],
    notes: [last],
  });
}

function silentSection(alert: CourtSilentAlert, when: ShowInstant): Section {
  const court = oneLine(alert.court, 20).toUpperCase();
  const lag =
    alert.usualLag === null
      ? `its lag is not measured yet, so ${alert.silentAfterDays} days is the mark`
      : `its usual lag is ${alert.usualLag} days (p90 ${alert.p90Lag ?? "?"})`;
  return section(`${ATTENTION_MARKER} ${silentPhrase(alert)}`, {
    intro: [
      `DataJud has not updated any of the ${alert.cases} watched ${alert.cases === 1 ? "case" : "cases"} of ${court} since ${when(alert.since)} (newest update the court sent: ${alert.newestUpdate === null ? "none" : oneLine(alert.newestUpdate, 30)}): more than ${alert.silentAfterDays} days, while ${lag}.`,
      `Meanwhile DJEN made ${alert.djenPublications === 1 ? "1 publication" : `${alert.djenPublications} publications`} of these cases available, the newest on ${formatBrazilian(alert.djenNewestAvailableOn)}: the court is active, its DataJud feed is not.`,
      "Publications still reach the lawyers through DJEN; DataJud's movements of these cases (decisions, hearings, anything not published) arrive only when the court sends its files again.",
    ],
    causes: [
      "The court has not sent DataJud its files: CNJ asks for them monthly, some courts send them late.",
      "The watched cases moved to another system or court whose DataJud index is not asked.",
    ],
    steps: [
      "datajud-monitor status shows each court's newest update and usual lag.",
      "Tell the lawyers to follow these cases in the court's own system until DataJud catches up.",
    ],
    notes: ["This alert is sent once per silence; status shows it until DataJud moves again."],
  });
}

/**
 * Monitor health in the order the findings were queued (a failure, its recovery, a new failure
 * read as they happened), then every failing case in one list.
 */
function sections(alerts: readonly AdminAlert[], timeZone: string): Section[] {
  const when: ShowInstant = (iso) => (iso === null ? "no date" : instantTime(iso, timeZone));
  const out = alerts.filter(isHealth).map((alert) => healthSection(alert, when));
  out.push(...alerts.filter(isWatchlist).map((alert) => watchlistSection(alert, when)));
  out.push(...alerts.filter(isEndpoint).map((alert) => endpointSection(alert, when)));
  for (const alert of alerts) {
    if (alert.type === "court_silent") out.push(silentSection(alert, when));
  }
  const failing = alerts.filter((a) => a.type === "case_failing");
  if (failing.length > 0) {
    out.push(
      section(`${ATTENTION_MARKER} ${failingPhrase(failing)}`, {
        items: failing.map((f) => caseLines(f, when)),
        notes: FAILING_ADVICE,
      }),
    );
  }
  const gone = alerts.filter((a) => a.type === "case_gone");
  if (gone.length > 0) {
    out.push(
      section(`${ATTENTION_MARKER} ${gonePhrase(gone)}`, {
        items: gone.map((g) => goneLines(g, when)),
        notes: GONE_ADVICE,
      }),
    );
  }
  return out;
}

function footer(timeZone: string): string {
  return `Times in ${oneLine(timeZone, 60)}. Automatic message from datajud-monitor.`;
}

/** A section as the document shows it: heading, intro, cases, causes, steps, then its notes. */
function sectionBlocks(s: Section): Block[] {
  const out: Block[] = [heading("section", s.heading), ...s.intro.map((line) => para(line))];
  if (s.items.length > 0) {
    const items = s.items.map(([title = "", ...lines]) => ({ title: [{ strong: title }], lines }));
    out.push({ kind: "list", spaced: true, items });
  }
  if (s.causes.length > 0) {
    const items = s.causes.map((cause) => ({ title: cause }));
    out.push(GAP, para([{ strong: "Possible causes:" }]), { kind: "list", items });
  }
  if (s.steps.length > 0) {
    const items = s.steps.map((step) => ({ title: step }));
    out.push(GAP, para([{ strong: "What to do:" }]), { kind: "list", ordered: true, items });
  }
  out.push(GAP, ...s.notes.map((line) => para(line, "small")));
  if (s.notes.length > 0) out.push(GAP);
  return out;
}

function adminDocument(alerts: readonly AdminAlert[], timeZone: string): EmailDocument {
  return {
    subject: renderAdminSubject(alerts),
    lang: "en",
    blocks: [
      ...sections(alerts, timeZone).flatMap(sectionBlocks),
      para(footer(timeZone), "footer"),
    ],
  };
}

/**
 * One e-mail for every operator finding due to one address; pure, like the alert renderer. Our
 * instants are shown in `timeZone` (the schedule's).
 */
export function renderAdminAlert(
  alerts: readonly AdminAlert[],
  timeZone = COURT_TIME_ZONE,
): RenderedAlert {
  if (alerts.length === 0) throw new RangeError("an operator alert needs at least one finding");
  return renderDocument(adminDocument(alerts, timeZone));
}
