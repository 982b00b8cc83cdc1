import { isAbsolute, join, resolve } from "node:path";

/**
 * A setting from the environment, where X may also be given as X_FILE (a path whose trimmed
 * content is the value) or as a systemd credential ($CREDENTIALS_DIRECTORY/X, LoadCredential=),
 * which keeps keys out of `systemctl show` and the process environment.
 */

export interface EnvContext {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** undefined when the file does not exist; throws for other read errors. */
  readFile: (path: string) => string | undefined;
}

export interface EnvValue {
  value: string;
  /** Where it came from, for error messages and `monitor doctor`; never the value itself. */
  source: string;
}

export type EnvLookup = { ok: true; found: EnvValue | undefined } | { ok: false; error: string };

function readProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EISDIR") return "it is a directory";
  return code ?? (error instanceof Error ? error.message : String(error));
}

function tryRead(
  ctx: EnvContext,
  path: string,
): { ok: true; text: string | undefined } | { ok: false; problem: string } {
  try {
    return { ok: true, text: ctx.readFile(path) };
  } catch (error) {
    return { ok: false, problem: readProblem(error) };
  }
}

/** X, else X_FILE, else $CREDENTIALS_DIRECTORY/X (or its lower-case name). Empty X counts as unset. */
export function readEnvValue(name: string, ctx: EnvContext): EnvLookup {
  const direct = ctx.env[name];
  if (direct !== undefined && direct !== "")
    return { ok: true, found: { value: direct, source: name } };

  const fileVariable = `${name}_FILE`;
  const filePath = ctx.env[fileVariable];
  if (filePath !== undefined && filePath !== "") {
    const path = isAbsolute(filePath) ? filePath : resolve(ctx.cwd, filePath);
    const source = `${fileVariable} (${path})`;
    const read = tryRead(ctx, path);
    if (!read.ok) return { ok: false, error: `${source}: cannot read the file (${read.problem})` };
    if (read.text === undefined) {
      return {
        ok: false,
        error: `${source}: the file does not exist; fix the path or unset ${fileVariable}`,
      };
    }
    const value = read.text.trim();
    if (value === "") {
      return { ok: false, error: `${source}: the file is empty; put the value of ${name} in it` };
    }
    return { ok: true, found: { value, source } };
  }

  const credentials = ctx.env.CREDENTIALS_DIRECTORY;
  if (credentials !== undefined && credentials !== "") {
    for (const file of new Set([name, name.toLowerCase()])) {
      const path = join(credentials, file);
      const read = tryRead(ctx, path);
      const source = `credential ${path}`;
      if (!read.ok)
        return { ok: false, error: `${source}: cannot read the file (${read.problem})` };
      if (read.text === undefined) continue;
      const value = read.text.trim();
      if (value === "") return { ok: false, error: `${source}: the credential is empty` };
      return { ok: true, found: { value, source } };
    }
  }
  return { ok: true, found: undefined };
}

/**
 * The strings the logger must blank out: each secret and, for URLs, the password on its own
 * (nodemailer's debug output and connection errors show it without the rest of the URL).
 */
export function redactionValues(secrets: readonly (string | null)[]): string[] {
  const out = new Set<string>();
  for (const secret of secrets) {
    if (secret === null || secret === "") continue;
    try {
      const url = new URL(secret);
      if (url.password !== "") {
        out.add(url.password);
        out.add(decodeURIComponent(url.password));
      }
      // An SMTP URL's secret is its password: the host stays readable in logs and errors (a mail
      // failure must say which server). Other URLs (a heartbeat's) are capabilities: kept whole.
      if (url.protocol !== "smtp:" && url.protocol !== "smtps:") out.add(secret);
    } catch {
      // not a URL: the value itself is the secret
      out.add(secret);
    }
  }
  return [...out];
}

/**
 * The password of a URL that is not itself secret (a base URL through a proxy that asks for one):
 * blanked out wherever the URL is shown, the rest of it kept.
 */
export function urlPasswords(urls: readonly (string | null)[]): string[] {
  const out = new Set<string>();
  for (const text of urls) {
    if (text === null) continue;
    try {
      const { password } = new URL(text);
      if (password !== "") out.add(password).add(decodeURIComponent(password));
    } catch {
      // not a URL: the schema has refused it, masking what it quotes
    }
  }
  return [...out];
}

/** Replaces every known secret in a message; a last guard for messages built from user input. */
export function scrubSecrets(message: string, secrets: readonly string[]): string {
  let out = message;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join("[redacted]");
  }
  return out;
}
