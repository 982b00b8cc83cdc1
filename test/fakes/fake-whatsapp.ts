import {
  type EndpointFake,
  json,
  type ReceivedRequest,
  startEndpointFake,
} from "./endpoint-fake.js";

/**
 * A loopback stand-in for the WhatsApp Business Cloud API's send endpoint (POST
 * /<version>/<phone number id>/messages on graph.facebook.com), checking a template message as
 * the API does and filling the approved template the way WhatsApp would show it:
 * - a missing or other bearer token: 401 with the Graph API's error code 190 (OAuthException);
 * - another version, phone number id or path: 400 code 100 (unsupported request);
 * - a body that is not a template message (messaging_product, to, type, template.name,
 *   language.code, one body component of text parameters, and for `ackTemplate` one URL button
 *   component at index 0 with one text parameter): 400 code 100;
 * - a parameter with a line break, a tab or more than four spaces in a row: 400 code 132018, as
 *   the API refuses it; a template or language it does not know: 404 code 132001;
 * - otherwise 200 with the contacts and the message id, as the API answers.
 * `shown` is the template's body with its {{n}} filled in; `formatting` the *bold*, _italic_,
 * ~strike~ and `code` spans WhatsApp would format in it, and `autoLinks` what it would link.
 */

export const FAKE_WHATSAPP_VERSION = "v23.0";

/** The body of the sample template of docs/channels.md, with its three parameters. */
export const SAMPLE_TEMPLATE_BODY =
  "Aviso do monitor de processos: {{1}}\n\n{{2}}\n\nAbrir: {{3}}\n\nMensagem automática. Datas de prazo são estimativas: confira nos autos.";

export interface WhatsAppMessage {
  to: string;
  template: string;
  language: string;
  parameters: string[];
  /** The URL the template's button opens (its base and the sent suffix); null: no button. */
  buttonUrl: string | null;
  shown: string;
  formatting: string[];
  autoLinks: string[];
}

export interface FakeWhatsApp extends EndpointFake {
  /** The apiBase to configure (no version). */
  apiBase: string;
  token: string;
  phoneNumberId: string;
  messages: WhatsAppMessage[];
}

function graphError(status: number, code: number, message: string) {
  return json(status, {
    error: { message, type: "OAuthException", code, fbtrace_id: "AbCdEfGh123" },
  });
}

function formatting(text: string): string[] {
  return [...text.matchAll(/\*[^*\n]+\*|_[^_\n]+_|~[^~\n]+~|`[^`\n]+`/g)].map((m) => m[0]);
}

function autoLinks(text: string): string[] {
  const patterns = [
    /\b[a-z][a-z0-9+.-]*:\/\/\S+/gi,
    /\b(?:[a-z0-9-]+\.)+[a-z]{2,}\b/gi,
    /@[\w.]+/g,
  ];
  return patterns.flatMap((p) => [...text.matchAll(p)].map((m) => m[0]));
}

interface Parsed {
  to: string;
  name: string;
  language: string;
  parameters: string[];
  /** The URL button's dynamic suffix, when the message fills one. */
  button: string | null;
}

type Component = {
  type?: unknown;
  sub_type?: unknown;
  index?: unknown;
  parameters?: Array<{ type?: unknown; text?: unknown }>;
};

/** The one text parameter of a URL button at index 0; undefined: not such a component. */
function urlButton(c: Component | undefined): string | undefined {
  const [p, ...more] = c?.parameters ?? [];
  if (c?.type !== "button" || c.sub_type !== "url" || c.index !== "0" || more.length > 0) {
    return undefined;
  }
  return p?.type === "text" && typeof p.text === "string" && p.text !== "" ? p.text : undefined;
}

function parseBody(body: string): Parsed | null {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return null;
  }
  const v = value as {
    messaging_product?: unknown;
    to?: unknown;
    type?: unknown;
    template?: {
      name?: unknown;
      language?: { code?: unknown };
      components?: Component[];
    };
  };
  if (v.messaging_product !== "whatsapp" || v.type !== "template") return null;
  if (typeof v.to !== "string" || !/^\d{8,15}$/.test(v.to)) return null;
  const t = v.template;
  if (typeof t?.name !== "string" || typeof t.language?.code !== "string") return null;
  const components = t.components ?? [];
  if (components.length < 1 || components.length > 2 || components[0]?.type !== "body") return null;
  const button = components.length === 2 ? urlButton(components[1]) : null;
  if (button === undefined) return null;
  const parameters: string[] = [];
  for (const p of components[0].parameters ?? []) {
    if (p.type !== "text" || typeof p.text !== "string" || p.text === "") return null;
    parameters.push(p.text);
  }
  return { to: v.to, name: t.name, language: t.language.code, parameters, button };
}

export async function startFakeWhatsApp(
  options: {
    token?: string;
    phoneNumberId?: string;
    template?: string;
    language?: string;
    /** A second approved template, the same body with a URL button `ackUrlBase` + {{1}}. */
    ackTemplate?: string;
    ackUrlBase?: string;
  } = {},
): Promise<FakeWhatsApp> {
  const token = options.token ?? "EAAGfakeWHATSAPPtoken0123456789";
  const phoneNumberId = options.phoneNumberId ?? "106540352242922";
  const template = options.template ?? "alerta_processo";
  const language = options.language ?? "pt_BR";
  const ackTemplate = options.ackTemplate ?? null;
  const handle = (request: ReceivedRequest) => {
    if (request.headers.authorization !== `Bearer ${token}`) {
      return graphError(401, 190, "Invalid OAuth access token - Cannot parse access token");
    }
    if (
      request.method !== "POST" ||
      request.path !== `/${FAKE_WHATSAPP_VERSION}/${phoneNumberId}/messages`
    ) {
      return graphError(400, 100, "Unsupported post request.");
    }
    const parsed = parseBody(request.body);
    if (parsed === null) return graphError(400, 100, "Invalid parameter");
    if (parsed.parameters.some((p) => /[\n\t]| {5,}/.test(p))) {
      return graphError(400, 132018, "There was an issue with the parameters in your template.");
    }
    if ((parsed.name !== template && parsed.name !== ackTemplate) || parsed.language !== language) {
      return graphError(404, 132001, "Template name does not exist in the translation");
    }
    // The template with the button must fill it; the one without takes no button.
    if (
      parsed.parameters.length !== 3 ||
      (parsed.button !== null) !== (parsed.name === ackTemplate)
    ) {
      return graphError(
        400,
        132000,
        "Number of parameters does not match the expected number of params",
      );
    }
    const shown = SAMPLE_TEMPLATE_BODY.replace(
      /\{\{(\d)\}\}/g,
      (_, n: string) => parsed.parameters[Number(n) - 1] ?? "",
    );
    fake.messages.push({
      to: parsed.to,
      template: parsed.name,
      language: parsed.language,
      parameters: parsed.parameters,
      buttonUrl: parsed.button === null ? null : `${options.ackUrlBase ?? ""}${parsed.button}`,
      shown,
      formatting: formatting(shown),
      autoLinks: autoLinks(parsed.parameters.slice(0, 2).join("\n")),
    });
    return json(200, {
      messaging_product: "whatsapp",
      contacts: [{ input: parsed.to, wa_id: parsed.to }],
      messages: [{ id: `wamid.${fake.messages.length}` }],
    });
  };
  const base = await startEndpointFake((request) => handle(request));
  const fake = base as FakeWhatsApp;
  fake.apiBase = base.origin;
  fake.token = token;
  fake.phoneNumberId = phoneNumberId;
  fake.messages = [];
  return fake;
}
