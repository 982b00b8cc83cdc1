import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";

/**
 * A loopback stand-in for DJEN's Comunica API (`GET /api/v1/comunicacao`): real HTTP on
 * 127.0.0.1, the filters, paging and quirks public clients report (test/fixtures/djen/README.md):
 * `numeroOab` matched as an exact string, unknown parameters silently ignored, `count` capped at
 * 10,000, large pages coming back empty, 429/500 on bursts, 403 to addresses abroad, and items
 * with mixed field naming, raw HTML and cancellations.
 */

export type FakeDjenItem = Record<string, unknown>;

export interface FakeDjenFault {
  status?: number;
  /** An object is sent as JSON; a string as is. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Never answer (until close). */
  hang?: boolean;
  /** Answer 200 with the right `count` but no items, as DJEN sometimes does mid-paging. */
  emptyPage?: boolean;
  /** This answer ignores every filter but the paging: the whole feed, as for a misspelt one. */
  ignoreFilters?: boolean;
  /**
   * Answer 200 with JSON that never ends (chunked, no length): one item whose text goes on until
   * the client hangs up or the fake closes. What was written is counted in `endlessBytes`.
   */
  endless?: boolean;
}

export interface FakeDjenRequest {
  path: string;
  params: Record<string, string>;
}

export interface FakeDjen {
  url: string;
  requests: FakeDjenRequest[];
  /** Replaces the whole feed (items as DJEN sends them). */
  setItems(items: FakeDjenItem[]): void;
  /** Adds to the top of the feed (DJEN lists newest first). */
  add(...items: FakeDjenItem[]): void;
  /** The feed now, newest first. */
  items(): FakeDjenItem[];
  /** Queued, one per request. */
  failNext(...faults: FakeDjenFault[]): void;
  /** Until cleared with null. */
  failAlways(fault: FakeDjenFault | null): void;
  /** Every answer is the whole feed, whatever the filters (a parameter DJEN does not know). */
  ignoreFilters: boolean;
  /** Answers 403 "Access denied" to everything, as DJEN's CDN does to addresses abroad. */
  foreign: boolean;
  /** `count` never exceeds it. @default 10000 */
  countCap: number;
  /** `itensPorPagina` above this gets an empty `items` (with the right count). @default 100 */
  maxPageSize: number;
  /**
   * Answers nothing until `release`: requests wait in `held`, a slow DJEN without a clock. Each
   * is answered on release as it would have been when it came.
   */
  hold(): void;
  release(): void;
  /** Requests waiting for `release`. */
  readonly held: number;
  /**
   * Every answer waits this long on the real clock (a slow DJEN, for `npm run bench`; tests use
   * `hold` or a fake clock instead). @default 0
   */
  latencyMs: number;
  /** The most requests waiting for their answer at once (latency or hold), since set to 0. */
  maxInFlight: number;
  /** Bytes written by endless answers, and how many of them the client has hung up on. */
  readonly endless: { bytes: number; hungUp: number };
  close(): Promise<void>;
}

const KNOWN = new Set([
  "numeroProcesso",
  "numeroOab",
  "ufOab",
  "siglaTribunal",
  "nomeParte",
  "dataDisponibilizacaoInicio",
  "dataDisponibilizacaoFim",
  "pagina",
  "itensPorPagina",
]);

function text(value: unknown): string {
  return typeof value === "string" || typeof value === "number" ? String(value) : "";
}

function itemDate(item: FakeDjenItem): string {
  const iso = text(item.data_disponibilizacao ?? item.dataDisponibilizacao);
  if (iso !== "") return iso.slice(0, 10);
  const br = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text(item.datadisponibilizacao));
  return br ? `${br[3]}-${br[2]}-${br[1]}` : "";
}

function lawyers(item: FakeDjenItem): Array<Record<string, unknown>> {
  const list = item.destinatarioadvogados ?? item.destinatarioAdvogados;
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry) => {
    const advogado = (entry as { advogado?: unknown } | null)?.advogado;
    return advogado && typeof advogado === "object" ? [advogado as Record<string, unknown>] : [];
  });
}

/** Upper case, no accents: how DJEN compares a party's name (as clients observe it). */
function folded(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toUpperCase();
}

/**
 * `nomeParte`, as loosely as DJEN answers it: every word of the name found anywhere in the
 * destinatários' names or the text, as a substring, accents and case ignored. So a longer
 * company name, a homonym and a name only in the text all come back: the radar must sort them.
 */
function namesParty(item: FakeDjenItem, name: string): boolean {
  const recipients = Array.isArray(item.destinatarios)
    ? (item.destinatarios as Array<{ nome?: unknown }>).map((d) => text(d?.nome)).join(" ")
    : "";
  const hay = folded(`${recipients} ${text(item.texto)}`);
  const words = folded(name)
    .split(/\s+/u)
    .filter((w) => w !== "");
  return words.length > 0 && words.every((w) => hay.includes(w));
}

/** DJEN's own filtering, as clients observe it: exact strings, unknown parameters ignored. */
function matches(item: FakeDjenItem, params: Record<string, string>): boolean {
  const party = params.nomeParte;
  if (party !== undefined && !namesParty(item, party)) return false;
  const number = params.numeroProcesso;
  if (number !== undefined) {
    const digits = text(item.numero_processo ?? item.numeroProcesso).replace(/\D/g, "");
    if (digits !== number.replace(/\D/g, "")) return false;
  }
  const oab = params.numeroOab;
  if (oab !== undefined) {
    const uf = params.ufOab?.toUpperCase();
    const named = lawyers(item).some(
      (l) =>
        text(l.numero_oab ?? l.numeroOab) === oab &&
        (uf === undefined || text(l.uf_oab ?? l.ufOab).toUpperCase() === uf),
    );
    if (!named) return false;
  }
  const court = params.siglaTribunal;
  if (court !== undefined && text(item.siglaTribunal ?? item.sigla_tribunal) !== court) {
    return false;
  }
  const date = itemDate(item);
  const from = params.dataDisponibilizacaoInicio;
  const to = params.dataDisponibilizacaoFim;
  if (from !== undefined && date < from) return false;
  if (to !== undefined && date > to) return false;
  return true;
}

class FakeDjenServer implements FakeDjen {
  url = "";
  readonly requests: FakeDjenRequest[] = [];
  ignoreFilters = false;
  foreign = false;
  countCap = 10_000;
  maxPageSize = 100;
  latencyMs = 0;
  maxInFlight = 0;
  #inFlight = 0;
  readonly server: Server;
  #items: FakeDjenItem[] = [];
  readonly #queue: FakeDjenFault[] = [];
  #always: FakeDjenFault | null = null;
  #holding: Array<() => void> | null = null;
  readonly #sockets = new Set<Socket>();
  #closed = false;
  readonly endless = { bytes: 0, hungUp: 0 };

  constructor() {
    this.server = createServer((req, res) => this.#handle(req, res));
    this.server.on("connection", (socket) => {
      this.#sockets.add(socket);
      socket.on("close", () => this.#sockets.delete(socket));
    });
  }

  setItems(items: FakeDjenItem[]): void {
    this.#items = [...items];
  }

  add(...items: FakeDjenItem[]): void {
    this.#items = [...items, ...this.#items];
  }

  items(): FakeDjenItem[] {
    return [...this.#items];
  }

  failNext(...faults: FakeDjenFault[]): void {
    this.#queue.push(...faults);
  }

  failAlways(fault: FakeDjenFault | null): void {
    this.#always = fault;
  }

  hold(): void {
    this.#holding ??= [];
  }

  release(): void {
    const waiting = this.#holding ?? [];
    this.#holding = null;
    for (const answer of waiting) answer();
  }

  get held(): number {
    return this.#holding?.length ?? 0;
  }

  async close(): Promise<void> {
    this.#closed = true;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.#sockets) socket.destroy();
    this.server.closeAllConnections();
    await closed;
  }

  #send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
    if (this.#closed || res.destroyed || res.headersSent) return;
    const payload = typeof body === "string" ? body : JSON.stringify(body);
    res.writeHead(status, {
      "content-type": typeof body === "string" ? "text/plain" : "application/json; charset=utf-8",
      "content-length": String(Buffer.byteLength(payload)),
      ...headers,
    });
    res.end(payload);
  }

  /** Writes as fast as the client reads (backpressure), until it hangs up or the fake closes. */
  #endless(res: ServerResponse): void {
    res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
    res.write('{"status":"success","message":"Sucesso","count":1,"items":[{"id":1,"texto":"');
    const chunk = Buffer.alloc(64 * 1024, "a");
    let done = false;
    res.on("close", () => {
      if (!done) this.endless.hungUp += 1;
      done = true;
    });
    const pump = (): void => {
      while (!done && !this.#closed && !res.destroyed) {
        this.endless.bytes += chunk.length;
        if (!res.write(chunk)) {
          res.once("drain", pump);
          return;
        }
      }
    };
    pump();
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    this.#inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.#inFlight);
    const answer = (): void => {
      this.#inFlight -= 1;
      this.#answer(req, res);
    };
    const later = this.latencyMs > 0 ? () => setTimeout(answer, this.latencyMs) : answer;
    if (this.#holding !== null) {
      this.#holding.push(later);
      return;
    }
    later();
  }

  #answer(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const params = Object.fromEntries(url.searchParams);
    this.requests.push({ path: url.pathname, params });
    if (this.foreign) {
      // CloudFront's own refusal: plain text, not DJEN's JSON.
      this.#send(res, 403, "Access denied", {});
      return;
    }
    const fault = this.#queue.shift() ?? this.#always ?? undefined;
    if (fault?.hang) return;
    if (fault?.endless) {
      this.#endless(res);
      return;
    }
    if (fault && (fault.status !== undefined || fault.body !== undefined)) {
      this.#send(res, fault.status ?? 200, fault.body ?? { message: "erro" }, fault.headers ?? {});
      return;
    }
    if (req.method !== "GET" || url.pathname.replace(/\/+$/, "") !== "/api/v1/comunicacao") {
      this.#send(res, 404, { message: "Not Found" }, {});
      return;
    }
    const ignoring = this.ignoreFilters || fault?.ignoreFilters === true;
    const filters = Object.fromEntries(Object.entries(params).filter(([k]) => KNOWN.has(k)));
    const found = ignoring ? this.#items : this.#items.filter((item) => matches(item, filters));
    const count = Math.min(found.length, this.countCap);
    const page = Math.max(1, Number(params.pagina ?? "1") || 1);
    const size = Math.max(1, Number(params.itensPorPagina ?? "100") || 100);
    const items =
      fault?.emptyPage || size > this.maxPageSize
        ? []
        : found.slice(0, this.countCap).slice((page - 1) * size, page * size);
    this.#send(res, 200, { status: "success", message: "Sucesso", count, items }, {});
  }
}

export async function startFakeDjen(): Promise<FakeDjen> {
  const fake = new FakeDjenServer();
  await new Promise<void>((resolve, reject) => {
    fake.server.once("error", reject);
    fake.server.listen(0, "127.0.0.1", () => {
      fake.server.off("error", reject);
      resolve();
    });
  });
  const address = fake.server.address();
  if (address === null || typeof address === "string") throw new Error("the fake DJEN has no port");
  fake.url = `http://127.0.0.1:${address.port}`;
  return fake;
}

export interface DjenItemOptions {
  id: number;
  caseNumber?: string;
  court?: string;
  date?: string;
  lawyers?: Array<{ name: string; oab: string; uf: string }>;
  texto?: string;
  kind?: string;
  documentType?: string;
  /** camelCase names where DJEN also uses them (numeroProcesso, dataDisponibilizacao...). */
  camelCase?: boolean;
  cancelled?: string;
  link?: string | null;
  /** DJEN's `dataenvio` (the court sent it), YYYY-MM-DD; absent when not given. */
  sentOn?: string;
  /** The destinatários (name and polo); default a person on the active side, a company on the passive. */
  recipients?: Array<{ name: string; polo: string }>;
}

/** An item shaped like DJEN's (field names as recorded in test/fixtures/djen/README.md). */
export function djenItem(options: DjenItemOptions): FakeDjenItem {
  const date = options.date ?? "2025-09-29";
  const number = options.caseNumber ?? "07133834320258070006";
  const [y, m, d] = date.split("-");
  const lawyerList = (options.lawyers ?? [{ name: "ANA ADVOGADA", oab: "123456", uf: "SP" }]).map(
    (l, i) => ({
      id: 700_000_000 + options.id * 10 + i,
      comunicacao_id: options.id,
      advogado_id: 3_000_000 + i,
      created_at: `${date}T10:00:00`,
      updated_at: `${date}T10:00:00`,
      advogado: options.camelCase
        ? { id: 3_000_000 + i, nome: l.name, numeroOab: l.oab, ufOab: l.uf }
        : { id: 3_000_000 + i, nome: l.name, numero_oab: l.oab, uf_oab: l.uf },
    }),
  );
  return {
    id: options.id,
    ...(options.camelCase ? { dataDisponibilizacao: date } : { data_disponibilizacao: date }),
    ...(options.sentOn === undefined ? {} : { dataenvio: options.sentOn }),
    siglaTribunal: options.court ?? "TJDFT",
    tipoComunicacao: options.kind ?? "Intimação",
    nomeOrgao: "1ª Vara Cível de Ceilândia",
    idOrgao: 52276,
    texto:
      options.texto ??
      "<p>Poder Judiciário</p><p>Fica a parte <b>intimada</b> para, no prazo de 15 dias, manifestar-se.</p>",
    ...(options.camelCase ? { numeroProcesso: number } : { numero_processo: number }),
    meio: "D",
    link: options.link === undefined ? "https://pje.example.jus.br/documento/123" : options.link,
    tipoDocumento: options.documentType ?? "Despacho",
    nomeClasse: "PROCEDIMENTO COMUM CÍVEL",
    codigoClasse: "7",
    numeroComunicacao: options.id % 100_000,
    ativo: options.cancelled === undefined,
    hash: `h${options.id}AbCdEf`,
    status: "P",
    motivo_cancelamento: options.cancelled ?? null,
    data_cancelamento: options.cancelled === undefined ? null : `${date}T18:00:00`,
    datadisponibilizacao: `${d}/${m}/${y}`,
    meiocompleto: "Diário de Justiça Eletrônico Nacional",
    numeroprocessocommascara: `${number.slice(0, 7)}-${number.slice(7, 9)}.${number.slice(9, 13)}.${number.slice(13, 14)}.${number.slice(14, 16)}.${number.slice(16)}`,
    destinatarios: (
      options.recipients ?? [
        { name: "FULANO DE TAL", polo: "A" },
        { name: "EMPRESA X LTDA", polo: "P" },
      ]
    ).map((r) => ({ nome: r.name, polo: r.polo, comunicacao_id: options.id })),
    ...(options.camelCase
      ? { destinatarioAdvogados: lawyerList }
      : { destinatarioadvogados: lawyerList }),
  };
}
