import { formatInstant } from "../../datajud/dates.js";
import type { LedgerEntry } from "../../proof/chain.js";
import type { ProofRecord } from "../../proof/record.js";
import { keyFingerprint } from "../../proof/signature.js";
import { oneLine } from "../../text.js";
import { escapeHtml } from "./email-kit.js";

/*
 * The printable form of an exported record (`proof CNJ --format html`), for a client or a court:
 * every check and delivery in a table, and the record itself embedded as JSON, so the same file
 * is what `proof verify` checks. Text from the database (errors, subjects) is escaped.
 */

export const PROOF_JSON_ID = "proof-record";

const KIND_WORDS: Record<string, string> = {
  datajud_check: "Consulta ao DataJud (CNJ)",
  djen_check: "Consulta ao DJEN",
  delivery: "Aviso",
};

const OUTCOME_WORDS: Record<string, string> = {
  baseline: "primeira leitura",
  unchanged: "sem mudança",
  changed: "com mudança",
  not_found: "não encontrado",
  failed: "falhou",
  ok: "resposta completa",
  queued: "na fila",
  sent: "enviado",
  given_up: "não entregue (desistência)",
};

function short(hash: string | null): string {
  return hash === null ? "—" : `${hash.slice(0, 12)}…`;
}

function detailOf(entry: LedgerEntry): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(entry.detail);
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function what(entry: LedgerEntry): string {
  const detail = detailOf(entry);
  if (entry.kind === "delivery") {
    const subject = typeof detail.subject === "string" ? `: ${oneLine(detail.subject, 120)}` : "";
    return `${entry.source} para ${entry.query}${subject}`;
  }
  return entry.kind === "datajud_check" ? `índice ${entry.query}` : entry.query;
}

function outcome(entry: LedgerEntry): string {
  const words = OUTCOME_WORDS[entry.outcome] ?? entry.outcome;
  const error = detailOf(entry).error;
  return typeof error === "string" && error !== "" ? `${words}: ${oneLine(error, 160)}` : words;
}

/** JSON inside a script element: no "</script>" can close it early. */
function embeddedJson(record: ProofRecord): string {
  return JSON.stringify(record, null, 1).replace(/</gu, "\\u003c");
}

export function proofHtml(record: ProofRecord, timeZone: string): string {
  const title = `Registro de acompanhamento do processo ${record.caseNumber ?? record.subject}`;
  const rows = record.entries
    .map(
      (e) =>
        `<tr><td>${e.seq}</td><td>${escapeHtml(formatInstant(e.at, timeZone))}</td><td>${escapeHtml(KIND_WORDS[e.kind] ?? e.kind)}</td><td>${escapeHtml(what(e))}</td><td>${escapeHtml(outcome(e))}</td><td><code>${escapeHtml(short(e.answerHash))}</code></td><td><code>${escapeHtml(short(e.hash))}</code></td></tr>`,
    )
    .join("\n");
  const period =
    record.since === null
      ? record.anchor === null
        ? "desde a primeira consulta"
        : `desde ${escapeHtml(formatInstant(record.anchor.lastAt, timeZone))} (${record.anchor.entries} registros anteriores resumidos numa âncora assinada)`
      : `a partir de ${escapeHtml(record.since)}`;
  return `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em; color: #111; }
table { border-collapse: collapse; width: 100%; font-size: 0.85em; }
th, td { border: 1px solid #999; padding: 0.25em 0.4em; text-align: left; vertical-align: top; }
thead { display: table-header-group; }
tr { page-break-inside: avoid; }
code { font-size: 0.9em; }
@media print { body { margin: 0; } }
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${record.label === null ? "" : `<p>${escapeHtml(record.label)}</p>\n`}<p>Cada consulta feita pelo datajud-monitor às fontes oficiais (DataJud, do CNJ, e DJEN) sobre este processo, e cada aviso enviado, na ordem em que foram gravados, ${period}. Cada linha guarda o resumo criptográfico (SHA-256) da anterior: uma linha alterada ou removida depois de gravada quebra a cadeia. O arquivo contém o registro completo e pode ser conferido com <code>datajud-monitor proof verify</code> e este arquivo.</p>
<ul>
<li>Exportado em ${escapeHtml(formatInstant(record.exportedAt, timeZone))}</li>
<li>Registros: ${record.entries.length}</li>
<li>Último resumo da cadeia: <code>${escapeHtml(record.head.hash ?? "—")}</code></li>
<li>Chave de assinatura: <code>${escapeHtml(keyFingerprint(record.head.publicKey))}</code></li>
</ul>
<table>
<thead><tr><th>Nº</th><th>Data e hora</th><th>Tipo</th><th>Consulta ou destino</th><th>Resultado</th><th>Resumo da resposta</th><th>Resumo da linha</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
<script type="application/json" id="${PROOF_JSON_ID}">
${embeddedJson(record)}
</script>
</body>
</html>
`;
}

/** The record embedded in a page `proofHtml` wrote, as JSON text; null when there is none. */
export function embeddedProofJson(html: string): string | null {
  const match = html.match(
    new RegExp(`<script type="application/json" id="${PROOF_JSON_ID}">([\\s\\S]*?)</script>`, "u"),
  );
  return match?.[1] ?? null;
}
