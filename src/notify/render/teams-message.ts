import type { ChatLine, ChatMessage } from "./chat-message.js";

/*
 * A Microsoft Teams message with one Adaptive Card, the body both a Workflows "When a Teams
 * webhook request is received" flow and the older incoming webhooks take. TextBlock text is
 * Markdown: every character Markdown could read as emphasis, a link, a heading, a list or HTML
 * is backslash-escaped, so court text shows as written and never becomes a link (nor a bare
 * address Teams would link by itself: `chat-text.ts`). The card's button opens our link; a
 * digest's line links to its alert in Markdown, the URL's parentheses and spaces percent-encoded.
 */

export interface TeamsBody {
  type: "message";
  attachments: [
    {
      contentType: "application/vnd.microsoft.card.adaptive";
      contentUrl: null;
      content: AdaptiveCard;
    },
  ];
}

interface TextBlock {
  type: "TextBlock";
  text: string;
  wrap: true;
  weight?: "Bolder";
  size?: "Medium";
  color?: "Attention";
  spacing?: "Small";
}

interface AdaptiveCard {
  $schema: "http://adaptivecards.io/schemas/adaptive-card.json";
  type: "AdaptiveCard";
  version: "1.4";
  body: TextBlock[];
  actions: Array<{ type: "Action.OpenUrl"; title: string; url: string }>;
}

const MARKDOWN = /[\\`*_{}[\]()#+\-.!|~<>&]/g;

export function escapeTeams(text: string): string {
  return text.replace(MARKDOWN, (c) => `\\${c}`);
}

function teamsLine(line: ChatLine): string {
  if (typeof line === "string") return escapeTeams(line);
  const url = line.link.url.replace(
    /[()<> ]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${escapeTeams(line.text)} · [${escapeTeams(line.link.label)}](${url})`;
}

export function renderTeams(message: ChatMessage): TeamsBody {
  const title: TextBlock = {
    type: "TextBlock",
    text: escapeTeams(message.title),
    wrap: true,
    weight: "Bolder",
    size: "Medium",
    ...(message.urgent ? { color: "Attention" as const } : {}),
  };
  const lines: TextBlock[] = message.lines.map((line) => ({
    type: "TextBlock",
    text: teamsLine(line),
    wrap: true,
    spacing: "Small",
  }));
  return {
    type: "message",
    attachments: [
      {
        contentType: "application/vnd.microsoft.card.adaptive",
        contentUrl: null,
        content: {
          $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
          type: "AdaptiveCard",
          version: "1.4",
          body: [title, ...lines],
          actions: [message.ack ?? null, message.link]
            .filter((l): l is NonNullable<typeof l> => l != null)
            .map((l) => ({ type: "Action.OpenUrl" as const, title: l.label, url: l.url })),
        },
      },
    ],
  };
}
