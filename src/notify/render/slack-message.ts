import type { ChatMessage } from "./chat-message.js";

/*
 * A Slack incoming-webhook body. Slack's mrkdwn gives meaning to exactly three characters, which
 * it asks senders to escape (&, <, >): escaped, court text can neither open a link nor ping a
 * channel (<!channel>, <@U123>). Links are ours (court pages, DJEN), written <url|label>.
 */

export interface SlackBody {
  text: string;
  unfurl_links: false;
  unfurl_media: false;
}

export function escapeSlack(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A URL inside <url|label>: the characters that would end it are percent-encoded. */
function slackUrl(url: string): string {
  return url.replace(/[<>|& ]/g, (c) => encodeURIComponent(c));
}

export function renderSlack(message: ChatMessage): SlackBody {
  const title = escapeSlack(message.title).replace(/\*/g, "∗");
  const lines = [`*${title}*`, ...message.lines.map(escapeSlack)];
  if (message.link !== null) {
    lines.push(
      `<${slackUrl(message.link.url)}|${escapeSlack(message.link.label).replace(/\|/g, "¦")}>`,
    );
  }
  return { text: lines.join("\n"), unfurl_links: false, unfurl_media: false };
}
