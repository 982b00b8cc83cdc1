import { accessSync, constants, existsSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { createTransport as createNodemailer } from "nodemailer";
import { loadConfig, type MonitorConfig } from "../config/load-config.js";
import { DataJudError } from "../datajud/errors.js";
import { DataJudHttpClient } from "../datajud/http-client.js";
import { DjenError } from "../djen/errors.js";
import { DjenClient } from "../djen/http-client.js";
import { formatOab } from "../djen/oab.js";
import { djenQuery } from "../djen/query.js";
import {
  hostForUrl,
  isLoopback,
  type ListenAddress,
  listenProblem,
} from "../http/listen-address.js";
import { smtpOptions } from "../notify/transport/smtp.js";
import { parseSmtpUrl } from "../notify/transport/smtp-url.js";
import { createTransport } from "../notify/transport/transports.js";
import type { UpstreamOptions } from "../pacing/upstream.js";
import { enableCommand } from "../policy/endpoint-health.js";
import { isMuted } from "../policy/movement-rules.js";
import {
  defaultMigrationsDir,
  inspectDatabase,
  isSupportedSqliteVersion,
  MIN_SQLITE_VERSION,
} from "../store/database.js";
import { type EndpointState, recordedEndpointStates } from "../store/endpoint-state.js";
import { latestMigrationVersion } from "../store/migrate.js";
import type { System } from "../system.js";
import { terminalText } from "../text.js";
import { dateInZone } from "../time/zoned-time.js";
import { loadWatchlist, type Watchlist } from "../watchlist/parse-watchlist.js";
import { formatPositionedError } from "../yaml/positioned-error.js";
import { type CliIo, type Command, EXIT, systemOf } from "./command.js";
import { inspectEndpoints, type ResolveAll } from "./doctor-endpoints.js";
import { MissingApiKeyError } from "./runtime.js";

export interface DoctorCheck {
  name: "config" | "watchlist" | "database" | "datajud" | "djen" | "mail" | "http" | "endpoints";
  ok: boolean;
  summary: string;
  /** Lines shown under the summary (sources, errors). */
  details: string[];
  /** What to do about a failure; null when it passed. */
  fix: string | null;
}

export interface DoctorOptions {
  fetch?: typeof fetch;
  /** Per network check (DataJud, DJEN, SMTP). @default 20_000 */
  timeoutMs?: number;
  /** DNS for the endpoints' hosts (tests); nothing is sent to an endpoint. */
  resolveHost?: ResolveAll;
}

/** DataJud's smallest question: no hits, just whether the index answers to this key. */
export const PROBE_QUERY = { size: 0, query: { match_all: {} } } as const;

const FALLBACK_COURT = "tjdft";
/** Asked of DJEN when the watchlist has no case and no registration: any valid number will do. */
const FALLBACK_CASE = "07081233420248070001";
/** Where loadConfig looks when MONITOR_CONFIG is not set. */
const USER_CONFIG = join("config", "monitor.yaml");

function pass(name: DoctorCheck["name"], summary: string, details: string[] = []): DoctorCheck {
  return { name, ok: true, summary, details, fix: null };
}

function fail(
  name: DoctorCheck["name"],
  summary: string,
  fix: string,
  details: string[] = [],
): DoctorCheck {
  return { name, ok: false, summary, details, fix };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The closest directory that exists, and whether this user may create files in it. */
function writableAncestor(path: string): { dir: string; writable: boolean } {
  let dir = path;
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
    return { dir, writable: true };
  } catch {
    return { dir, writable: false };
  }
}

/** Where the heartbeat goes, by host only: the URL is a capability. */
function heartbeatLine(url: string | null): string {
  if (url === null) return "off (monitor.heartbeatUrl is null)";
  return `a GET to ${new URL(url).host} after every sweep (/fail when it failed)`;
}

function checkConfig(io: CliIo): { check: DoctorCheck; config: MonitorConfig | null } {
  const result = loadConfig({ env: io.env, cwd: io.cwd });
  if (!result.ok) {
    return {
      config: null,
      check: fail(
        "config",
        `${result.errors.length} error(s) in the configuration`,
        "correct the settings named above (config/default.yaml documents each one); the other checks need a valid configuration",
        result.errors,
      ),
    };
  }
  const { config, sources, notices } = result;
  const changed = Object.entries(sources)
    .filter(([, source]) => source !== "default")
    .sort(([a], [b]) => a.localeCompare(b));
  const width = Math.max(0, ...changed.map(([setting]) => setting.length));
  const details = [
    ...changed.map(
      ([setting, source]) =>
        `${setting.padEnd(width)}  ${source.startsWith("default") ? source : `from ${source}`}`,
    ),
    `every other setting: the built-in default`,
    ...notices.map((notice) => `note: ${notice}`),
    `summarizer: ${config.summarizer.apiKey === null ? "rules only (no ANTHROPIC_API_KEY)" : `Claude (${config.summarizer.model})`}`,
    `heartbeat: ${heartbeatLine(config.monitor.heartbeatUrl)}`,
  ];
  const named = io.env.MONITOR_CONFIG;
  const file = resolve(io.cwd, named === undefined || named === "" ? USER_CONFIG : named);
  const layers = existsSync(file)
    ? `defaults < ${file} < environment`
    : `defaults < environment (no ${file})`;
  return { config, check: pass("config", layers, details) };
}

async function checkWatchlist(
  config: MonitorConfig,
  now: Date,
): Promise<{ check: DoctorCheck; watchlist: Watchlist | null }> {
  const path = config.paths.watchlist;
  const result = await loadWatchlist(path);
  if (!result.ok) {
    return {
      watchlist: null,
      check: fail(
        "watchlist",
        `${path}: ${result.errors.length} error(s)`,
        "fix the lines above (`monitor validate` re-checks); the daemon keeps using its last valid copy meanwhile",
        result.errors.map(formatPositionedError),
      ),
    };
  }
  const cases = result.watchlist.cases;
  const courts = new Set(cases.map((c) => c.court));
  return {
    watchlist: result.watchlist,
    check: pass(
      "watchlist",
      `${path}: ${cases.length} case(s) in ${courts.size} court(s)${cases.length === 0 ? " (nothing will be checked)" : ""}`,
      [
        ...result.warnings.map((w) => `warning: ${formatPositionedError(w)}`),
        ...mailPolicyLines(result.watchlist, config, now),
      ],
    ),
  };
}

/** Who gets what, as the mail side will apply it now: silence here is a common "why no e-mail?". */
function mailPolicyLines(watchlist: Watchlist, config: MonitorConfig, now: Date): string[] {
  const muted = watchlist.cases.filter((c) => isMuted(c.policy, now, config.schedule.timezone));
  const lines = muted.map(
    (c) =>
      `muted: ${c.number} (${c.court})${c.policy.mutedUntil === null ? "" : ` until ${c.policy.mutedUntil}`}`,
  );
  for (const w of watchlist.watchers) {
    const delivery = w.delivery ?? config.mail.mode;
    const when =
      delivery === "digest"
        ? ` (${w.digestSchedule === null ? "after every sweep" : `"${w.digestSchedule}"`})`
        : "";
    const report = w.statusReport === null ? "" : `; status report "${w.statusReport}"`;
    const receipt = w.receipt == null ? "" : `; daily receipt at ${w.receipt}`;
    lines.push(`${w.address}: ${delivery}${when}${report}${receipt}`);
  }
  const quiet = config.mail.quietHours;
  if (quiet !== null) {
    lines.push(
      `quiet hours ${quiet.start}-${quiet.end} ${config.schedule.timezone}${config.mail.urgentBypassesQuietHours ? " (urgent alerts go through)" : ""}`,
    );
  }
  return lines;
}

function checkDatabase(config: MonitorConfig): DoctorCheck {
  const path = config.paths.db;
  if (!existsSync(path)) {
    const { dir, writable } = writableAncestor(dirname(path));
    return writable
      ? pass("database", `${path}: not created yet; the first sweep creates it`)
      : fail(
          "database",
          `${path} does not exist and ${dir} is not writable`,
          `create ${dirname(path)} and let the monitor's user write to it, or set MONITOR_DB`,
        );
  }
  if (statSync(path).isDirectory()) {
    return fail("database", `${path} is a directory`, "point MONITOR_DB at a file");
  }
  try {
    const inspected = inspectDatabase(path);
    const sqlite = inspected.sqliteVersion;
    const found = inspected.schemaVersion;
    const known = latestMigrationVersion(defaultMigrationsDir());
    const quick = inspected.quickCheck;
    const summary = `${path}: schema ${found}, SQLite ${sqlite}, quick_check ${quick.join("; ")}`;
    if (!isSupportedSqliteVersion(sqlite)) {
      return fail(
        "database",
        summary,
        `SQLite ${sqlite} is older than ${MIN_SQLITE_VERSION} and can corrupt a WAL database written by two processes; reinstall better-sqlite3 12.11.1 or newer`,
      );
    }
    if (quick.length !== 1 || quick[0] !== "ok") {
      return fail(
        "database",
        summary,
        "the database is damaged: stop the daemon, restore the latest `monitor db backup`, or move the file away to start afresh",
      );
    }
    if (found > known) {
      return fail(
        "database",
        summary,
        `the schema is newer than this monitor knows (${known}): upgrade datajud-monitor`,
      );
    }
    try {
      accessSync(path, constants.W_OK);
      accessSync(dirname(path), constants.W_OK);
    } catch {
      return fail(
        "database",
        `${summary}; not writable by this user`,
        "run as the monitor's user (sudo -u datajud-monitor ...) or fix the owner of the file and its directory",
      );
    }
    return pass(
      "database",
      found < known ? `${summary} (upgraded to ${known} at the next start)` : summary,
    );
  } catch (error) {
    return fail(
      "database",
      `${path} cannot be read as an SQLite database: ${message(error)}`,
      "restore the latest `monitor db backup`, or move the file away (a new one is created)",
    );
  }
}

/** One attempt, cut at the doctor's timeout: a probe, not a sweep. */
function probeOptions(
  service: { requestsPerMinute: number; timeoutMs: number },
  options: DoctorOptions,
  system: System,
): UpstreamOptions {
  const timeoutMs = Math.min(options.timeoutMs ?? 20_000, service.timeoutMs);
  return {
    clock: system.clock,
    random: system.random,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    requestsPerMinute: service.requestsPerMinute,
    timeoutMs,
    totalTimeoutMs: timeoutMs,
    maxAttempts: 1,
  };
}

function datajudFix(error: DataJudError): string {
  switch (error.kind) {
    case "auth":
    case "forbidden":
      return "put CNJ's current public key (https://datajud-wiki.cnj.jus.br/api-publica/acesso) in DATAJUD_API_KEY, its _FILE or the credential";
    case "network":
    case "timeout":
    case "deadline":
      return "check this server's DNS, firewall and proxy towards DATAJUD_BASE_URL; DataJud is slow at times, so try again before changing anything";
    case "unknown_index":
      return "the court alias of the first watched case is not a DataJud index; fix its `court` in the watchlist";
    default:
      return "DataJud itself is failing; try again later (the daemon retries on its own)";
  }
}

async function checkDataJud(
  config: MonitorConfig,
  watchlist: Watchlist | null,
  options: DoctorOptions,
  system: System,
): Promise<DoctorCheck> {
  const apiKey = config.datajud.apiKey;
  if (apiKey === null) {
    return fail(
      "datajud",
      "DATAJUD_API_KEY is not set",
      new MissingApiKeyError().message.replace(/^DATAJUD_API_KEY is not set: /, ""),
    );
  }
  const court = watchlist?.cases[0]?.court ?? FALLBACK_COURT;
  const http = new DataJudHttpClient({
    baseUrl: config.datajud.baseUrl,
    apiKey,
    ...probeOptions(config.datajud, options, system),
  });
  const started = performance.now();
  try {
    await http.search(court, { ...PROBE_QUERY });
    const ms = Math.round(performance.now() - started);
    return pass(
      "datajud",
      `${config.datajud.baseUrl}: api_publica_${court} answered in ${ms} ms; the key was accepted`,
    );
  } catch (error) {
    if (!(error instanceof DataJudError)) throw error;
    return fail("datajud", error.message, datajudFix(error));
  }
}

/** Every DJEN fix ends with the way to run without it. */
const DJEN_OFF = "set DJEN_ENABLED=false (djen.enabled: false) to run without publications";

function djenFix(error: DjenError): string {
  const fix = djenCause(error);
  return fix.includes("DJEN_ENABLED=false") ? fix : `${fix}; or ${DJEN_OFF}`;
}

function djenCause(error: DjenError): string {
  switch (error.kind) {
    case "geo_blocked":
      return "run the monitor from a server in Brazil (or point DJEN_BASE_URL at a proxy there), or set djen.enabled: false (DJEN_ENABLED=false) to run without publications";
    case "network":
    case "timeout":
    case "deadline":
      return "check this server's DNS, firewall and proxy towards DJEN_BASE_URL (DJEN answers only addresses in Brazil); DJEN is slow at times, so try again before changing anything";
    case "too_large":
      return "DJEN_BASE_URL answered more than djen.maxResponseMb for one page of 50 items: check that it is CNJ's Comunica API (https://comunicaapi.pje.jus.br) or a proxy that passes its answers through unchanged, or raise djen.maxResponseMb";
    case "bad_request":
    case "bad_response":
    case "filter_ignored":
      return "check that DJEN_BASE_URL is CNJ's Comunica API (https://comunicaapi.pje.jus.br) or a proxy that passes its answers through unchanged";
    default:
      return "DJEN itself is failing; try again later (the sweeps retry on their own and report failed checks)";
  }
}

/**
 * One page of today's publications of the first watched case (else the first registration): the
 * smallest question that shows DJEN answers this server, and answers it correctly.
 */
async function checkDjen(
  config: MonitorConfig,
  watchlist: Watchlist | null,
  today: string,
  options: DoctorOptions,
  system: System,
): Promise<DoctorCheck> {
  if (!config.djen.enabled) {
    return pass("djen", "off (djen.enabled: false): no DJEN publication is read");
  }
  const caseNumber = watchlist?.cases[0]?.digits;
  const oab = caseNumber === undefined ? watchlist?.oab[0]?.registration : undefined;
  const query = djenQuery({
    ...(oab === undefined ? { caseNumber: caseNumber ?? FALLBACK_CASE } : { oab }),
    from: today,
    to: today,
  });
  const asked = oab === undefined ? "a case number" : `OAB ${formatOab(oab)}`;
  const client = new DjenClient({
    baseUrl: config.djen.baseUrl,
    ...probeOptions(config.djen, options, system),
  });
  const started = performance.now();
  try {
    const page = await client.page(query, 1);
    const ms = Math.round(performance.now() - started);
    return pass(
      "djen",
      `${client.baseUrl}: answered in ${ms} ms (${page.count} publication(s) of ${asked} today)`,
    );
  } catch (error) {
    if (!(error instanceof DjenError)) throw error;
    if (error.kind === "geo_blocked") {
      return fail(
        "djen",
        `${client.baseUrl} refused this server's address (HTTP 403): DJEN answers only addresses in Brazil, so no publication can be read from here`,
        djenFix(error),
      );
    }
    return fail("djen", error.message, djenFix(error));
  }
}

async function verifySmtp(smtpUrl: string, timeoutMs: number): Promise<void> {
  const s = parseSmtpUrl(smtpUrl);
  const mailer = createNodemailer(
    smtpOptions(s, { connectionMs: timeoutMs, greetingMs: timeoutMs, socketMs: timeoutMs }),
  );
  try {
    await mailer.verify();
  } catch (error) {
    const text = message(error);
    // Connection errors can echo the login; never print the password.
    throw new Error(s.password === null ? text : text.split(s.password).join("***"));
  } finally {
    mailer.close();
  }
}

async function checkMail(config: MonitorConfig, options: DoctorOptions): Promise<DoctorCheck> {
  const { smtpUrl } = config.mail;
  if (smtpUrl === null) {
    const dir = config.paths.outboxDir;
    const { dir: existing, writable } = writableAncestor(dir);
    return writable
      ? pass("mail", `.eml mode (no SMTP_URL): alerts are written to ${dir}`)
      : fail(
          "mail",
          `.eml mode (no SMTP_URL): ${existing} is not writable`,
          `let the monitor's user write ${dir}, set MONITOR_OUTBOX_DIR elsewhere, or set SMTP_URL`,
        );
  }
  let where: string;
  try {
    const transport = createTransport({ smtpUrl, outboxDir: config.paths.outboxDir });
    where = transport.describe();
    transport.close();
    await verifySmtp(smtpUrl, options.timeoutMs ?? 20_000);
  } catch (error) {
    return fail(
      "mail",
      `SMTP: ${message(error)}`,
      "check SMTP_URL (smtp://user:password@host:587 or smtps://...:465): host, port, user and password, and that this server may connect to it",
    );
  }
  const login = parseSmtpUrl(smtpUrl).user !== null;
  return pass("mail", `${where} accepted the connection${login ? " and the login" : ""}`);
}

/** Whether the address can be listened on now: null when free, else the system's error code. */
function bindProblem(listen: ListenAddress): Promise<string | null> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    probe.listen(listen.port, listen.host, () => probe.close(() => resolve(null)));
  });
}

/** True when a datajud-monitor answers `/livez` at `base` (the daemon already running). */
async function monitorAnswers(base: string, options: DoctorOptions): Promise<boolean> {
  try {
    const response = await (options.fetch ?? globalThis.fetch)(`${base}/livez`, {
      signal: AbortSignal.timeout(options.timeoutMs ?? 20_000),
    });
    const body: unknown = await response.json();
    return response.ok && (body as { status?: unknown } | null)?.status === "ok";
  } catch {
    return false;
  }
}

/**
 * `http.listen` as the daemon would use it: refused without a token off this machine, the port
 * free (or already the daemon's), and who may read what.
 */
async function checkHttp(config: MonitorConfig, options: DoctorOptions): Promise<DoctorCheck> {
  const { listen, token } = config.http;
  if (listen === null) {
    return pass(
      "http",
      "off (http.listen is null): the daemon serves no /mcp, /livez, /readyz or /metrics",
    );
  }
  const where = `${hostForUrl(listen.host)}:${listen.port}`;
  const refused = listenProblem(listen, token);
  if (refused !== null) {
    return fail(
      "http",
      `http.listen ${where} is off this machine and MCP_HTTP_TOKEN is not set: the daemon would refuse to start`,
      "set MCP_HTTP_TOKEN (its _FILE or the credential; `openssl rand -hex 32`), or listen on 127.0.0.1 behind a TLS reverse proxy",
    );
  }
  const details = [
    token === null
      ? "no MCP_HTTP_TOKEN: /mcp answers 503, and /metrics is open to anyone on this machine"
      : "MCP_HTTP_TOKEN set: /mcp and /metrics need Authorization: Bearer <token>",
    "/livez and /readyz answer without the token (they show no case data)",
  ];
  if (token !== null && !isLoopback(listen.host)) {
    details.push(
      "plain HTTP off this machine carries the token in clear: put a TLS reverse proxy in front",
    );
  }
  const summary = `the daemon listens on http://${where}: /mcp, /livez, /readyz, /metrics`;
  if (listen.port === 0) {
    return pass("http", summary, [...details, "port 0: a free port at each start (logged)"]);
  }
  const busy = await bindProblem(listen);
  if (busy === null) return pass("http", summary, [...details, `port ${listen.port} is free`]);
  if (busy === "EADDRINUSE" && (await monitorAnswers(`http://${where}`, options))) {
    return pass("http", summary, [
      ...details,
      `a monitor already answers at http://${where}/livez`,
    ]);
  }
  return fail(
    "http",
    `cannot listen on ${where}: ${busy === "EADDRINUSE" ? "another program holds the port" : busy}`,
    busy === "EADDRINUSE"
      ? "pick a free port in http.listen, or stop the program that holds it"
      : "use an address of this machine in http.listen (127.0.0.1:PORT by default)",
  );
}

/**
 * Endpoints declared but not sendable, with the variables they lack: by this process (what it
 * lacks now), or by the daemon (what it lacked when it started). Either way their alerts are
 * queued and wait. Each is also said in `details`.
 */
function lackingVariables(
  declared: MonitorConfig["notify"]["declared"],
  states: readonly EndpointState[],
  details: string[],
): Map<string, string[]> {
  const lacking = new Map<string, string[]>();
  for (const e of declared.filter((d) => d.missing.length > 0)) {
    lacking.set(`${e.channel}:${e.name}`, [...e.missing]);
    details.push(
      `FAIL ${e.channel} endpoint "${terminalText(e.name)}": ${e.missing.join(" and ")} not set in this process; its alerts are queued and only a process that has ${e.missing.length === 1 ? "it" : "them"} sends them`,
    );
  }
  for (const s of states) {
    if (s.daemonMissing.length === 0) continue;
    lacking.set(`${s.channel}:${s.name}`, [
      ...new Set([...(lacking.get(`${s.channel}:${s.name}`) ?? []), ...s.daemonMissing]),
    ]);
    details.push(
      `FAIL ${s.channel} endpoint "${terminalText(s.name)}": the daemon has had no ${s.daemonMissing.map((v) => terminalText(v)).join(" and ")} since ${s.daemonCheckedAt ?? "its last start"}; its alerts are queued and NOT sent`,
    );
  }
  return lacking;
}

/** What the sweeps recorded of each endpoint: disabled by a 410 (until a person enables it), or given up. */
function recordedStateLines(states: readonly EndpointState[]): string[] {
  return states.flatMap((s) => {
    if (s.disabledAt !== null) {
      return [
        `FAIL ${s.channel} endpoint "${terminalText(s.name)}" is disabled since ${s.disabledAt}: it answered 410 Gone (${terminalText(s.disabledReason ?? "")})`,
      ];
    }
    if (s.deadSince !== null) {
      return [
        `note ${s.channel} endpoint "${terminalText(s.name)}": alerts to it given up since ${s.deadSince} (monitor status shows the last error)`,
      ];
    }
    return [];
  });
}

async function checkEndpoints(config: MonitorConfig, options: DoctorOptions): Promise<DoctorCheck> {
  const count = config.notify.declared.length;
  if (count === 0) {
    return pass(
      "endpoints",
      "none: alerts go by e-mail only (WEBHOOK_URL or notify.endpoints add webhooks and chat)",
    );
  }
  const findings = await inspectEndpoints(config, options.resolveHost);
  const details = findings.map((f) => `${f.ok ? "ok  " : "FAIL"} ${f.line}`);
  const bad = findings.filter((f) => !f.ok).length;
  // What the sweeps recorded: an endpoint a 410 disabled stays so until a person enables it.
  let states: EndpointState[] = [];
  try {
    states = recordedEndpointStates(config.paths.db);
  } catch {
    // An unreadable database is the database check's to report.
  }
  const configured = new Set(config.notify.declared.map((e) => `${e.channel}:${e.name}`));
  const ours = states.filter((x) => configured.has(`${x.channel}:${x.name}`));
  const lacking = lackingVariables(config.notify.declared, ours, details);
  const disabled = ours.filter((s) => s.disabledAt !== null);
  details.push(...recordedStateLines(ours));
  if (bad === 0 && lacking.size > 0) {
    const variables = [...new Set([...lacking.values()].flat())];
    return fail(
      "endpoints",
      `${lacking.size} of ${count} endpoint(s) not sent to: ${variables.join(", ")} not set`,
      `give the daemon ${variables.join(", ")} (environment, NAME_FILE or a systemd credential: systemd/README.md) and restart it; the alerts queued meanwhile are sent then`,
      details,
    );
  }
  if (bad === 0 && disabled.length > 0) {
    return fail(
      "endpoints",
      `${disabled.length} of ${count} endpoint(s) disabled by a 410 Gone; nothing is sent to them`,
      `fix each (a new URL in its variable, an unarchived channel), then ${disabled.map((s) => enableCommand(s.name)).join("; ")}`,
      details,
    );
  }
  return bad === 0
    ? pass(
        "endpoints",
        `${count} endpoint(s) set up; nothing sent (test-notify ENDPOINT sends a sample)`,
        details,
      )
    : fail(
        "endpoints",
        `${bad} of ${count} endpoint(s) cannot be delivered to`,
        "fix the host in the endpoint's URL variable; a receiver inside your own network needs its network in notify.allowedPrivateNetworks",
        details,
      );
}

/** Every check, in order; a configuration that does not load stops after the first. */
export async function runDoctor(io: CliIo, options: DoctorOptions = {}): Promise<DoctorCheck[]> {
  const { check, config } = checkConfig(io);
  if (config === null) return [check];
  const system = systemOf(io);
  const now = system.clock.now();
  const watchlist = await checkWatchlist(config, new Date(now));
  // DJEN dates its publications by the day in São Paulo, whatever the schedule's zone.
  const today = dateInZone(now);
  const [datajud, djen, mail, http, endpoints] = await Promise.all([
    checkDataJud(config, watchlist.watchlist, options, system),
    checkDjen(config, watchlist.watchlist, today, options, system),
    checkMail(config, options),
    checkHttp(config, options),
    checkEndpoints(config, options),
  ]);
  return [check, watchlist.check, checkDatabase(config), datajud, djen, mail, http, endpoints];
}

export function renderDoctor(checks: readonly DoctorCheck[]): string {
  const width = Math.max(...checks.map((c) => c.name.length));
  const lines: string[] = [];
  for (const c of checks) {
    lines.push(`${c.ok ? "OK  " : "FAIL"}  ${c.name.padEnd(width)}  ${c.summary}`);
    for (const detail of c.details) lines.push(`      ${" ".repeat(width)}  ${detail}`);
    if (c.fix !== null) lines.push(`      ${" ".repeat(width)}  fix: ${c.fix}`);
  }
  const failed = checks.filter((c) => !c.ok).length;
  lines.push("", failed === 0 ? "all checks passed" : `${failed} check(s) failed`);
  return `${lines.join("\n")}\n`;
}

export const doctorCommand: Command = {
  name: "doctor",
  summary: "Check config, watchlist, database, DataJud, DJEN, mail and HTTP, and say what to fix",
  usage: "datajud-monitor doctor",
  details: [
    "Sends one empty DataJud search (size 0) to the first watched court to test the key, asks",
    "DJEN (when djen.enabled) for today's publications of the first watched case, and connects",
    "to the SMTP server without sending anything (or checks the .eml directory).",
    "Checks http.listen as the daemon would use it (token, port) and sends no heartbeat ping.",
    "Resolves each webhook and chat endpoint's host and checks its addresses; sends nothing.",
    "Exit codes: 0 every check passed, 1 otherwise.",
  ],
  options: {},
  async run(_args, io) {
    const checks = await runDoctor(io);
    io.stdout.write(renderDoctor(checks));
    return checks.every((c) => c.ok) ? EXIT.ok : EXIT.failures;
  },
};
