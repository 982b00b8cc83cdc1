import type { ChatLine, ChatLink, ChatMessage } from "./chat-message.js";

/*
 * A Slack incoming-webhook body. Slack's mrkdwn gives meaning to exactly three characters, which
 * it asks senders to escape (&, <, >) as &amp;, &lt;, &gt;, in text and in a link's URL alike
 * (api.slack.com, "Formatting text for app surfaces", Escaping text): escaped, court text can
 * neither open a link nor ping a channel (<!channel>, <@U123>). Links are ours (court pages,
 * DJEN), written <url|label>. mrkdwn has no escape for its emphasis (*bold*, _italic_, ~strike~,
 * `code`) nor for emoji codes (:name:), so in court text those characters become look-alikes;
 * links and handles Slack would find by itself are already inert (`chat-text.ts`).
 */

export interface SlackBody {
  text: string;
  unfurl_links: false;
  unfurl_media: false;
  /**
   * Only for an urgent alert that asks to be acknowledged: the same text as a section, then a
   * link button to its page (Block Kit; `text` stays as the notification's fallback).
   */
  blocks?: Array<
    | { type: "section"; text: { type: "mrkdwn"; text: string } }
    | {
        type: "actions";
        elements: Array<{
          type: "button";
          text: { type: "plain_text"; text: string };
          url: string;
          style: "primary";
        }>;
      }
  >;
}

export function escapeSlack(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

const EMPHASIS: Readonly<Record<string, string>> = {
  "*": "\u2217", // ∗ asterisk operator
  _: "\uff3f", // ＿ fullwidth low line
  "~": "\u223c", // ∼ tilde operator
  "`": "\u02cb", // ˋ modifier letter grave accent
};

/** Text shown as written: escaped, no emphasis, no :emoji: code. */
function slackText(text: string): string {
  return escapeSlack(text)
    .replace(/:(?=[\p{L}\p{N}_+-]*\p{L}[\p{L}\p{N}_+-]*:)/gu, "\u2236")
    .replace(/[*_~`]/g, (c) => EMPHASIS[c] ?? c);
}

/**
 * A URL inside <url|label>: Slack's three characters as its entities (so e-SAJ's
 * `?a=1&b=2` arrives as `?a=1&amp;b=2` and Slack opens `?a=1&b=2`), and the two that would end
 * the URL part, `|` and a space, percent-encoded as the URL would have them.
 */
export function slackUrl(url: string): string {
  return escapeSlack(url.replace(/[| ]/g, (c) => encodeURIComponent(c)));
}

function slackLink(link: ChatLink): string {
  return `<${slackUrl(link.url)}|${slackText(link.label).replace(/\|/g, "¦")}>`;
}

function slackLine(line: ChatLine): string {
  return typeof line === "string"
    ? slackText(line)
    : `${slackText(line.text)} · ${slackLink(line.link)}`;
}

export function renderSlack(message: ChatMessage): SlackBody {
  const lines = [`*${slackText(message.title)}*`, ...message.lines.map(slackLine)];
  if (message.link !== null) lines.push(slackLink(message.link));
  const text = lines.join("\n");
  const body: SlackBody = { text, unfurl_links: false, unfurl_media: false };
  if (message.ack == null) return body;
  return {
    ...body,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text } },
      {
        type: "actions",
        elements: [
          {
            type: "button",
            text: { type: "plain_text", text: message.ack.label },
            url: message.ack.url,
            style: "primary",
          },
        ],
      },
    ],
  };
}
