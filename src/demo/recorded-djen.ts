/**
 * DJEN's Comunica API (`GET /api/v1/comunicacao`) answered in memory from sample items, for
 * `monitor demo`: the filters DJEN applies (case number, OAB number as an exact string with its
 * state, court, dates of disponibilização) and its paging, `{ status, message, count, items }`.
 * Nothing leaves the process.
 */

export type DjenItem = Record<string, unknown>;

export interface RecordedDjen {
  fetch: typeof fetch;
  /** Replaces what DJEN holds. */
  load(items: readonly DjenItem[]): void;
  /** Requests answered so far. */
  readonly requests: number;
}

const PATH = /^\/api\/v1\/comunicacao\/?$/;

function text(value: unknown): string {
  return typeof value === "string" || typeof value === "number" ? String(value) : "";
}

function lawyers(item: DjenItem): Array<Record<string, unknown>> {
  const list = item.destinatarioadvogados;
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry) => {
    const advogado = (entry as { advogado?: unknown } | null)?.advogado;
    return advogado !== null && typeof advogado === "object"
      ? [advogado as Record<string, unknown>]
      : [];
  });
}

function matches(item: DjenItem, params: URLSearchParams): boolean {
  const number = params.get("numeroProcesso");
  if (number !== null && text(item.numero_processo) !== number.replace(/\D/g, "")) return false;
  const oab = params.get("numeroOab");
  if (oab !== null) {
    const uf = params.get("ufOab")?.toUpperCase() ?? null;
    const named = lawyers(item).some(
      (l) => text(l.numero_oab) === oab && (uf === null || text(l.uf_oab).toUpperCase() === uf),
    );
    if (!named) return false;
  }
  const court = params.get("siglaTribunal");
  if (court !== null && text(item.siglaTribunal) !== court) return false;
  const day = text(item.data_disponibilizacao);
  const from = params.get("dataDisponibilizacaoInicio");
  const to = params.get("dataDisponibilizacaoFim");
  return (from === null || day >= from) && (to === null || day <= to);
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}

/** `day` as DJEN writes it twice: `YYYY-MM-DD` and `DD/MM/YYYY`. */
export function redated(item: DjenItem, day: string): DjenItem {
  const [y, m, d] = day.split("-");
  return { ...item, data_disponibilizacao: day, datadisponibilizacao: `${d}/${m}/${y}` };
}

export function createRecordedDjen(): RecordedDjen {
  let items: DjenItem[] = [];
  let requests = 0;
  const answer = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    request.signal.throwIfAborted();
    const url = new URL(request.url);
    if (request.method !== "GET" || !PATH.test(url.pathname)) {
      return json(404, { message: "Not Found" });
    }
    requests++;
    const found = items.filter((item) => matches(item, url.searchParams));
    const page = Math.max(1, Number(url.searchParams.get("pagina") ?? "1") || 1);
    const size = Math.max(1, Number(url.searchParams.get("itensPorPagina") ?? "100") || 100);
    return json(200, {
      status: "success",
      message: "Sucesso",
      count: found.length,
      items: found.slice((page - 1) * size, page * size),
    });
  };
  return {
    fetch: answer,
    load: (next) => {
      items = [...next];
    },
    get requests() {
      return requests;
    },
  };
}
