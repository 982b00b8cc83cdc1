import { existsSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { z } from "zod";
import { type ListenAddress, parseListenAddress } from "../http/listen-address.js";
import { courtSeat } from "../time/calendar/court-seat.js";
import type { CourtClosure } from "../time/court-calendar.js";
import { readUserFile } from "../user-file.js";
import { issuesToErrors } from "../yaml/issue-messages.js";
import { comparePositionedErrors, formatPositionedError } from "../yaml/positioned-error.js";
import { schemaAt, unwrapSchema } from "../yaml/schema-path.js";
import {
  describePath,
  errorAtPath,
  nodeAt,
  parseYamlSource,
  plainValue,
  type YamlPath,
  type YamlSource,
} from "../yaml/yaml-source.js";
import { ConfigFile, ConfigSettings, ENV_ONLY_SETTINGS, ENV_SETTINGS } from "./config-schema.js";
import { normalizeDataJudKey } from "./datajud-key.js";
import { type ConfiguredEndpoint, type DeclaredEndpoint, resolveEndpoints } from "./endpoints.js";
import {
  type EnvContext,
  readEnvValue,
  redactionValues,
  scrubSecrets,
  urlPasswords,
} from "./secrets.js";
import { positionOf as settingPosition } from "./setting-position.js";

type Settings = z.output<typeof ConfigSettings>;

/**
 * The settings in force: what the schema gives (`ConfigSettings`, every layer merged and checked),
 * with what only loading can add: paths made absolute (the database's and outbox's defaults
 * filled in), the listen address parsed, endpoints read with their secrets, closures placed on
 * their court, the response bound in bytes. Base URLs have no trailing slash.
 */
export type MonitorConfig = Omit<Settings, "paths" | "http" | "notify" | "calendar"> & {
  /** Absolute paths. */
  paths: Record<keyof Settings["paths"], string>;
  http: Omit<Settings["http"], "listen"> & {
    /** null: no HTTP server (the daemon serves none; `monitor mcp --http` gives its own). */
    listen: ListenAddress | null;
  };
  /** Webhook and chat endpoints (besides e-mail), their URLs and secrets read and checked. */
  notify: Omit<
    Settings["notify"],
    "endpoints" | "webhookUrl" | "webhookSecret" | "maxResponseKb"
  > & {
    /** Those this process can send to: every variable they name is set, and was checked. */
    endpoints: ConfiguredEndpoint[];
    /**
     * Every endpoint the configuration names, with the variables this process lacks: alerts are
     * queued for each (routing needs no secret), and sent by a process that has them all.
     */
    declared: DeclaredEndpoint[];
    maxResponseBytes: number;
  };
  calendar: {
    /** Closures and suspensions the operator configured, for every court calendar built. */
    closures: CourtClosure[];
  };
};

export type ConfigResult =
  | {
      ok: true;
      config: MonitorConfig;
      /** Values the logger must redact. */
      secrets: string[];
      /** Dotted setting -> where its value came from, never the value. */
      sources: Record<string, string>;
      /** What was adjusted in a value as given (a pasted key's "APIKey" word), for `monitor doctor`. */
      notices: string[];
    }
  | { ok: false; errors: string[] };

export interface LoadConfigOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Reads a user file (config, X_FILE, credential); undefined when it does not exist. */
  readFile?: (path: string) => string | undefined;
}

type Tree = Record<string, unknown>;

const USER_CONFIG = join("config", "monitor.yaml");

/**
 * A config file or secret is at most this long: the documented defaults take 16 KiB, a key or a
 * URL a few hundred bytes. What a path may name is anything (`/dev/zero`, a FIFO).
 */
export const USER_FILE_MAX_BYTES = 2 ** 20;

/** A file's text; undefined when it does not exist; throws, saying what is wrong, otherwise. */
export function readTextFile(path: string): string | undefined {
  const read = readUserFile(path, USER_FILE_MAX_BYTES);
  if (read.ok) return read.bytes.toString("utf8");
  if (read.problem === "missing") return undefined;
  throw new Error(read.detail);
}

/**
 * config/default.yaml ships beside src/ and dist/src/ alike (package.json "files"), so it is
 * found by walking up from this module rather than from the working directory.
 */
export function builtInConfigPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i += 1) {
    const candidate = join(dir, "config", "default.yaml");
    if (existsSync(candidate) && existsSync(join(dir, "package.json"))) return candidate;
    dir = dirname(dir);
  }
  return join(dirname(fileURLToPath(import.meta.url)), "..", "..", "config", "default.yaml");
}

function isTree(value: unknown): value is Tree {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function setIn(tree: Tree, path: readonly string[], value: unknown): void {
  let node = tree;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (isTree(next)) node = next;
    else {
      const created: Tree = {};
      node[key] = created;
      node = created;
    }
  }
  const last = path[path.length - 1];
  if (last !== undefined) node[last] = value;
}

function getIn(tree: Tree, path: readonly string[]): unknown {
  let node: unknown = tree;
  for (const key of path) node = isTree(node) ? node[key] : undefined;
  return node;
}

/** [dotted path, value] of every setting present in a layer (a section set to null sets nothing). */
function leaves(layer: Tree): Array<[string[], unknown]> {
  const out: Array<[string[], unknown]> = [];
  for (const [section, values] of Object.entries(layer)) {
    if (!isTree(values)) continue;
    for (const [key, value] of Object.entries(values)) {
      if (value !== undefined) out.push([[section, key], value]);
    }
  }
  return out;
}

interface FileLayer {
  values: Tree;
  source: YamlSource;
}

function parseConfigText(
  text: string,
  file: string,
): { ok: true; layer: FileLayer } | { ok: false; errors: string[] } {
  const { source, errors } = parseYamlSource(text, file);
  if (errors.length > 0) return { ok: false, errors: errors.map(formatPositionedError) };
  const plain = plainValue(source);
  if (!plain.ok) return { ok: false, errors: [formatPositionedError(plain.error)] };
  const root: unknown = plain.value ?? {};
  if (!isTree(root)) {
    const error = errorAtPath(
      source,
      [],
      "a config file is a mapping of sections (schedule:, datajud:, ...); see config/default.yaml",
    );
    return { ok: false, errors: [formatPositionedError(error)] };
  }
  const parsed = ConfigFile.safeParse(root);
  if (!parsed.success) {
    const positioned = issuesToErrors(source, ConfigFile, parsed.error.issues, {
      unknownKeyHint: (path, key) => {
        const variable = ENV_ONLY_SETTINGS[[...path, key].join(".")];
        return variable === undefined
          ? undefined
          : `secrets are not read from config files; set ${variable} in the environment, as ${variable}_FILE or as a systemd credential`;
      },
    });
    return {
      ok: false,
      errors: positioned.sort(comparePositionedErrors).map(formatPositionedError),
    };
  }
  return { ok: true, layer: { values: parsed.data as Tree, source } };
}

let builtIn: { path: string; result: ReturnType<typeof parseConfigText> } | undefined;

function builtInLayer(): ReturnType<typeof parseConfigText> {
  const path = builtInConfigPath();
  if (builtIn?.path !== path) {
    const text = readTextFile(path);
    builtIn = {
      path,
      result:
        text === undefined
          ? {
              ok: false,
              errors: [`${path}: the built-in defaults are missing; reinstall datajud-monitor`],
            }
          : parseConfigText(text, path),
    };
  }
  return builtIn.result;
}

function positionOf(layer: FileLayer, path: YamlPath): string {
  const found = nodeAt(layer.source, path);
  const { line, col } = layer.source.lines.linePos(found.node?.range?.[0] ?? 0);
  return `${layer.source.file}:${line}:${col}`;
}

function applyLayer(
  merged: Tree,
  sources: Record<string, string>,
  layer: FileLayer,
  label: (path: string[]) => string,
): void {
  for (const [path, value] of leaves(layer.values)) {
    setIn(merged, path, value);
    sources[path.join(".")] = label(path);
  }
}

function userConfigPath(
  ctx: EnvContext,
  errors: string[],
): { path: string; named: boolean } | null {
  const lookup = readEnvValue("MONITOR_CONFIG", ctx);
  if (!lookup.ok) {
    errors.push(lookup.error);
    return null;
  }
  if (lookup.found) {
    const value = lookup.found.value;
    return { path: isAbsolute(value) ? value : resolve(ctx.cwd, value), named: true };
  }
  return { path: resolve(ctx.cwd, USER_CONFIG), named: false };
}

function loadUserLayer(ctx: EnvContext, errors: string[]): FileLayer | null {
  const target = userConfigPath(ctx, errors);
  if (!target) return null;
  let text: string | undefined;
  try {
    text = ctx.readFile(target.path);
  } catch (error) {
    const problem =
      (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : error);
    errors.push(`${target.path}: cannot read the config file (${String(problem)})`);
    return null;
  }
  if (text === undefined) {
    if (target.named) {
      errors.push(
        `MONITOR_CONFIG: ${target.path} does not exist; create it (config/default.yaml lists every setting) or unset MONITOR_CONFIG`,
      );
    }
    return null;
  }
  const parsed = parseConfigText(text, target.path);
  if (!parsed.ok) {
    errors.push(...parsed.errors);
    return null;
  }
  return parsed.layer;
}

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)$/u;

function describeExpected(schema: z.ZodType): string {
  const type = (unwrapSchema(schema)._zod.def as { type: string }).type;
  if (type === "number") return "a whole number";
  if (type === "boolean") return "true or false";
  return "text";
}

/** Env values are text; the setting's own schema decides what they must be. */
function fromEnvText(schema: z.ZodType, text: string): unknown {
  const type = (unwrapSchema(schema)._zod.def as { type: string }).type;
  if (type === "number") return DECIMAL.test(text.trim()) ? Number(text.trim()) : text;
  if (type === "boolean") {
    const lower = text.trim().toLowerCase();
    if (["true", "1", "yes", "on"].includes(lower)) return true;
    if (["false", "0", "no", "off"].includes(lower)) return false;
  }
  return text;
}

function envProblem(
  issue: z.core.$ZodIssue,
  schema: z.ZodType,
  raw: string,
  secret: boolean,
): string {
  const shown = secret ? "" : ` (got ${JSON.stringify(raw)})`;
  if (issue.code === "invalid_type") return `must be ${describeExpected(schema)}${shown}`;
  if (issue.code === "invalid_value") {
    return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}${shown}`;
  }
  // Bound and refinement messages already quote the value where that helps (never for secrets).
  return issue.code === "custom" || secret ? issue.message : `${issue.message}${shown}`;
}

/** A value as typed, made into the setting's value: only the DataJud key has a form to undo. */
function normalizeEnvValue(setting: string, raw: string, notices: string[]): string {
  if (setting !== "datajud.apiKey") return raw;
  const { key, notice } = normalizeDataJudKey(raw);
  if (notice !== null) notices.push(notice);
  return key;
}

function applyEnvironment(
  ctx: EnvContext,
  merged: Tree,
  sources: Record<string, string>,
  errors: string[],
  notices: string[],
  /** Each secret's value as given, valid or not: masked in every message. */
  given: string[],
): void {
  for (const entry of ENV_SETTINGS) {
    let found: { value: string; source: string } | undefined;
    for (const name of entry.names) {
      const lookup = readEnvValue(name, ctx);
      if (!lookup.ok) {
        errors.push(lookup.error);
        break;
      }
      if (lookup.found) {
        found = lookup.found;
        break;
      }
    }
    if (!found) continue;
    if (entry.secret) given.push(found.value, found.value.trim());
    const path = entry.setting.split(".");
    const schema = schemaAt(ConfigSettings, path);
    if (!schema) throw new Error(`ENV_SETTINGS names an unknown setting ${entry.setting}`);
    const raw = normalizeEnvValue(
      entry.setting,
      entry.secret ? found.value.trim() : found.value,
      notices,
    );
    const result = schema.safeParse(fromEnvText(schema, raw));
    if (!result.success) {
      for (const issue of result.error.issues) {
        errors.push(
          `${found.source} (${entry.setting}): ${envProblem(issue, schema, raw, entry.secret)}`,
        );
      }
      continue;
    }
    setIn(merged, path, result.data);
    sources[entry.setting] = found.source;
  }
}

function checkTogether(merged: Tree, sources: Record<string, string>, errors: string[]): void {
  for (const section of ["datajud", "djen"]) {
    const timeout = getIn(merged, [section, "timeoutMs"]);
    const total = getIn(merged, [section, "totalTimeoutMs"]);
    if (typeof timeout === "number" && typeof total === "number" && total < timeout) {
      const at =
        settingPosition(sources, `${section}.totalTimeoutMs`) ||
        settingPosition(sources, `${section}.timeoutMs`);
      errors.push(
        `${at}${section}.totalTimeoutMs (${total}, from ${sources[`${section}.totalTimeoutMs`] ?? "?"}) is shorter than ${section}.timeoutMs (${timeout}, from ${sources[`${section}.timeoutMs`] ?? "?"}): one attempt could never finish; raise the total or lower the per-attempt timeout`,
      );
    }
  }
}

function firstStateDirectory(env: NodeJS.ProcessEnv): string | undefined {
  // systemd lists one directory per StateDirectory= entry, separated by colons.
  const first = env.STATE_DIRECTORY?.split(":")[0];
  return first === undefined || first === "" ? undefined : first;
}

function resolvePaths(
  settings: ConfigSettings,
  ctx: EnvContext,
  sources: Record<string, string>,
): MonitorConfig["paths"] {
  const stateDirectory = firstStateDirectory(ctx.env);
  let db = settings.paths.db;
  if (db === null) {
    db =
      stateDirectory === undefined
        ? join("data", "monitor.db")
        : join(stateDirectory, "monitor.db");
    sources["paths.db"] =
      stateDirectory === undefined ? "default (data/monitor.db)" : "default ($STATE_DIRECTORY)";
  }
  const dbPath = resolve(ctx.cwd, db);
  let outboxDir = settings.paths.outboxDir;
  if (outboxDir === null) {
    outboxDir = join(dirname(dbPath), "outbox");
    sources["paths.outboxDir"] = "default (outbox/ next to the database)";
  }
  return {
    watchlist: resolve(ctx.cwd, settings.paths.watchlist),
    db: dbPath,
    outboxDir: resolve(ctx.cwd, outboxDir),
  };
}

function listenOf(text: string): ListenAddress | null {
  const parsed = parseListenAddress(text);
  return parsed.ok ? parsed.value : null;
}

function toMonitorConfig(
  settings: ConfigSettings,
  ctx: EnvContext,
  sources: Record<string, string>,
  endpoints: ConfiguredEndpoint[],
  declared: DeclaredEndpoint[],
): MonitorConfig {
  return {
    paths: resolvePaths(settings, ctx, sources),
    schedule: { ...settings.schedule },
    datajud: { ...settings.datajud, baseUrl: settings.datajud.baseUrl.replace(/\/+$/u, "") },
    djen: { ...settings.djen, baseUrl: settings.djen.baseUrl.replace(/\/+$/u, "") },
    monitor: { ...settings.monitor },
    summarizer: {
      ...settings.summarizer,
      baseUrl: settings.summarizer.baseUrl?.replace(/\/+$/u, "") ?? null,
    },
    mail: {
      ...settings.mail,
      from: settings.mail.from.trim(),
      admin: settings.mail.admin?.trim() ?? null,
    },
    log: { ...settings.log },
    http: {
      ...settings.http,
      // Checked by the schema already; a failed parse here would be a bug, so it is "off".
      listen: settings.http.listen === null ? null : listenOf(settings.http.listen),
    },
    notify: {
      endpoints,
      declared,
      maxAttempts: settings.notify.maxAttempts,
      timeoutMs: settings.notify.timeoutMs,
      maxResponseBytes: settings.notify.maxResponseKb * 1024,
      allowedPrivateNetworks: settings.notify.allowedPrivateNetworks.map((n) => n.trim()),
    },
    calendar: { closures: settings.calendar.closures.map(toClosure) },
    calendarFeed: {
      ...settings.calendarFeed,
      reminderTime: settings.calendarFeed.reminderTime.trim().padStart(5, "0"),
    },
    acknowledgement: {
      publicBaseUrl: settings.acknowledgement.publicBaseUrl?.trim().replace(/\/+$/u, "") ?? null,
      validHours: settings.acknowledgement.validHours,
      secret: settings.acknowledgement.secret,
      telegramSecret: settings.acknowledgement.telegramSecret,
      whatsappAppSecret: settings.acknowledgement.whatsappAppSecret,
      whatsappVerifyToken: settings.acknowledgement.whatsappVerifyToken,
    },
  };
}

function toClosure(entry: ConfigSettings["calendar"]["closures"][number]): CourtClosure {
  const from = entry.from.trim();
  return {
    court: courtSeat(entry.court).court,
    municipalities: entry.municipalities ?? [],
    from,
    to: entry.to?.trim() ?? from,
    effect: entry.effect,
    reason: entry.reason,
    source: entry.source,
    url: entry.url ?? null,
  };
}

/** An error about a configured endpoint, starting at the endpoint's name in the config file. */
function endpointErrorAt(error: string, user: FileLayer | null | undefined): string {
  const name = /^notify\.endpoints\.([a-z0-9-]+)/u.exec(error)?.[1];
  const endpoints = getIn(user?.values ?? {}, ["notify", "endpoints"]);
  if (user == null || name === undefined || !isTree(endpoints) || !(name in endpoints))
    return error;
  return `${positionOf(user, ["notify", "endpoints", name])} ${error}`;
}

/** Built-in config/default.yaml < user config file < environment (X > X_FILE > credential). */
export function loadConfig(options: LoadConfigOptions): ConfigResult {
  const ctx: EnvContext = {
    env: options.env,
    cwd: options.cwd,
    readFile: options.readFile ?? readTextFile,
  };
  const errors: string[] = [];
  const sources: Record<string, string> = {};
  const merged: Tree = {
    datajud: { apiKey: null },
    summarizer: { apiKey: null },
    mail: { smtpUrl: null },
    http: { token: null },
    notify: { webhookUrl: null, webhookSecret: null },
    acknowledgement: {
      secret: null,
      telegramSecret: null,
      whatsappAppSecret: null,
      whatsappVerifyToken: null,
    },
  };

  const defaults = builtInLayer();
  if (!defaults.ok) return { ok: false, errors: defaults.errors };
  applyLayer(merged, sources, defaults.layer, () => "default");

  const user = loadUserLayer(ctx, errors);
  if (user) applyLayer(merged, sources, user, (path) => positionOf(user, path));

  const notices: string[] = [];
  const given: string[] = [];
  applyEnvironment(ctx, merged, sources, errors, notices, given);
  checkTogether(merged, sources, errors);

  const secretValues = redactionValues([
    ...ENV_SETTINGS.filter((e) => e.secret).map((e) => {
      const value = getIn(merged, e.setting.split("."));
      return typeof value === "string" ? value : null;
    }),
  ]).concat(
    urlPasswords(
      ["datajud.baseUrl", "djen.baseUrl", "summarizer.baseUrl"].map((setting) => {
        const value = getIn(merged, setting.split("."));
        return typeof value === "string" ? value : null;
      }),
    ),
  );
  if (errors.length > 0) {
    // A secret that was refused is masked too: its value as given never reaches a message.
    const masked = [...secretValues, ...redactionValues(given)];
    return { ok: false, errors: errors.map((e) => scrubSecrets(e, masked)) };
  }

  const complete = ConfigSettings.safeParse(merged);
  if (!complete.success) {
    // Only reachable when the built-in defaults lack a setting: a packaging bug, not the user's.
    return {
      ok: false,
      errors: complete.error.issues.map(
        (issue) =>
          `${describePath(issue.path)}: ${issue.message} (the built-in ${builtInConfigPath()} is incomplete; reinstall datajud-monitor)`,
      ),
    };
  }
  const notify = resolveEndpoints(complete.data.notify, sources, ctx);
  const secrets = [...secretValues, ...notify.secrets];
  if (notify.errors.length > 0) {
    return {
      ok: false,
      errors: notify.errors.map((e) => scrubSecrets(endpointErrorAt(e, user), secrets)),
    };
  }
  return {
    ok: true,
    config: toMonitorConfig(complete.data, ctx, sources, notify.endpoints, notify.declared),
    secrets,
    sources,
    notices,
  };
}
