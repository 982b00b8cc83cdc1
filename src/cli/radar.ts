import { formatCnjNumber } from "../datajud/cnj-number.js";
import { formatInstant } from "../datajud/dates.js";
import { nameKey } from "../radar/party-name.js";
import { parseTaxId } from "../radar/tax-id.js";
import { closeDatabase } from "../store/database.js";
import { listDjenSources } from "../store/djen-sources.js";
import { listPartyHits } from "../store/party-hits.js";
import { loadWatchlist } from "../watchlist/parse-watchlist.js";
import { type Command, EXIT, programOf } from "./command.js";
import { formatTable } from "./format-table.js";
import { partyLine, partyStatuses } from "./radar-status.js";
import { djenViewOf, loadRuntime, openRecordedDatabase } from "./runtime.js";
import { readableOutput } from "./terminal.js";

const CONFIDENCE = { confirmado: "confirmado", provavel: "provável", homonimo: "homônimo?" };

export const radarCommand: Command = {
  name: "radar",
  summary: "The party radar's history: each watched party's new lawsuits and later items",
  usage: "datajud-monitor radar [PARTY] [--all] [--json]",
  details: [
    "Per party of the watchlist (or the one named: name, alias, CPF/CNPJ), what DJEN showed",
    "naming it in cases outside the watchlist, newest first: when, the case, how sure the match",
    "is (confirmado, provável, possível homônimo) and why, and what was done with it. Only the",
    "news of each new lawsuit unless --all (later items of those cases too). See docs/radar.md.",
    "Exit codes: 0, 2 bad config, no database, or no such party.",
  ],
  options: {
    all: { type: "boolean", default: false },
    json: { type: "boolean", default: false },
  },
  allowPositionals: true,
  async run(args, io) {
    const runtime = loadRuntime(io, "radar");
    if (!runtime) return EXIT.usage;
    const loaded = await loadWatchlist(runtime.config.paths.watchlist);
    if (!loaded.ok) {
      io.stderr.write(
        `${programOf(io)} radar: the watchlist has errors; \`${programOf(io)} validate\` lists them\n`,
      );
      return EXIT.usage;
    }
    const parties = loaded.watchlist.parties ?? [];
    const named = args.positionals.join(" ").trim();
    const chosen =
      named === ""
        ? parties
        : parties.filter((p) => {
            const id = parseTaxId(named);
            if (id.ok) return p.key === `${id.value.kind}:${id.value.digits}`;
            return [p.name, ...p.aliases].some((n) => nameKey(n) === nameKey(named));
          });
    if (named !== "" && chosen.length === 0) {
      io.stderr.write(`${programOf(io)} radar: no party "${named}" in the watchlist\n`);
      return EXIT.usage;
    }
    const db = openRecordedDatabase(io, runtime, "radar");
    if (!db) return EXIT.usage;
    try {
      const sources = new Map(listDjenSources(db).map((s) => [`${s.kind}:${s.key}`, s]));
      const statuses = partyStatuses(db, chosen, sources, djenViewOf(runtime.config).plan);
      const report = chosen.map((party, i) => ({
        ...statuses[i],
        hits: listPartyHits(db, { partyKey: party.key, newCasesOnly: args.values.all !== true }),
      }));
      if (args.values.json === true) {
        io.stdout.write(`${JSON.stringify({ parties: report })}\n`);
        return EXIT.ok;
      }
      const tz = runtime.config.schedule.timezone;
      const when = (iso: string | null): string =>
        iso === null ? "never" : formatInstant(iso, tz);
      const out = readableOutput(io.stdout);
      if (report.length === 0) out.write("no party in the watchlist (parties:, docs/radar.md)\n");
      for (const [i, party] of report.entries()) {
        const status = statuses[i];
        if (status !== undefined) out.write(`${partyLine(status, when)}\n`);
        if (party.hits.length === 0) continue;
        const rows = party.hits.map((h) => [
          when(h.firstSeenAt),
          formatCnjNumber(h.caseNumber),
          h.court,
          CONFIDENCE[h.confidence],
          h.side ?? "",
          h.disposition ?? "not reported yet",
          h.reason,
        ]);
        out.write(
          `${formatTable(["seen", "case", "court", "match", "polo", "done", "why"], rows)}\n`,
        );
      }
      return EXIT.ok;
    } finally {
      closeDatabase(db);
    }
  },
};
