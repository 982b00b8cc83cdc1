import type { ChatMessage } from "./chat-message.js";

/*
 * A Microsoft Teams message with one Adaptive Card, the body both a Workflows "When a Teams
 * webhook request is received" flow and the older incoming webhooks take. TextBlock text is
 * Markdown: every character Markdown could read as emphasis, a link, a heading, a list or HTML
 * is backslash-escaped, so court text shows as written and never becomes a link. The card's
 * button opens our link.
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
    text: escapeTeams(line),
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
          actions:
            message.link === null
              ? []
              : [{ type: "Action.OpenUrl", title: message.link.label, url: message.link.url }],
        },
      },
    ],
  };
}
