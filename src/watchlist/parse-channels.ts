import { suggestName } from "../text.js";
import type { PositionedError } from "../yaml/positioned-error.js";
import { errorAtPath, type YamlPath, type YamlSource } from "../yaml/yaml-source.js";

/*
 * `channels:` (under `defaults` and per case): the webhook and chat endpoints, by the names the
 * configuration gives them under notify.endpoints, told about a case besides its notify
 * addresses. A name only: an endpoint's URL, token or secret never goes in the watchlist, so an
 * item that looks like one is refused without being quoted back.
 */

const ENDPOINT_NAME = /^[a-z0-9][a-z0-9-]{0,39}$/u;
const LOOKS_SECRET = /:\/\/|^https?:|^whsec_|^\d+:[\w-]{20,}$|[?=&/]/iu;

/** What is wrong with an endpoint name a watchlist gives; null when it names a known endpoint. */
export function endpointNameProblem(
  raw: string,
  known: readonly string[] | undefined,
): string | null {
  const name = raw.trim();
  if (LOOKS_SECRET.test(name)) {
    return "this looks like a URL, token or secret: those never go in the watchlist; name the endpoint instead (its name under notify.endpoints in the configuration, or webhook for WEBHOOK_URL)";
  }
  if (!ENDPOINT_NAME.test(name)) {
    return `"${name.slice(0, 40)}" is not an endpoint name (lower-case letters, digits and dashes, like equipe-slack)`;
  }
  if (known !== undefined && !known.includes(name)) {
    const close = suggestName(name, known);
    const hint =
      close !== undefined
        ? `; did you mean "${close}"?`
        : known.length === 0
          ? "; no endpoint is configured (WEBHOOK_URL, or notify.endpoints in the configuration)"
          : `; configured: ${known.join(", ")}`;
    return `no endpoint "${name}" in the configuration${hint}`;
  }
  return null;
}

/**
 * Adds valid names to `into` (no repeats) and reports the others at their item. `known`: the
 * configured endpoint names, when the caller has the configuration; unknown names are then errors.
 */
export function collectChannels(
  source: YamlSource,
  path: YamlPath,
  list: readonly string[] | null | undefined,
  into: string[],
  known: readonly string[] | undefined,
  errors: PositionedError[],
): void {
  for (const [i, raw] of (list ?? []).entries()) {
    const problem = endpointNameProblem(raw, known);
    if (problem !== null) {
      errors.push(errorAtPath(source, [...path, i], problem));
      continue;
    }
    const name = raw.trim();
    if (!into.includes(name)) into.push(name);
  }
}
