/**
 * The value of one sample in Prometheus' text format, e.g.
 * `sample(text, "datajud_monitor_sweeps_total", { trigger: "schedule", result: "ok" })`;
 * undefined when no line has that name with exactly those labels.
 */
export function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const wanted = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort()
    .join(",");
  for (const line of text.split("\n")) {
    if (line.startsWith("#") || line.trim() === "") continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const given = (match[2] ?? "")
      .split(/,(?=[a-zA-Z_]\w*=")/)
      .filter((p) => p !== "")
      .sort()
      .join(",");
    if (given === wanted) return Number(match[3]);
  }
  return undefined;
}
