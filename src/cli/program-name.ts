// Imports nothing: the entry point reads it before the rest of the CLI is loaded.

/** The name the package installs (`monitor` is kept as an alias; `npx monitor` is someone else's). */
export const PROGRAM = "datajud-monitor";

/**
 * The name the user typed, from the script's path (process.argv[1]): `monitor` or
 * `datajud-monitor` as installed; anything else (`src/cli/main.ts` under `npm run dev`) is PROGRAM.
 */
export function programName(script: string | undefined): string {
  const name =
    (script ?? "")
      .split(/[\\/]/u)
      .at(-1)
      ?.replace(/\.[cm]?[jt]s$/u, "") ?? "";
  return name === "monitor" || name === PROGRAM ? name : PROGRAM;
}
