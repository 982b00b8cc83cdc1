/** A source that is a place in the config file: "file:line:col" (not "default", not a variable). */
const FILE_POSITION = /:\d+:\d+$/u;

function lineOf(position: string): number {
  return Number(/:(\d+):\d+$/u.exec(position)?.[1] ?? 0);
}

/**
 * "file:line:col " where the config file gives `setting` (or, for a section such as an endpoint,
 * its first line), to start an error message with; "" when it comes from elsewhere (the defaults,
 * the environment), whose messages name their variable instead.
 */
export function positionOf(sources: Readonly<Record<string, string>>, setting: string): string {
  const own = sources[setting];
  const candidates =
    own !== undefined
      ? [own]
      : Object.entries(sources)
          .filter(([key]) => key.startsWith(`${setting}.`))
          .map(([, source]) => source);
  const first = candidates
    .filter((c) => FILE_POSITION.test(c))
    .sort((a, b) => lineOf(a) - lineOf(b))[0];
  return first === undefined ? "" : `${first} `;
}
