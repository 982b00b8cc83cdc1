import type { CnjNumber } from "./cnj-number.js";

/**
 * Links to a court's own public consultation of a case, for the courts whose consultation takes
 * the case number in a stable URL. Built from the validated CNJ number only (digits, dots and
 * dashes), never from anything DataJud sent. Courts whose public consultation cannot be opened
 * on a given case by URL (a form behind a captcha, a per-case token) get no link rather than a
 * guess. Some of these pages may still ask for a captcha before showing the case.
 */

export interface CourtCaseLink {
  url: string;
  /** The court system the page belongs to, as lawyers know it. */
  system: string;
}

type LinkBuilder = (cnj: CnjNumber) => CourtCaseLink;

/** PJe's public consultation (PJe 1.x), which takes the formatted number as `numeroProcesso`. */
function pjeConsultaPublica(base: string): LinkBuilder {
  return (cnj) => ({
    url: `${base}/ConsultaPublica/listView.seam?numeroProcesso=${cnj.formatted}`,
    system: "PJe, consulta pública",
  });
}

/** The labour courts' PJe (PJe-JT) opens a case page from its formatted number. */
function pjeJt(host: string): LinkBuilder {
  return (cnj) => ({
    url: `https://${host}/consultaprocessual/detalhe-processo/${cnj.formatted}`,
    system: "PJe-JT, consulta processual",
  });
}

const LINKS: Readonly<Record<string, LinkBuilder>> = {
  tjsp: (cnj) => ({
    url:
      "https://esaj.tjsp.jus.br/cpopg/search.do?conversationId=&cbPesquisa=NUMPROC" +
      `&numeroDigitoAnoUnificado=${cnj.sequence}-${cnj.checkDigits}.${cnj.year}` +
      `&foroNumeroUnificado=${cnj.origin}` +
      `&dadosConsulta.valorConsultaNuUnificado=${cnj.formatted}` +
      "&dadosConsulta.valorConsultaNuUnificado=UNIFICADO&dadosConsulta.valorConsulta=" +
      "&dadosConsulta.tipoNuProcesso=UNIFICADO",
    system: "e-SAJ, consulta de 1º grau",
  }),
  tjrj: (cnj) => ({
    url: `https://www4.tjrj.jus.br/consultaProcessoWebV2/consultaMov.do?v=2&numProcesso=${cnj.formatted}&acessoIP=internet&tipoUsuario=`,
    system: "consulta processual do TJRJ",
  }),
  tjmg: (cnj) => ({
    url: `https://www4.tjmg.jus.br/juridico/sf/proc_resultado.jsp?comrCodigo=${cnj.origin}&numero=1&listaProcessos=${cnj.digits}`,
    system: "consulta processual do TJMG",
  }),
  tjdft: pjeConsultaPublica("https://pje-consultapublica.tjdft.jus.br/consultapublica"),
  trf1: (cnj) => ({
    url: `https://processual.trf1.jus.br/consultaProcessual/processo.php?proc=${cnj.digits}&secao=TRF1`,
    system: "consulta processual do TRF1",
  }),
  trf2: (cnj) => ({
    url: `https://eproc.trf2.jus.br/eproc/externo_controlador.php?acao=processo_seleciona_publica&num_processo=${cnj.digits}`,
    system: "eproc, consulta pública",
  }),
  trf3: pjeConsultaPublica("https://pje1g.trf3.jus.br/pje"),
  trf4: (cnj) => ({
    url: `https://consulta.trf4.jus.br/trf4/controlador.php?acao=consulta_processual_resultado_pesquisa&selForma=NU&txtValor=${cnj.digits}&selOrigem=TRF&chkMostrarBaixados=S`,
    system: "consulta processual do TRF4",
  }),
  trf5: pjeConsultaPublica("https://pje.trf5.jus.br/pje"),
  trf6: pjeConsultaPublica("https://pje1g.trf6.jus.br/consultapublica"),
  tst: pjeJt("pje.tst.jus.br"),
  ...Object.fromEntries(
    Array.from({ length: 24 }, (_, i) => [`trt${i + 1}`, pjeJt(`pje.trt${i + 1}.jus.br`)]),
  ),
};

/** The court's public page for the case, or null where the court has no stable URL for one. */
export function courtCaseLink(cnj: CnjNumber, court: string): CourtCaseLink | null {
  const build = LINKS[court.trim().toLowerCase()];
  return build === undefined ? null : build(cnj);
}

/** The courts that get a link, for docs/alerts.md and tests. */
export function linkedCourts(): string[] {
  return Object.keys(LINKS);
}

/*
 * A link to a court's document that someone else gave us (DJEN's `link`, which each court's
 * system fills in): kept only when it points into the judiciary's own domain, `jus.br`, which
 * registro.br delegates to courts and councils alone (every court host DJEN was seen to carry,
 * www3.tjrj.jus.br, esaj.tjsp.jus.br, pje.trt1.jus.br, is under it). Anything else (another
 * host, a look-alike such as tjsp.jus.br.example.com, credentials in the URL, a scheme other than
 * http(s)) is dropped, never shown: it would be the only button of an urgent chat message. An
 * http link on a court host is sent as https, as every court site is served.
 */

const COURT_DOMAIN = ".jus.br";
const LINK_MAX = 2000;

/** `url` when it is a court's (https, a host under jus.br), else null. */
export function courtDocumentLink(url: string | null | undefined): string | null {
  if (url === null || url === undefined) return null;
  const text = url.trim();
  if (text === "" || text.length > LINK_MAX) return null;
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return null;
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return null;
  if (parsed.username !== "" || parsed.password !== "") return null;
  if (!parsed.hostname.toLowerCase().endsWith(COURT_DOMAIN)) return null;
  parsed.protocol = "https:";
  if (parsed.port === "80") parsed.port = "";
  return parsed.href;
}
