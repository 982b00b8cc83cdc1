import type { LookupAddress } from "node:dns";
import { afterEach, describe, expect, it } from "vitest";
import { deliverToEndpoint } from "../../../src/notify/outbox/endpoint-delivery.js";
import {
  correctionNoticeEvent,
  movementEvent,
  publicationEvent,
} from "../../../src/notify/render/build-event.js";
import type { Endpoint } from "../../../src/notify/transport/endpoint.js";
import {
  DEFAULT_ENDPOINT_LIMITS,
  type EndpointLimits,
} from "../../../src/notify/transport/http-endpoint.js";
import { eventId } from "../../../src/notify/transport/webhook-signature.js";
import { type EndpointFake, startEndpointFake } from "../../fakes/endpoint-fake.js";
import { startFakeSlack, startFakeTeams, startFakeTelegram } from "../../fakes/fake-chat.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import { startFakeWebhookReceiver } from "../../fakes/fake-webhook-receiver.js";
import { sampleAlert, sampleMovement } from "../../unit/notify/render/sample-alert.js";
import { samplePublication } from "../../unit/notify/render/sample-publication.js";

const SECRET = `whsec_${Buffer.alloc(32, 3).toString("base64")}`;
const NOW = new Date("2025-10-02T15:00:00.000Z");
const NOW_SECONDS = NOW.getTime() / 1000;
const LIMITS: EndpointLimits = { ...DEFAULT_ENDPOINT_LIMITS, timeoutMs: 2000 };
const options = { limits: LIMITS, clock: new FakeClock({ now: NOW.getTime() }) };

/**
 * Court text that tries every trick: mentions, links, tags, Markdown, control characters, and
 * what Slack and Telegram would link by themselves (bare URLs, host names, addresses, handles).
 */
const HOSTILE =
  '<!channel> <@U999> *urgente* _leia_ ~x~ `y` :rotating_light: [clique](https://evil.example/x) <a href="https://evil.example">x</a> <b>&amp; \u202e' +
  " http://10.0.0.1/a www.golpe.com.br golpe.com @channel @fulano cartorio@golpe.com #urgente $USD /start";

const fakes: EndpointFake[] = [];
async function track<T extends EndpointFake>(fake: Promise<T>): Promise<T> {
  const started = await fake;
  fakes.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

function hostileEvent(): ReturnType<typeof movementEvent> {
  const alert = sampleAlert({ label: `Silva ${HOSTILE}` });
  alert.newMovements = [
    { instance: "G1", movement: sampleMovement({ name: `Sentença ${HOSTILE}` }) },
  ];
  return movementEvent(alert, { id: eventId("alert:1:ana@example.com") });
}

describe("a webhook", () => {
  it("arrives signed as Standard Webhooks says, and a retry carries the same id", async () => {
    const receiver = await track(
      startFakeWebhookReceiver({ secret: SECRET, nowSeconds: () => NOW_SECONDS }),
    );
    const endpoint: Endpoint = {
      name: "firma",
      channel: "webhook",
      url: receiver.url,
      secrets: [SECRET],
    };
    const event = movementEvent(sampleAlert(), { id: eventId("alert:7:firma") });

    const first = await deliverToEndpoint(endpoint, event, options);
    const again = await deliverToEndpoint(endpoint, event, {
      ...options,
      clock: new FakeClock({ now: NOW.getTime() + 60_000 }),
    });

    expect(first.verdict).toEqual({ kind: "delivered", response: "HTTP 204" });
    expect(again.verdict.kind).toBe("delivered");
    expect(receiver.deliveries.map((d) => d.verified)).toEqual([true, true]);
    expect(receiver.events).toHaveLength(1);
    expect(receiver.duplicates).toEqual([event.id]);
    expect(receiver.events[0]).toEqual(JSON.parse(JSON.stringify(event)));
  });

  it("signed with another secret is refused by the receiver, and that is not retried forever", async () => {
    const receiver = await track(
      startFakeWebhookReceiver({ secret: SECRET, nowSeconds: () => NOW_SECONDS }),
    );
    const other = `whsec_${Buffer.alloc(32, 4).toString("base64")}`;
    const endpoint: Endpoint = {
      name: "firma",
      channel: "webhook",
      url: receiver.url,
      secrets: [other],
    };

    const result = await deliverToEndpoint(endpoint, hostileEvent(), options);

    expect(receiver.deliveries[0]?.refusal).toBe("bad signature");
    expect(result.verdict).toEqual({ kind: "rejected", error: "HTTP 401: bad signature" });
  });
});

describe("chat messages with hostile court text", () => {
  it("Slack: no mention, no link but ours, the text escaped", async () => {
    const slack = await track(startFakeSlack());

    const result = await deliverToEndpoint(
      { name: "equipe", channel: "slack", url: slack.url },
      hostileEvent(),
      options,
    );

    expect(result.verdict.kind).toBe("delivered");
    const message = slack.messages[0];
    expect(message?.mentions).toEqual([]);
    expect(message?.links.map((l) => l.url)).toEqual([expect.stringMatching(/^https:\/\/pje/)]);
    expect(message?.autoLinks).toEqual([]);
    expect(message?.emphasis).toEqual([]);
    expect(message?.text).toContain("&lt;!channel&gt;");
    expect(message?.text).toContain("∗urgente∗ ＿leia＿ ∼x∼ ˋyˋ ∶rotating＿light:");
    expect(message?.text).not.toContain("\u202e");
  });

  it("Slack: an e-SAJ link (TJSP) arrives with &amp; and opens the case, byte for byte", async () => {
    const slack = await track(startFakeSlack());
    const alert = sampleAlert({ caseNumber: "1053565-57.2024.8.26.0053", court: "tjsp" });
    alert.provenance = { ...alert.provenance, index: "api_publica_tjsp" };

    await deliverToEndpoint(
      { name: "equipe", channel: "slack", url: slack.url },
      movementEvent(alert, { id: eventId("alert:tjsp") }),
      options,
    );

    const text = slack.messages[0]?.text ?? "";
    expect(text.split("\n").at(-1)).toBe(
      "<https://esaj.tjsp.jus.br/cpopg/search.do?conversationId=&amp;cbPesquisa=NUMPROC" +
        "&amp;numeroDigitoAnoUnificado=1053565-57.2024&amp;foroNumeroUnificado=0053" +
        "&amp;dadosConsulta.valorConsultaNuUnificado=1053565-57.2024.8.26.0053" +
        "&amp;dadosConsulta.valorConsultaNuUnificado=UNIFICADO&amp;dadosConsulta.valorConsulta=" +
        "&amp;dadosConsulta.tipoNuProcesso=UNIFICADO|Abrir no tribunal>",
    );
    const opened = new URL(slack.messages[0]?.links[0]?.url ?? "");
    expect(opened.searchParams.get("foroNumeroUnificado")).toBe("0053");
    expect(opened.searchParams.get("numeroDigitoAnoUnificado")).toBe("1053565-57.2024");
    expect(opened.searchParams.getAll("dadosConsulta.valorConsultaNuUnificado")).toEqual([
      "1053565-57.2024.8.26.0053",
      "UNIFICADO",
    ]);
    expect(text).not.toContain("%26");
  });

  it("Teams: no Markdown link from the court's text, one button to the court", async () => {
    const teams = await track(startFakeTeams());

    const result = await deliverToEndpoint(
      { name: "equipe", channel: "teams", url: teams.url },
      hostileEvent(),
      options,
    );

    expect(result.verdict).toEqual({ kind: "delivered", response: "HTTP 202" });
    expect(teams.cards[0]?.links).toEqual([]);
    expect(teams.cards[0]?.autoLinks).toEqual([]);
    expect(teams.cards[0]?.buttons).toHaveLength(1);
    expect(teams.cards[0]?.texts.join("\n")).toContain("\\[clique\\]\\(https:∕∕evil․example/x\\)");
  });

  it("Telegram: parsed by Telegram's HTML rules, the court's tags shown as text", async () => {
    const telegram = await track(startFakeTelegram());
    const endpoint: Endpoint = {
      name: "plantao",
      channel: "telegram",
      apiBase: telegram.apiBase,
      token: telegram.token,
      chatId: "-1001234",
    };

    const result = await deliverToEndpoint(endpoint, hostileEvent(), options);

    expect(result.verdict.kind).toBe("delivered");
    const message = telegram.messages[0];
    expect(message?.chatId).toBe("-1001234");
    expect(message?.links).toHaveLength(1);
    expect(message?.links[0]).toMatch(/^https:\/\/pje/);
    expect(message?.autoEntities).toEqual([]);
    expect(message?.shown).toContain('<a href="https:∕∕evil․example">x</a>');
    expect(message?.shown).toContain("*urgente* _leia_");
  });

  it("a correction's hostile text: no mention, link, tag or Markdown in any of the three", async () => {
    const [slack, teams, telegram] = await Promise.all([
      track(startFakeSlack()),
      track(startFakeTeams()),
      track(startFakeTelegram()),
    ]);
    const before = sampleMovement({ name: `Audiência ${HOSTILE}` });
    const after = sampleMovement({ name: `Audiência ${HOSTILE}`, dateTime: "2025-10-09T10:30:00" });
    const event = correctionNoticeEvent(
      {
        notice: "case.correction",
        content: sampleAlert({
          label: `Silva ${HOSTILE}`,
          newMovements: [],
          corrections: [{ instance: "G1", kind: "redated", before, after }],
        }),
      },
      { id: eventId("correction:1") },
    );
    const chats: Endpoint[] = [
      { name: "s", channel: "slack", url: slack.url },
      { name: "t", channel: "teams", url: teams.url },
      {
        name: "g",
        channel: "telegram",
        apiBase: telegram.apiBase,
        token: telegram.token,
        chatId: "1",
      },
    ];

    const results = await Promise.all(chats.map((c) => deliverToEndpoint(c, event, options)));

    expect(results.map((r) => r.verdict.kind)).toEqual(["delivered", "delivered", "delivered"]);
    expect(slack.messages[0]?.text).toContain("Correção");
    expect(slack.messages[0]?.mentions).toEqual([]);
    expect(slack.messages[0]?.links.map((l) => l.url)).toEqual([
      expect.stringMatching(/^https:\/\/pje/),
    ]);
    expect(slack.messages[0]?.autoLinks).toEqual([]);
    expect(slack.messages[0]?.emphasis).toEqual([]);
    expect(teams.cards[0]?.links).toEqual([]);
    expect(teams.cards[0]?.autoLinks).toEqual([]);
    expect(telegram.messages[0]?.links).toEqual([expect.stringMatching(/^https:\/\/pje/)]);
    expect(telegram.messages[0]?.autoEntities).toEqual([]);
    expect(telegram.messages[0]?.shown).toContain('<a href="https:∕∕evil․example">x</a>');
  });

  it("a publication says the deadline estimate and cuts a long text, linking to the rest", async () => {
    const telegram = await track(startFakeTelegram());
    const event = publicationEvent(
      samplePublication({ text: `Intimação. ${"texto longo ".repeat(500)}` }),
      {
        id: eventId("pub:1"),
      },
    );

    await deliverToEndpoint(
      {
        name: "p",
        channel: "telegram",
        apiBase: telegram.apiBase,
        token: telegram.token,
        chatId: "1",
      },
      event,
      options,
    );

    const shown = telegram.messages[0]?.shown ?? "";
    expect(shown).toContain("prazo começa a contar em 06/10/2025");
    expect(shown).toContain("Estimativa");
    expect(shown.length).toBeLessThan(1200);
    expect(shown).toContain("…");
    expect(telegram.messages[0]?.links).toEqual(["https://comunica.pje.jus.br/certidao/449012345"]);
  });

  it("a chat digest: the alerts due together in one message", async () => {
    const teams = await track(startFakeTeams());
    const events = [
      movementEvent(sampleAlert(), { id: eventId("digest:a") }),
      publicationEvent(samplePublication(), { id: eventId("digest:b") }),
    ];

    const result = await deliverToEndpoint(
      { name: "e", channel: "teams", url: teams.url },
      events,
      options,
    );

    expect(result.verdict.kind).toBe("delivered");
    expect(teams.requests).toHaveLength(1);
    expect(teams.cards[0]?.texts[0]).toContain("Resumo do monitor: 2 alertas");
    expect(teams.cards[0]?.texts).toHaveLength(3);
  });

  it("a wrong Telegram token: 401, never retried forever, the token nowhere in the error", async () => {
    const telegram = await track(startFakeTelegram());
    const token = "999999:wrong-token-value";

    const result = await deliverToEndpoint(
      { name: "p", channel: "telegram", apiBase: telegram.apiBase, token, chatId: "1" },
      hostileEvent(),
      options,
    );

    expect(result.verdict.kind).toBe("rejected");
    expect(JSON.stringify(result)).not.toContain(token);
    expect(JSON.stringify(result)).toContain("Unauthorized");
  });
});

describe("what an endpoint answers", () => {
  async function answered(script: Parameters<EndpointFake["script"]["push"]>[0], limits = LIMITS) {
    const fake = await track(startEndpointFake(() => ({ status: 200 })));
    fake.script.push(script);
    const result = await deliverToEndpoint(
      { name: "s", channel: "slack", url: `${fake.origin}/hook` },
      hostileEvent(),
      { ...options, limits },
    );
    return { fake, result };
  }

  it("410 disables, other 4xx are rejected, 429 and 5xx pass with Retry-After kept", async () => {
    expect((await answered({ status: 410, body: "channel_is_archived" })).result.verdict.kind).toBe(
      "gone",
    );
    expect((await answered({ status: 400, body: "invalid_payload" })).result.verdict.kind).toBe(
      "rejected",
    );
    expect(
      (await answered({ status: 429, headers: { "retry-after": "30" } })).result.verdict,
    ).toEqual({
      kind: "retry",
      error: "HTTP 429",
      retryAfterSeconds: 30,
    });
    expect((await answered({ status: 503 })).result.verdict.kind).toBe("retry");
  });

  it("a redirect is not followed, to another host or at all", async () => {
    const elsewhere = await track(startFakeSlack());

    const { result } = await answered({ status: 302, headers: { location: elsewhere.url } });

    expect(result.verdict.kind).toBe("rejected");
    expect(elsewhere.requests).toHaveLength(0);
  });

  it("an endpoint that never answers times out and is retried later", async () => {
    const { result } = await answered("hang", { ...LIMITS, timeoutMs: 150 });

    expect(result.outcome).toMatchObject({ kind: "failed", failure: "timeout" });
    expect(result.verdict.kind).toBe("retry");
  });

  it("a huge answer is read only up to the limit, and shown as one short line", async () => {
    const { result } = await answered(
      { status: 500, body: `<html>\n${"x".repeat(2_000_000)}` },
      { ...LIMITS, maxResponseBytes: 4096 },
    );

    expect(result.outcome.kind).toBe("answered");
    if (result.outcome.kind === "answered") {
      expect(result.outcome.body.length).toBeLessThanOrEqual(300);
      expect(result.outcome.body).not.toContain("\n");
    }
  });
});

describe("addresses that are not the firm's endpoint (SSRF)", () => {
  function resolver(address: string, family: 4 | 6 = 4) {
    const calls: string[] = [];
    const resolve = (
      hostname: string,
      _options: unknown,
      callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
    ): void => {
      calls.push(hostname);
      callback(null, [{ address, family }]);
    };
    return { calls, resolve };
  }

  it.each([
    ["http://hooks.example.com/x", /plain http/],
    ["https://169.254.169.254/latest/meta-data", /linkLocal/],
    ["https://[::ffff:10.0.0.1]/x", /private/],
    ["ftp://hooks.example.com/x", /https/],
  ])("%s is refused before any connection", async (url, reason) => {
    const result = await deliverToEndpoint(
      { name: "x", channel: "slack", url },
      hostileEvent(),
      options,
    );

    expect(result.outcome).toMatchObject({
      kind: "failed",
      failure: "url",
      message: expect.stringMatching(reason),
    });
    expect(result.verdict.kind).toBe("rejected");
  });

  it.each([
    ["10.1.2.3", 4, /private/],
    ["127.0.0.1", 4, /loopback/],
    ["fd00::1", 6, /uniqueLocal/],
    ["100.64.0.1", 4, /carrierGradeNat/],
  ] as const)(
    "a public name resolving to %s is refused in the lookup the socket connects with",
    async (address, family, reason) => {
      const dns = resolver(address, family);

      const result = await deliverToEndpoint(
        { name: "x", channel: "slack", url: "https://hooks.example.com/services/T/B/secretpath" },
        hostileEvent(),
        { ...options, resolve: dns.resolve },
      );

      expect(dns.calls).toEqual(["hooks.example.com"]);
      expect(result.outcome).toMatchObject({
        kind: "failed",
        failure: "blocked",
        message: expect.stringMatching(reason),
      });
      expect(JSON.stringify(result)).not.toContain("secretpath");
    },
  );

  it("localhost named in the URL reaches the loopback receiver over plain http", async () => {
    const slack = await track(startFakeSlack());
    const dns = resolver("127.0.0.1");

    const result = await deliverToEndpoint(
      { name: "x", channel: "slack", url: slack.url.replace("127.0.0.1", "localhost") },
      hostileEvent(),
      { ...options, resolve: dns.resolve },
    );

    expect(dns.calls).toEqual(["localhost"]);
    expect(result.verdict.kind).toBe("delivered");
  });
});
