import { z } from "zod";
import { COURT_TIME_ZONE } from "../../datajud/dates.js";
import {
  type EndpointAlert,
  EndpointDeadAlert,
  EndpointDisabledAlert,
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
import { oneLine } from "../../text.js";
import {
  ATTENTION_MARKER,
  escapeHtml,
  htmlDocument,
  instantTime,
  type RenderedAlert,
  STYLES,
  tag,
} from "./email-kit.js";

/**
 * Mail to `mail.admin` about problems only a person can fix: the key refused, DataJud down for
 * whole sweeps, a case failing for a day, a case DataJud no longer returns (what decides them:
 * policy/health.ts, policy/failing-cases.ts, policy/gone-cases.ts; what queues them:
 * notify/outbox/queue-operator-alerts.ts).
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
]);
export type AdminAlert = z.infer<typeof AdminAlert>;

function isEndpoint(alert: AdminAlert): alert is EndpointAlert {
  return alert.type === "endpoint_disabled" || alert.type === "endpoint_dead";
}

function isHealth(alert: AdminAlert): alert is HealthAlert {
  return alert.type !== "case_failing" && alert.type !== "case_gone" && !isEndpoint(alert);
}

function isProblem(alert: AdminAlert): boolean {
  return (
    alert.type !== "auth_recovered" &&
    alert.type !== "sweeps_recovered" &&
    alert.type !== "djen_recovered"
  );
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

function gonePhrase(gone: readonly CaseGoneAlert[]): string {
  return gone.length === 1
    ? "1 processo não encontrado no DataJud"
    : `${gone.length} processos não encontrados no DataJud`;
}

function endpointName(alert: EndpointAlert): string {
  return `${oneLine(alert.channel, 20)} "${oneLine(alert.name, 60)}"`;
}

function endpointPhrase(alert: EndpointAlert): string {
  return alert.type === "endpoint_disabled"
    ? `endpoint ${endpointName(alert)} desativado (410 Gone)`
    : `alertas não entregues ao endpoint ${endpointName(alert)}`;
}

function sweepsPhrase(n: number): string {
  return n === 1 ? "na última varredura" : `em ${n} varreduras seguidas`;
}

function healthSubject(alert: HealthAlert): string {
  switch (alert.type) {
    case "auth_rejected":
      return "DataJud recusou a chave da API";
    case "auth_recovered":
      return "DataJud voltou a aceitar a chave da API";
    case "sweeps_failing":
      return `DataJud sem resposta ${sweepsPhrase(alert.failedSweeps)}`;
    case "sweeps_recovered":
      return "DataJud voltou a responder";
    case "djen_failing":
      return alert.blocked
        ? "DJEN recusa o endereço deste servidor (fora do Brasil)"
        : `DJEN sem resposta ${sweepsPhrase(alert.failedSweeps)}`;
    case "djen_recovered":
      return "DJEN voltou a responder";
  }
}

/** Problems first, then what is over; the marker only when something still needs a person. */
export function renderAdminSubject(alerts: readonly AdminAlert[]): string {
  const failing = alerts.filter((a) => a.type === "case_failing");
  const gone = alerts.filter((a) => a.type === "case_gone");
  const problems = alerts.filter(isHealth).filter(isProblem).map(healthSubject);
  if (failing.length > 0) problems.push(failingPhrase(failing));
  if (gone.length > 0) problems.push(gonePhrase(gone));
  problems.push(...alerts.filter(isEndpoint).map(endpointPhrase));
  const recoveries = alerts
    .filter(isHealth)
    .filter((a) => !isProblem(a))
    .map(healthSubject);
  const parts = [...new Set([...problems, ...recoveries])];
  const marker = problems.length > 0 ? ` ${ATTENTION_MARKER}` : "";
  return oneLine(`[datajud]${marker} ${parts.join("; ")}`, SUBJECT_MAX);
}

function errorText(kind: string | null, error: string | null): string {
  const message = error === null ? "" : oneLine(error, ERROR_SHOWN);
  const label = kind === null ? "" : oneLine(kind, 40);
  if (message === "") return label === "" ? "sem detalhes" : label;
  return label === "" ? message : `${label}: ${message}`;
}

/** One part of the e-mail. Every string is plain text: the HTML part escapes it. */
interface Section {
  /** The text part shows it in capitals. */
  heading: string;
  intro: string[];
  /** One per case: its title, then its detail lines. */
  items: string[][];
  /** "Causas possíveis", a bulleted list before the steps. */
  causes: string[];
  /** "O que fazer", numbered. */
  steps: string[];
  notes: string[];
}

function section(heading: string, parts: Partial<Omit<Section, "heading">>): Section {
  return { heading, intro: [], items: [], causes: [], steps: [], notes: [], ...parts };
}

/** Our instants, shown in the schedule's time zone. */
type ShowInstant = (iso: string | null) => string;

function authRejectedSection(auth: AuthRejectedAlert, when: ShowInstant): Section {
  const cases = auth.affectedCases === 1 ? "1 processo" : `${auth.affectedCases} processos`;
  return section(`${ATTENTION_MARKER} O DataJud recusou a chave da API`, {
    intro: [
      `Desde ${when(auth.since)}, o DataJud recusa a chave da API pública (HTTP 401); ${cases} do watchlist não estão sendo consultados.`,
      "O CNJ troca essa chave pública de tempos em tempos, sem aviso.",
    ],
    steps: [
      `Copie a chave atual em ${KEY_PAGE}.`,
      "Grave-a em DATAJUD_API_KEY (ou no arquivo de DATAJUD_API_KEY_FILE, ou na credencial do systemd).",
      "Reinicie o serviço (systemctl restart datajud-monitor) e confira com monitor run-once.",
    ],
    notes: [
      "Nada se perde: o que mudou nos processos enquanto isso é detectado na primeira consulta depois da troca.",
      `Último erro: ${errorText("auth", auth.lastError)}`,
    ],
  });
}

function authRecoveredSection(alert: AuthRecoveredAlert, when: ShowInstant): Section {
  return section("O DataJud voltou a aceitar a chave da API", {
    intro: [
      `A chave da API pública, recusada pelo DataJud desde ${when(alert.since)}, voltou a ser aceita: em ${when(alert.recoveredAt)} os processos voltaram a ser consultados.`,
      "O monitor funciona normalmente de novo; nada mais a fazer.",
    ],
  });
}

function sweepsFailingSection(alert: SweepsFailingAlert, when: ShowInstant): Section {
  const n = alert.failedSweeps;
  const sweeps = n === 1 ? "a última varredura terminou" : `${n} varreduras seguidas terminaram`;
  return section(`${ATTENTION_MARKER} O monitor não consegue consultar o DataJud`, {
    intro: [
      `Desde ${when(alert.since)}, ${sweeps} sem nenhuma resposta do DataJud: nenhum processo do watchlist foi consultado.`,
      "Nada se perde: o monitor continua tentando a cada varredura, e o que mudou nos processos enquanto isso é detectado na primeira consulta que der certo.",
    ],
    // One operator saw a rotated key as two days of timeouts, never a 401: whatever the error,
    // the key stays on the list.
    causes: [
      "O DataJud fora do ar ou lento (tempo esgotado, erro 5xx): costuma passar sozinho.",
      `A chave da API errada ou trocada: o CNJ troca a chave pública sem aviso, e uma chave trocada pode aparecer como tempo esgotado em todas as consultas, não só como recusa (HTTP 401). Compare DATAJUD_API_KEY com a chave publicada em ${KEY_PAGE}.`,
      "A rede do servidor: DNS, proxy ou firewall bloqueando api-publica.datajud.cnj.jus.br.",
    ],
    steps: [
      `Confira a chave em ${KEY_PAGE}; se mudou, grave a nova em DATAJUD_API_KEY (ou no arquivo de DATAJUD_API_KEY_FILE, ou na credencial do systemd) e reinicie o serviço.`,
      "monitor status mostra o último erro de cada processo.",
      "monitor doctor testa a configuração, a chave da API e o acesso ao DataJud, e diz o que corrigir.",
      "journalctl -u datajud-monitor mostra o log do serviço (rede, DNS, proxy, tempo esgotado).",
    ],
    notes: [
      "Outro e-mail avisará quando o DataJud voltar a responder.",
      `Último erro: ${errorText(alert.lastErrorKind, alert.lastError)}`,
    ],
  });
}

function sweepsRecoveredSection(alert: SweepsRecoveredAlert, when: ShowInstant): Section {
  const n = alert.failedSweeps ?? 0;
  const streak =
    n === 0 ? "" : ` (${n === 1 ? "1 varredura" : `${n} varreduras seguidas`} sem resposta)`;
  return section("O monitor voltou a consultar o DataJud", {
    intro: [
      `As consultas ao DataJud, falhando desde ${when(alert.since)}${streak}, voltaram a funcionar em ${when(alert.recoveredAt)}.`,
      "O monitor funciona normalmente de novo; o que mudou nos processos nesse período é detectado nas próximas varreduras.",
    ],
  });
}

function djenFailingSection(alert: DjenFailingAlert, when: ShowInstant): Section {
  const last = `Último erro${alert.lastSource === null ? "" : ` (${oneLine(alert.lastSource, 80)})`}: ${errorText(alert.lastErrorKind, alert.lastError)}`;
  if (alert.blocked) {
    return section(`${ATTENTION_MARKER} O DJEN recusa o endereço deste servidor`, {
      intro: [
        `Desde ${when(alert.since)}, o DJEN (Diário de Justiça Eletrônico Nacional, a fonte das intimações e citações que abrem prazos) responde HTTP 403 a este servidor: a API do DJEN só atende endereços no Brasil.`,
        "Enquanto isso, nenhuma publicação do DJEN é consultada; os processos continuam sendo acompanhados pelo DataJud.",
      ],
      steps: [
        "Rode o monitor num servidor no Brasil, ou aponte DJEN_BASE_URL para um proxy no Brasil.",
        "Se não for acompanhar publicações, desligue o DJEN: djen.enabled: false na configuração (ou DJEN_ENABLED=false) e reinicie o serviço.",
        "monitor doctor testa o acesso ao DJEN e diz se o endereço foi recusado.",
      ],
      notes: ["Outro e-mail avisará quando o DJEN voltar a responder.", last],
    });
  }
  const n = alert.failedSweeps;
  const sweeps = n === 1 ? "a última varredura terminou" : `${n} varreduras seguidas terminaram`;
  return section(`${ATTENTION_MARKER} O monitor não consegue consultar o DJEN`, {
    intro: [
      `Desde ${when(alert.since)}, ${sweeps} sem nenhuma resposta do DJEN: nenhuma publicação (intimações, citações) foi consultada.`,
      "Isso não quer dizer que não houve publicações: o monitor continua tentando a cada varredura, e a primeira consulta que der certo pede de novo tudo o que foi disponibilizado desde a última consulta completa (até 31 dias atrás).",
    ],
    causes: [
      "O DJEN fora do ar, lento ou limitando pedidos (HTTP 429 ou 5xx): costuma passar sozinho.",
      "A rede do servidor: DNS, proxy ou firewall bloqueando comunicaapi.pje.jus.br.",
      "Respostas que não conferem com o pedido (o DJEN ignorou um filtro): são recusadas, nunca usadas.",
    ],
    steps: [
      "monitor status mostra o último erro de cada consulta ao DJEN.",
      "monitor doctor testa o acesso ao DJEN.",
      "Se as varreduras não terminarem a tempo, acompanhe menos processos ou registros de OAB (cada um custa pedidos ao DJEN, que aceita cerca de 20 por minuto).",
    ],
    notes: ["Outro e-mail avisará quando o DJEN voltar a responder.", last],
  });
}

function djenRecoveredSection(alert: DjenRecoveredAlert, when: ShowInstant): Section {
  return section("O monitor voltou a consultar o DJEN", {
    intro: [
      `As consultas ao DJEN, falhando desde ${when(alert.since)}, voltaram a funcionar em ${when(alert.recoveredAt)}.`,
      "As publicações voltam a ser acompanhadas normalmente.",
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

function caseTitle(f: CaseFailingAlert | CaseGoneAlert): string {
  const label = f.label === null ? "" : oneLine(f.label, 80);
  const number = oneLine(f.caseNumber, 40);
  return label === "" ? number : `${label} (${number})`;
}

function caseLines(f: CaseFailingAlert, when: ShowInstant): string[] {
  return [
    `${caseTitle(f)} · ${oneLine(f.court, 20).toUpperCase()}`,
    `Falhando desde ${when(f.failingSince)}; ${f.failures === 1 ? "1 tentativa" : `${f.failures} tentativas`}; última em ${when(f.lastCheckedAt)}.`,
    `Último erro: ${errorText(f.lastErrorKind, f.lastError)}`,
  ];
}

function goneLines(g: CaseGoneAlert, when: ShowInstant): string[] {
  const answers = g.notFoundAnswers === 1 ? "1 resposta" : `${g.notFoundAnswers} respostas`;
  return [
    `${caseTitle(g)} · ${oneLine(g.court, 20).toUpperCase()}`,
    `Não encontrado desde ${when(g.goneAt)} (${answers} completas seguidas sem o processo); visto pela última vez em ${when(g.lastSeenAt)}.`,
  ];
}

const GONE_ADVICE = [
  "Só respostas completas do DataJud contam: falhas e respostas parciais nunca declaram um processo desaparecido.",
  "Confira o número e o tribunal no watchlist e consulte o processo no sistema do próprio tribunal: ele pode ter sido redistribuído a outro tribunal, posto em segredo de justiça ou retirado do DataJud.",
  "O monitor continua consultando o processo e volta a avisar normalmente se ele reaparecer; se não precisar mais dele, tire-o do watchlist.",
];

const FAILING_ADVICE = [
  "Falhas de rede, tempo esgotado ou erro do servidor (network, timeout, server) costumam ser do DataJud e passam sozinhas; o monitor continua tentando.",
  "unknown_index ou unsupported_court: o tribunal do processo no watchlist está errado; corrija o campo court.",
  "monitor status mostra a situação de cada processo.",
];

function endpointSection(alert: EndpointAlert, when: ShowInstant): Section {
  const where = `${endpointName(alert)} (${oneLine(alert.host, 100)})`;
  const last = `Última resposta: ${errorText(null, alert.lastError)}`;
  if (alert.type === "endpoint_disabled") {
    const givenUp =
      alert.givenUp === 0
        ? ""
        : ` ${alert.givenUp === 1 ? "1 alerta pendente foi descartado" : `${alert.givenUp} alertas pendentes foram descartados`}.`;
    return section(`${ATTENTION_MARKER} Endpoint ${where} desativado`, {
      intro: [
        `Em ${when(alert.since)}, o endpoint ${where} respondeu 410 Gone: o destino diz que não existe mais (um canal arquivado, um webhook apagado). Nada mais é enviado a ele, nem depois de reiniciar o serviço.${givenUp}`,
        "Os alertas continuam indo por e-mail e para os outros endpoints.",
      ],
      steps: [
        "Confira o destino (o canal, o webhook, o bot) e, se mudou, grave o novo endereço na variável do endpoint (ou no arquivo ou credencial dela).",
        `Reative-o com: ${enableCommand(oneLine(alert.name, 60))} (ou dê outro nome ao endpoint em notify.endpoints).`,
        `Teste com: datajud-monitor test-notify ${oneLine(alert.name, 60)}`,
      ],
      notes: ["Os alertas descartados não são reenviados.", last],
    });
  }
  const attempts = alert.attempts === 1 ? "1 tentativa" : `${alert.attempts} tentativas`;
  return section(`${ATTENTION_MARKER} Alertas não entregues ao endpoint ${where}`, {
    intro: [
      `Desde ${when(alert.since)}, alertas para o endpoint ${where} são descartados depois de ${attempts} sem sucesso. Este aviso vale para todos os que falharem até a próxima entrega que der certo.`,
      "Os alertas continuam indo por e-mail e para os outros endpoints.",
    ],
    steps: [
      "monitor status mostra, por endpoint, os alertas pendentes, em nova tentativa e descartados, com o último erro.",
      "monitor doctor confere a configuração de cada endpoint sem enviar nada.",
      `datajud-monitor test-notify ${oneLine(alert.name, 60)} envia um exemplo e mostra a resposta.`,
    ],
    notes: [last],
  });
}

/**
 * Monitor health in the order the findings were queued (a failure, its recovery, a new failure
 * read as they happened), then every failing case in one list.
 */
function sections(alerts: readonly AdminAlert[], timeZone: string): Section[] {
  const when: ShowInstant = (iso) => (iso === null ? "sem data" : instantTime(iso, timeZone));
  const out = alerts.filter(isHealth).map((alert) => healthSection(alert, when));
  out.push(...alerts.filter(isEndpoint).map((alert) => endpointSection(alert, when)));
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
  return `Horários em ${oneLine(timeZone, 60)}. Mensagem automática do datajud-monitor.`;
}

function renderText(alerts: readonly AdminAlert[], timeZone: string): string {
  const out: string[] = [];
  for (const s of sections(alerts, timeZone)) {
    out.push(s.heading.toUpperCase(), ...s.intro);
    for (const item of s.items)
      out.push("", ...item.map((l, i) => (i === 0 ? `- ${l}` : `  ${l}`)));
    if (s.causes.length > 0) out.push("", "Causas possíveis:", ...s.causes.map((c) => `- ${c}`));
    if (s.steps.length > 0)
      out.push("", "O que fazer:", ...s.steps.map((step, i) => `${i + 1}. ${step}`));
    out.push("", ...s.notes);
    if (s.notes.length > 0) out.push("");
  }
  out.push(footer(timeZone));
  return `${out.join("\n")}\n`;
}

function renderHtml(alerts: readonly AdminAlert[], subject: string, timeZone: string): string {
  const e = escapeHtml;
  const parts: string[] = [];
  sections(alerts, timeZone).forEach((s, index) => {
    parts.push(tag(index === 0 ? "h1" : "h2", index === 0 ? STYLES.h1 : STYLES.h2, e(s.heading)));
    for (const line of s.intro) parts.push(tag("p", STYLES.p, e(line)));
    if (s.items.length > 0) {
      const items = s.items.map(([title = "", ...rest]) =>
        tag(
          "li",
          STYLES.li,
          [
            `<strong>${e(title)}</strong>`,
            ...rest.map((l) => tag("span", STYLES.muted, e(l))),
          ].join("<br>"),
        ),
      );
      parts.push(tag("ul", STYLES.ul, items.join("")));
    }
    if (s.causes.length > 0) {
      parts.push(tag("p", STYLES.p, "<strong>Causas possíveis:</strong>"));
      parts.push(tag("ul", STYLES.ul, s.causes.map((c) => tag("li", STYLES.li, e(c))).join("")));
    }
    if (s.steps.length > 0) {
      parts.push(tag("p", STYLES.p, "<strong>O que fazer:</strong>"));
      parts.push(
        tag("ol", STYLES.ul, s.steps.map((step) => tag("li", STYLES.li, e(step))).join("")),
      );
    }
    for (const line of s.notes) parts.push(tag("p", STYLES.small, e(line)));
  });
  parts.push(tag("p", STYLES.footer, e(footer(timeZone))));
  return htmlDocument(subject, parts);
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
  const subject = renderAdminSubject(alerts);
  return {
    subject,
    text: renderText(alerts, timeZone),
    html: renderHtml(alerts, subject, timeZone),
  };
}
