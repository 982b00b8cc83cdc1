import { createPrivateKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { readTextFile } from "../config/load-config.js";
import { readEnvValue } from "../config/secrets.js";

/*
 * The key that signs exported records and retention's anchors: PROOF_SIGNING_KEY (an Ed25519
 * private key in PEM), also as PROOF_SIGNING_KEY_FILE or a systemd credential; else a key the
 * monitor makes once and keeps beside the database (mode 0600). Never logged, never stored in
 * the database: only its public half travels with the records.
 */

export const PROOF_KEY_VARIABLE = "PROOF_SIGNING_KEY";
const KEY_FILE_NAME = "proof-signing-key.pem";

export type ProofKey = { ok: true; key: KeyObject; source: string } | { ok: false; error: string };

function fromPem(pem: string, source: string): ProofKey {
  try {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType !== "ed25519") {
      return { ok: false, error: `${source}: the key is ${key.asymmetricKeyType}, not Ed25519` };
    }
    return { ok: true, key, source };
  } catch {
    return {
      ok: false,
      error: `${source}: not a private key in PEM; make one with: openssl genpkey -algorithm ed25519`,
    };
  }
}

export function defaultProofKeyPath(dbPath: string): string {
  return join(dirname(dbPath), KEY_FILE_NAME);
}

/**
 * The configured key, else the one beside the database; `create` makes that one when it is
 * missing (an export, retention), a read-only look (`status`) does not.
 */
export function loadProofKey(
  env: NodeJS.ProcessEnv,
  cwd: string,
  dbPath: string,
  options: { create: boolean },
): ProofKey {
  const lookup = readEnvValue(PROOF_KEY_VARIABLE, { env, cwd, readFile: readTextFile });
  if (!lookup.ok) return { ok: false, error: lookup.error };
  if (lookup.found !== undefined) return fromPem(lookup.found.value, lookup.found.source);
  const path = defaultProofKeyPath(dbPath);
  let pem: string | undefined;
  try {
    pem = readTextFile(path);
  } catch (error) {
    return { ok: false, error: `${path}: cannot read the signing key (${String(error)})` };
  }
  if (pem !== undefined) return fromPem(pem, path);
  if (!options.create) {
    return { ok: false, error: `no signing key yet (${path} does not exist)` };
  }
  const { privateKey } = generateKeyPairSync("ed25519");
  const text = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  try {
    mkdirSync(dirname(path), { recursive: true });
    // wx: two processes making it at once keep the first one's key.
    writeFileSync(path, text, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      return loadProofKey(env, cwd, dbPath, { create: false });
    }
    return { ok: false, error: `${path}: cannot write the signing key (${String(error)})` };
  }
  return { ok: true, key: createPrivateKey(text), source: path };
}
