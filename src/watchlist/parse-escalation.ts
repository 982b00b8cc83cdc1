import { z } from "zod";
import { addressProblem, normalizeEmailAddress } from "../email-address.js";
import {
  type BusinessWindow,
  DEFAULT_BUSINESS_WINDOW,
  type EscalationChain,
  type EscalationTarget,
} from "../policy/escalation.js";
import { suggestName } from "../text.js";
import { describeValue } from "../yaml/issue-messages.js";
import type { PositionedError } from "../yaml/positioned-error.js";
import { describePath, errorAtPath, type YamlPath, type YamlSource } from "../yaml/yaml-source.js";
import { endpointNameProblem } from "./parse-channels.js";

/*
 * `escalation:` (under `defaults`, and per case to override or turn it off with `false`): who is
 * told next when an urgent alert is not acknowledged in time (policy/escalation.ts says when).
 * The shape is a zod schema; each problem is reported at its own key or item.
 */

const KEYS = ["within", "before", "hours", "chain"] as const;

const EscalationStepFile = z.strictObject({
  watcher: z
    .string({ error: "watcher: an e-mail address, like watcher: socia@firma.com.br" })
    .optional(),
  endpoint: z
    .string({ error: "endpoint: an endpoint's name under notify.endpoints, like endpoint: equipe" })
    .optional(),
});

export const EscalationFile = z.strictObject({
  within: z
    .number({ error: "within: a whole number of business hours, like within: 4" })
    .int({ error: "within: a whole number of business hours, like within: 4" })
    .min(1, { error: "within: at least 1 business hour" })
    .max(200, { error: "within: at most 200 business hours (about a month of expediente)" })
    .nullable()
    .optional(),
  before: z
    .number({ error: "before: a whole number of court business days, like before: 2" })
    .int({ error: "before: a whole number of court business days, like before: 2" })
    .min(0, { error: "before: 0 (the last day itself) or more court business days" })
    .max(30, { error: "before: at most 30 court business days" })
    .nullable()
    .optional(),
  hours: z
    .string({ error: 'hours: the business window as text, like hours: "09:00-18:00"' })
    .nullable()
    .optional(),
  chain: z
    .array(EscalationStepFile, {
      error:
        "chain: a list of steps, like chain: [ { watcher: socia@firma.com.br }, { endpoint: equipe } ]",
    })
    .min(1, { error: "chain: at least one step (a watcher or an endpoint)" })
    .max(5, { error: "chain: at most 5 steps" }),
});
type EscalationFile = z.infer<typeof EscalationFile>;

export interface EscalationOptions {
  /** The configured endpoint names: an `endpoint:` naming another is then an error. */
  endpoints?: readonly string[] | undefined;
  /** Of those, the WhatsApp endpoints without `to:`: no number of their own, so no step's. */
  perWatcherEndpoints?: readonly string[] | undefined;
  /**
   * Whether acknowledgement links are on (acknowledgement.publicBaseUrl and ACK_SECRET): false
   * makes every `escalation:` an error (nothing could stop the chain); undefined: not checked.
   */
  acknowledgement?: boolean | undefined;
}

const WINDOW = /^(\d{2}):(\d{2})-(\d{2}):(\d{2})$/u;

function windowOf(text: string): BusinessWindow | string {
  const match = WINDOW.exec(text.trim());
  const parts = match?.slice(1).map(Number) ?? [];
  const [sh, sm, eh, em] = parts;
  if (sh === undefined || sm === undefined || eh === undefined || em === undefined) {
    return `hours: ${JSON.stringify(text)} is not a window; write it as "HH:MM-HH:MM", like hours: "09:00-18:00"`;
  }
  if (sh > 23 || eh > 24 || sm > 59 || em > 59 || (eh === 24 && em > 0)) {
    return `hours: ${JSON.stringify(text)} names a time that does not exist`;
  }
  const window = { start: sh * 60 + sm, end: eh * 60 + em };
  if (window.start >= window.end) {
    return `hours: ${JSON.stringify(text)} ends before it starts; a window within one day, like "09:00-18:00"`;
  }
  return window;
}

function issueErrors(
  source: YamlSource,
  at: YamlPath,
  issues: readonly z.core.$ZodIssue[],
  errors: PositionedError[],
): void {
  for (const issue of issues) {
    const path = [...at, ...issue.path];
    if (issue.code !== "unrecognized_keys") {
      errors.push(
        errorAtPath(source, path, `${describePath(path)}: ${issue.message.replace(/^\w+: /u, "")}`),
      );
      continue;
    }
    const inStep = issue.path.length > 0;
    const known: readonly string[] = inStep ? ["watcher", "endpoint"] : KEYS;
    for (const key of issue.keys) {
      const close = suggestName(key, known);
      const hint =
        close === undefined ? `; known: ${known.join(", ")}` : `; did you mean "${close}"?`;
      errors.push(
        errorAtPath(
          source,
          [...path, key],
          `unknown key "${key}" in ${describePath(path)}${hint}`,
          "key",
        ),
      );
    }
  }
}

function stepOf(
  source: YamlSource,
  at: YamlPath,
  step: EscalationFile["chain"][number],
  options: EscalationOptions,
  errors: PositionedError[],
): EscalationTarget | null {
  if ((step.watcher === undefined) === (step.endpoint === undefined)) {
    errors.push(
      errorAtPath(
        source,
        at,
        `${describePath(at)}: give one of watcher: (an e-mail address) or endpoint: (an endpoint's name) per step`,
      ),
    );
    return null;
  }
  if (step.watcher !== undefined) {
    const address = normalizeEmailAddress(step.watcher);
    if (address === null) {
      errors.push(errorAtPath(source, [...at, "watcher"], addressProblem(step.watcher)));
      return null;
    }
    return { kind: "watcher", address };
  }
  const name = (step.endpoint ?? "").trim();
  const problem =
    endpointNameProblem(name, options.endpoints) ??
    (options.perWatcherEndpoints?.includes(name) === true
      ? `endpoint "${name}" sends to each watcher's own number and has none of its own: name the watcher in the chain instead (watcher: their e-mail address; their WhatsApp number goes with it)`
      : null);
  if (problem !== null) {
    errors.push(errorAtPath(source, [...at, "endpoint"], problem));
    return null;
  }
  return { kind: "endpoint", name };
}

/**
 * An `escalation:` value at `at`: the chain; "off" for `false`; undefined when absent or empty
 * (a case then takes the defaults'); null when it has errors (reported).
 */
export function parseEscalation(
  source: YamlSource,
  at: YamlPath,
  value: unknown,
  options: EscalationOptions,
  errors: PositionedError[],
): EscalationChain | "off" | null | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === false) return "off";
  if (value === true || typeof value !== "object" || Array.isArray(value)) {
    errors.push(
      errorAtPath(
        source,
        at,
        `${describePath(at)}: expected a mapping with within:, before: and chain: (or false to turn it off for a case), got ${describeValue(value)}`,
      ),
    );
    return null;
  }
  const parsed = EscalationFile.safeParse(value);
  if (!parsed.success) {
    issueErrors(source, at, parsed.error.issues, errors);
    return null;
  }
  const file = parsed.data;
  const before = errors.length;
  if ((file.within ?? null) === null && (file.before ?? null) === null) {
    errors.push(
      errorAtPath(
        source,
        at,
        `${describePath(at)}: say when a step is due: within: (business hours after the alert), before: (court business days before its last day), or both`,
      ),
    );
  }
  let window = DEFAULT_BUSINESS_WINDOW;
  if (typeof file.hours === "string") {
    const read = windowOf(file.hours);
    if (typeof read === "string") errors.push(errorAtPath(source, [...at, "hours"], read));
    else window = read;
  }
  const chain: EscalationTarget[] = [];
  for (const [i, step] of file.chain.entries()) {
    const target = stepOf(source, [...at, "chain", i], step, options, errors);
    if (target !== null) chain.push(target);
  }
  if (options.acknowledgement === false) {
    errors.push(
      errorAtPath(
        source,
        at,
        "escalation needs acknowledgement links, which are off (nothing could stop the chain): set acknowledgement.publicBaseUrl in the configuration and ACK_SECRET in the environment (docs/channels.md, Acknowledgement), or remove escalation:",
        "key",
      ),
    );
  }
  if (errors.length > before) return null;
  return { within: file.within ?? null, before: file.before ?? null, window, chain };
}
