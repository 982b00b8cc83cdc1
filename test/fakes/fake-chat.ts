import {
  type EndpointFake,
  json,
  type ReceivedRequest,
  startEndpointFake,
} from "./endpoint-fake.js";

/**
 * Loopback stand-ins for the three chat platforms' inbound APIs, each checking a body the way
 * the platform does and reading it the way the platform would show it, so tests can ask what a
 * person would see: whether court text became a link, a mention or a tag.
 *
 * - Slack incoming webhook (POST /services/T.../B.../secret): JSON with a non-empty `text`, else
 *   400 invalid_payload; another path 404 no_service; answers 200 "ok". `mentions` are the
 *   <!...>, <@...> and <#...> sequences Slack would act on; `links` its <url|label> links;
 *   `autoLinks` what its server would link by itself in the rest (see `autoDetected`);
 *   `emphasis` the *bold*, _italic_, ~strike~, `code` and :emoji: spans it would format.
 * - Teams (a Workflows webhook trigger, POST .../invoke?sig=...): a "message" with one Adaptive
 *   Card attachment made of TextBlocks, else 400; answers 202. `links` are the Markdown links
 *   ([label](url) not escaped) its TextBlocks would show; `buttons` its OpenUrl actions;
 *   `autoLinks` the bare addresses a client would link in the text shown.
 * - Telegram Bot API (POST /bot<token>/sendMessage): a wrong token gets 401 Unauthorized; HTML
 *   with a tag or entity Telegram does not know, or over 4096 characters once entities are
 *   read, gets 400 as Telegram answers it; else {"ok":true,"result":<the sent Message>}, its
 *   message_id counting from 100. `links` are its <a href> targets,
 *   `shown` the text a person reads; `autoEntities` the url, email, mention, hashtag, cashtag and
 *   bot_command entities Telegram would find in it by itself.
 */

/**
 * What a platform's own detector would turn into a link, a mention or a tag in text shown as
 * plain: URLs with a scheme, host names (www.x, x.com.br), IPv4 addresses, e-mail addresses and
 * @handles, #hashtags, $CASHTAGS and /commands. Broader than any one platform's, on purpose.
 */
export function autoDetected(text: string): string[] {
  const patterns = [
    /\b[a-z][a-z0-9+.-]*:\/\/\S+/gi,
    /\b(?:[a-z0-9-]+\.)+[a-z]{2,}\b/gi,
    /\b\d{1,3}(?:\.\d{1,3}){3}\b/g,
    /@[\w.]+/g,
    /#\w+/g,
    /\$[A-Za-z]{1,8}\b/g,
    /(?:^|\s)\/[a-z]\w*/gi,
  ];
  return patterns.flatMap((p) => [...text.matchAll(p)].map((m) => m[0].trim()));
}

/** Slack's emphasis and emoji codes in mrkdwn text. */
function slackEmphasis(text: string): string[] {
  return [
    ...text.matchAll(
      /(?<![\w*])\*[^*\n]+\*(?![\w*])|(?<!\w)_[^_\n]+_(?!\w)|~[^~\n]+~|`[^`\n]+`|:[a-z0-9_+-]+:/gi,
    ),
  ].map((m) => m[0]);
}

export interface SlackMessage {
  text: string;
  mentions: string[];
  links: Array<{ url: string; label: string }>;
  autoLinks: string[];
  emphasis: string[];
}

export interface FakeSlack extends EndpointFake {
  url: string;
  messages: SlackMessage[];
}

const SLACK_PATH = "/services/T0001/B0001/slacksecretpath123";

export async function startFakeSlack(): Promise<FakeSlack> {
  const fake = (await startEndpointFake((request) => {
    if (request.path !== SLACK_PATH) return { status: 404, body: "no_service" };
    const body = parse(request);
    const text = (body as { text?: unknown } | null)?.text;
    if (typeof text !== "string" || text.trim() === "")
      return { status: 400, body: "invalid_payload" };
    const plain = text.replace(/<[^>]*>/g, " ");
    slack.messages.push({
      text,
      mentions: [...text.matchAll(/<([!@#][^>]*)>/g)].map((m) => m[1] ?? ""),
      links: [...text.matchAll(/<(https?:[^|>]*)\|([^>]*)>/g)].map((m) => ({
        url: (m[1] ?? "").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&"),
        label: m[2] ?? "",
      })),
      autoLinks: autoDetected(
        plain.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&"),
      ),
      emphasis: slackEmphasis(plain.split("\n").slice(1).join("\n")),
    });
    return { status: 200, body: "ok" };
  })) as FakeSlack;
  const slack = fake;
  slack.url = `${fake.origin}${SLACK_PATH}`;
  slack.messages = [];
  return slack;
}

function parse(request: ReceivedRequest): unknown {
  if (!String(request.headers["content-type"] ?? "").startsWith("application/json")) return null;
  try {
    return JSON.parse(request.body);
  } catch {
    return null;
  }
}

export interface TeamsCard {
  texts: string[];
  autoLinks: string[];
  links: Array<{ label: string; url: string }>;
  buttons: Array<{ title: string; url: string }>;
}

export interface FakeTeams extends EndpointFake {
  url: string;
  cards: TeamsCard[];
}

const TEAMS_PATH = "/workflows/abc/triggers/manual/paths/invoke?api-version=1&sig=teamssig123";

/** Markdown links a TextBlock would render: brackets and parentheses not escaped by a backslash. */
function markdownLinks(text: string): Array<{ label: string; url: string }> {
  return [...text.matchAll(/(?<!\\)\[((?:[^\]\\]|\\.)*)(?<!\\)\]\((?<!\\)([^)\s]+)\)/g)].map(
    (m) => ({
      label: m[1] ?? "",
      url: m[2] ?? "",
    }),
  );
}

export async function startFakeTeams(): Promise<FakeTeams> {
  const fake = (await startEndpointFake((request) => {
    if (request.path !== TEAMS_PATH) return { status: 404, body: "not found" };
    const body = parse(request) as {
      type?: unknown;
      attachments?: Array<{ contentType?: unknown; content?: Record<string, unknown> }>;
    } | null;
    const card = body?.attachments?.[0]?.content;
    if (
      body?.type !== "message" ||
      body.attachments?.length !== 1 ||
      body.attachments[0]?.contentType !== "application/vnd.microsoft.card.adaptive" ||
      card?.type !== "AdaptiveCard" ||
      !Array.isArray(card.body)
    ) {
      return json(400, { error: { code: "InvalidRequestContent" } });
    }
    const blocks = card.body as Array<{ type?: unknown; text?: unknown }>;
    if (blocks.some((b) => b.type !== "TextBlock" || typeof b.text !== "string")) {
      return json(400, { error: { code: "InvalidRequestContent" } });
    }
    const texts = blocks.map((b) => String(b.text));
    teams.cards.push({
      texts,
      autoLinks: autoDetected(
        texts
          .join("\n")
          .replace(/(?<!\\)\[(?:[^\]\\]|\\.)*\]\([^)\s]+\)/g, " ")
          .replace(/\\(.)/g, "$1"),
      ),
      links: texts.flatMap(markdownLinks),
      buttons: ((card.actions ?? []) as Array<{ title: string; url: string }>).map((a) => ({
        title: a.title,
        url: a.url,
      })),
    });
    return { status: 202 };
  })) as FakeTeams;
  const teams = fake;
  teams.url = `${fake.origin}${TEAMS_PATH}`;
  teams.cards = [];
  return teams;
}

export interface TelegramMessage {
  chatId: string;
  /** The message_id the fake gave it (the answer's result.message_id): what a reply names. */
  messageId: number;
  text: string;
  /** What a person reads: tags dropped, entities read. */
  shown: string;
  links: string[];
  autoEntities: string[];
}

export interface FakeTelegram extends EndpointFake {
  /** The API base to configure, like https://api.telegram.org. */
  apiBase: string;
  token: string;
  messages: TelegramMessage[];
  /** What the last setWebhook set; null: none. */
  webhook: { url: string; secretToken: string; allowedUpdates: unknown } | null;
}

/**
 * setWebhook (core.telegram.org/bots/api#setwebhook): an HTTPS url, a secret_token of 1-256 of
 * A-Z a-z 0-9 _ -; answers {"ok":true,"result":true,"description":"Webhook was set"}.
 */
function setWebhook(telegram: FakeTelegram, body: unknown) {
  const b = body as { url?: unknown; secret_token?: unknown; allowed_updates?: unknown } | null;
  const bad = (description: string) =>
    json(400, { ok: false, error_code: 400, description: `Bad Request: ${description}` });
  if (typeof b?.url !== "string" || !b.url.startsWith("https://")) {
    return bad("bad webhook: An HTTPS URL must be provided for webhook");
  }
  if (typeof b.secret_token !== "string" || !/^[A-Za-z0-9_-]{1,256}$/.test(b.secret_token)) {
    return bad("secret token contains unallowed characters");
  }
  telegram.webhook = { url: b.url, secretToken: b.secret_token, allowedUpdates: b.allowed_updates };
  return json(200, { ok: true, result: true, description: "Webhook was set" });
}

const TELEGRAM_TAGS = new Set([
  "b",
  "strong",
  "i",
  "em",
  "u",
  "ins",
  "s",
  "strike",
  "del",
  "a",
  "code",
  "pre",
  "tg-spoiler",
  "span",
  "blockquote",
  "tg-emoji",
]);

/** Telegram's HTML reading: known tags only, the four named entities and numeric ones. */
function readTelegramHtml(
  text: string,
): { ok: true; shown: string; links: string[] } | { ok: false; error: string } {
  const links: string[] = [];
  for (const m of text.matchAll(/<\/?([a-zA-Z-]+)([^>]*)>/g)) {
    const tag = (m[1] ?? "").toLowerCase();
    if (!TELEGRAM_TAGS.has(tag)) return { ok: false, error: `Unsupported start tag "${tag}"` };
    const href = /href="([^"]*)"/.exec(m[2] ?? "");
    if (tag === "a" && href !== null) links.push(href[1] ?? "");
  }
  if (/<(?![a-zA-Z/])/.test(text)) return { ok: false, error: "Unexpected <" };
  for (const m of text.matchAll(/&([^;\s]*);?/g)) {
    const name = m[1] ?? "";
    if (!/^(lt|gt|amp|quot|#\d+|#x[0-9a-fA-F]+)$/.test(name) || !m[0].endsWith(";")) {
      return { ok: false, error: `Unsupported entity "${m[0]}"` };
    }
  }
  const shown = text
    .replace(/<[^>]*>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
  return { ok: true, shown, links };
}

export async function startFakeTelegram(
  token = "123456:telegram-bot-token",
): Promise<FakeTelegram> {
  const fake = (await startEndpointFake((request) => {
    const hook = /^\/bot([^/]+)\/setWebhook$/.exec(request.path);
    if (hook !== null && hook[1] === token) return setWebhook(telegram, parse(request));
    const match = /^\/bot([^/]+)\/sendMessage$/.exec(request.path);
    if (match === null || match[1] !== token) {
      return json(401, { ok: false, error_code: 401, description: "Unauthorized" });
    }
    const body = parse(request) as {
      chat_id?: unknown;
      text?: unknown;
      parse_mode?: unknown;
    } | null;
    if (body === null || typeof body.text !== "string" || body.text === "") {
      return json(400, {
        ok: false,
        error_code: 400,
        description: "Bad Request: message text is empty",
      });
    }
    if (body.parse_mode !== "HTML") {
      return json(400, {
        ok: false,
        error_code: 400,
        description: "Bad Request: expected parse_mode HTML",
      });
    }
    const read = readTelegramHtml(body.text);
    if (!read.ok) {
      return json(400, {
        ok: false,
        error_code: 400,
        description: `Bad Request: can't parse entities: ${read.error}`,
      });
    }
    if (Array.from(read.shown).length > 4096) {
      return json(400, {
        ok: false,
        error_code: 400,
        description: "Bad Request: message is too long",
      });
    }
    const messageId = 100 + telegram.messages.length;
    telegram.messages.push({
      chatId: String(body.chat_id),
      messageId,
      text: body.text,
      shown: read.shown,
      links: read.links,
      autoEntities: autoDetected(read.shown),
    });
    // The sent Message, as sendMessage answers (core.telegram.org/bots/api#sendmessage).
    const chatId = /^-?\d+$/.test(String(body.chat_id))
      ? Number(body.chat_id)
      : String(body.chat_id);
    return json(200, {
      ok: true,
      result: {
        message_id: messageId,
        date: 1772456400,
        chat: { id: chatId, type: "private" },
        text: read.shown,
      },
    });
  })) as FakeTelegram;
  const telegram = fake;
  telegram.apiBase = fake.origin;
  telegram.token = token;
  telegram.messages = [];
  telegram.webhook = null;
  return telegram;
}
