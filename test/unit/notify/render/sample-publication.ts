import type { PublicationAlertContent } from "../../../../src/notify/render/publication-alert.js";

/** A DJEN intimação in a watched case, as the sweep queues it. */
export function samplePublication(
  overrides: Partial<PublicationAlertContent> = {},
): PublicationAlertContent {
  return {
    type: "publication",
    notice: "published",
    djenId: "449012345",
    caseNumber: "0713383-43.2025.8.07.0006",
    watchedCase: { court: "tjdft", label: "Silva x Souza (despejo)" },
    outsideWatchlist: false,
    registrations: ["123456/DF"],
    court: "TJDFT",
    courtUnit: "2ª Vara Cível de Sobradinho",
    kind: "Intimação",
    documentType: "Sentença",
    className: "Despejo por Falta de Pagamento",
    availableOn: "2025-10-02",
    publishedOn: "2025-10-03",
    countingStartsOn: "2025-10-06",
    countingReasons: [],
    countingNote:
      "Estimativa pela Lei 11.419/2006, art. 4º, §§ 3º e 4º; confira feriados locais no tribunal.",
    text: "Intimem-se as partes da sentença de procedência.",
    truncationNote: "",
    link: "https://pje.tjdft.jus.br/documento/123",
    certificateUrl: "https://comunica.pje.jus.br/certidao/449012345",
    parties: [{ name: "João da Silva", side: "A" }],
    lawyers: [{ name: "Ana Souza", oab: "123456/DF" }],
    urgent: true,
    urgency: "starts_deadline",
    urgentRule: null,
    cancellation: null,
    fetchedAt: "2025-10-02T12:00:00.000Z",
    ...overrides,
  };
}
