import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { endpointLine } from "../../../src/cli/status.js";
import { createLogger } from "../../../src/log.js";
import { deliverToEndpoint } from "../../../src/notify/outbox/endpoint-delivery.js";
import { drainEndpoints } from "../../../src/notify/outbox/endpoint-drain.js";
import { movementAlert } from "../../../src/notify/outbox/messages.js";
import { queueMessage } from "../../../src/notify/outbox/queue.js";
import { movementEvent } from "../../../src/notify/render/build-event.js";
import { AdminAlert, renderAdminAlert } from "../../../src/notify/render/operator-mail.js";
import {
  WHATSAPP_DETAILS_MAX,
  WHATSAPP_LINK_MAX,
  WHATSAPP_TITLE_MAX,
} from "../../../src/notify/render/whatsapp-message.js";
import type { Endpoint } from "../../../src/notify/transport/endpoint.js";
import {
  DEFAULT_ENDPOINT_LIMITS,
  type EndpointLimits,
} from "../../../src/notify/transport/http-endpoint.js";
import { eventId } from "../../../src/notify/transport/webhook-signature.js";
import { endpointStatuses } from "../../../src/policy/endpoint-status.js";
import { endpointStates } from "../../../src/store/endpoint-state.js";
import { thisProcessClaimant } from "../../../src/store/lease.js";
import { endpointOutbox } from "../../../src/store/outbox.js";
import { realSystem } from "../../../src/system.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import { type FakeWhatsApp, startFakeWhatsApp } from "../../fakes/fake-whatsapp.js";
import { DOMAIN, queueChange, type TempStore, tempStore } from "../../support/outbox-store.js";
import { sampleAlert, sampleMovement } from "../../unit/notify/render/sample-alert.js";

/*
 * The WhatsApp channel against a loopback Cloud API: the template message as the API takes it,
 * what each of its errors means for the row (a refused token disables the endpoint as a 410
 * does), court text that cannot format or link, and the token in no output.
 */

const TOKEN = "EAAGsecretWHATSAPPtoken0123456789";
const NOW = Date.parse("2026-03-02T13:00:00.000Z");
const LIMITS: EndpointLimits = { ...DEFAULT_ENDPOINT_LIMITS, timeoutMs: 2000 };
const options = { limits: LIMITS, clock: new FakeClock({ now: NOW }) };

const HOSTILE =
  "*URGENTE* _leia_ ~x~ ```y``` `z` \n\n\t  linha     nova https://evil.example/x www.golpe.com.br @fulano \u202e";

let api: FakeWhatsApp;

beforeAll(async () => {
  api = await startFakeWhatsApp({ token: TOKEN });
});
afterAll(async () => {
  await api.close();
});
afterEach(() => {
  api.messages.length = 0;
  api.requests.length = 0;
  api.script.length = 0;
});

function endpoint(token = TOKEN): Endpoint & { channel: "whatsapp" } {
  return {
    name: "ana-zap",
    channel: "whatsapp",
    apiBase: api.apiBase,
    token,
    phoneNumberId: api.phoneNumberId,
    to: "5511987654321",
    template: { name: "alerta_processo", language: "pt_BR" },
  };
}

function event(label = "Silva x Estado") {
  const alert = sampleAlert({ label });
  return movementEvent(alert, { id: eventId("alert:1:whatsapp:ana-zap") });
}

describe("a WhatsApp template message", () => {
  it("goes to /v23.0/<phone number id>/messages with the token as a bearer, in the template's shape", async () => {
    const result = await deliverToEndpoint(endpoint(), event(), options);

    expect(result.verdict.kind).toBe("delivered");
    const request = api.requests[0];
    expect(request?.path).toBe(`/v23.0/${api.phoneNumberId}/messages`);
    expect(request?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request?.headers["content-type"]).toBe("application/json");
    const body = JSON.parse(request?.body ?? "null");
    expect(body).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: "5511987654321",
      type: "template",
      template: {
        name: "alerta_processo",
        language: { code: "pt_BR" },
        components: [
          {
            type: "body",
            parameters: [
              { type: "text", text: "Movimentação nova: Silva x Estado" },
              {
                type: "text",
                text: "Processo 0713383-43.2025.8.07.0006 · TJDFT · 02/10/2025 10:30 · Procedência (tipo de conclusão: para sentença) · 30/09/2025 14:05 · Juntada de Petição · Situação: decidido · Atenção: Sentença proferida: prazo de recurso corre",
              },
              {
                type: "text",
                text: "https://pje-consultapublica.tjdft.jus.br/consultapublica/ConsultaPublica/listView.seam?numeroProcesso=0713383-43.2025.8.07.0006",
              },
            ],
          },
        ],
      },
    });
    const shown = api.messages[0]?.shown ?? "";
    expect(shown).toContain("Aviso do monitor de processos: Movimentação nova: Silva x Estado");
    expect(api.requests[0]?.path).not.toContain(TOKEN);
  });

  it("carries hostile court text inert: no formatting, no link but ours, one line, bounded", async () => {
    const alert = sampleAlert({ label: `Silva ${HOSTILE}` });
    alert.newMovements = Array.from({ length: 3 }, () => ({
      instance: "G1",
      movement: sampleMovement({ name: `Sentença ${HOSTILE} ${"x".repeat(400)}` }),
    }));

    const result = await deliverToEndpoint(
      endpoint(),
      movementEvent(alert, { id: eventId("alert:2") }),
      options,
    );

    expect(result.verdict.kind).toBe("delivered");
    const message = api.messages[0];
    expect(message?.formatting).toEqual([]);
    expect(message?.autoLinks).toEqual([]);
    const [title, details, link] = message?.parameters ?? [];
    expect(title).toContain("∗URGENTE∗ ＿leia＿ ∼x∼ ˋˋˋyˋˋˋ ˋzˋ");
    expect(title?.length).toBeLessThanOrEqual(WHATSAPP_TITLE_MAX);
    expect(details?.length).toBeLessThanOrEqual(WHATSAPP_DETAILS_MAX);
    expect(link?.length).toBeLessThanOrEqual(WHATSAPP_LINK_MAX);
    for (const p of message?.parameters ?? []) {
      expect(p).not.toMatch(/[\n\t\u202e]| {5,}/);
    }
  });

  it.each([
    [
      401,
      { error: { message: "Error validating access token", type: "OAuthException", code: 190 } },
      "gone",
    ],
    [
      400,
      { error: { message: "Invalid OAuth access token", type: "OAuthException", code: 190 } },
      "gone",
    ],
    [403, { error: { message: "Application does not have permission", code: 10 } }, "rejected"],
    [429, { error: { message: "Too many calls", code: 80007 } }, "retry"],
    [400, { error: { message: "Rate limit hit", code: 130429 } }, "retry"],
    [400, { error: { message: "Spam rate limit hit", code: 131048 } }, "retry"],
    [500, { error: { message: "Unknown error", code: 1 } }, "retry"],
    [503, { error: { message: "Service temporarily unavailable", code: 2 } }, "retry"],
    [400, { error: { message: "Template name does not exist", code: 132001 } }, "rejected"],
  ])("an answer %i %j is %s", async (status, body, kind) => {
    api.script.push({
      status,
      body: JSON.stringify(body),
      headers: { "content-type": "application/json" },
    });

    const result = await deliverToEndpoint(endpoint(), event(), options);

    expect(result.verdict.kind).toBe(kind);
  });

  it("the fake's own refusal of a wrong token is a disabled endpoint, the token not in the error", async () => {
    const result = await deliverToEndpoint(endpoint("EAAGotherWRONGtoken999"), event(), options);

    expect(result.verdict.kind).toBe("gone");
    if (result.verdict.kind !== "gone") return;
    expect(result.verdict.error).toContain("WhatsApp access token is invalid or expired");
  });
});

describe("the WhatsApp token", () => {
  let store: TempStore;
  beforeAll(() => {
    store = tempStore("whatsapp-secrets-");
  });
  afterAll(() => {
    store.dispose();
  });

  it("is in no log line, row, endpoint state, status line or operator mail, even echoed back", async () => {
    const content = sampleAlert();
    const at = new Date(NOW).toISOString();
    const { caseId, changeId } = queueChange(store.db, content, [], at);
    queueMessage(
      { db: store.db, domain: DOMAIN, at: new Date(NOW) },
      movementAlert({ changeId, caseId, detectedAt: at, content }),
      [{ channel: "whatsapp", address: "ana-zap" }],
    );
    // Graph API error pages may quote what they were given.
    api.script.push({
      status: 401,
      body: JSON.stringify({
        error: { message: `Malformed access token ${TOKEN}`, type: "OAuthException", code: 190 },
      }),
    });
    const lines: string[] = [];
    const logger = createLogger({
      level: "debug",
      destination: { write: (l: string) => lines.push(l) },
    });

    const result = await drainEndpoints({
      claimant: thisProcessClaimant(realSystem),
      db: store.db,
      endpoints: [endpoint()],
      limits: LIMITS,
      clock: new FakeClock({ now: NOW }),
      maxAttempts: 5,
      logger,
      operator: { admin: "ops@example.com", domain: DOMAIN, policy: () => undefined },
    });

    expect(result).toMatchObject({ sent: 0, dead: 1, operatorAlerts: 1 });
    const rows = JSON.stringify(store.db.prepare("SELECT * FROM outbox").all());
    const states = JSON.stringify(store.db.prepare("SELECT * FROM endpoint_state").all());
    const status = endpointStatuses(
      [endpoint()],
      endpointOutbox(store.db),
      endpointStates(store.db),
    )
      .map((e) => endpointLine(e, "America/Sao_Paulo"))
      .join("\n");
    const mails = store.db
      .prepare<[], { payload: string }>("SELECT payload FROM outbox WHERE kind = 'admin'")
      .all()
      .map((r) => renderAdminAlert([AdminAlert.parse(JSON.parse(r.payload))], "America/Sao_Paulo"))
      .map((m) => `${m.subject}\n${m.text}\n${m.html}`)
      .join("\n");
    expect(status).toContain('whatsapp endpoint "ana-zap": DISABLED');
    expect(mails).toContain("refused the token");
    expect(rows).toContain("[redacted]");
    for (const [where, text] of Object.entries({
      lines: lines.join(""),
      rows,
      states,
      status,
      mails,
    })) {
      expect(text, `${where} shows the token`).not.toContain(TOKEN);
    }
  });
});
