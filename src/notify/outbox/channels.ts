import type { ChatMessage } from "../render/chat-message.js";
import { renderSlack } from "../render/slack-message.js";
import { renderTeams } from "../render/teams-message.js";
import { renderTelegram } from "../render/telegram-message.js";
import { renderWhatsApp } from "../render/whatsapp-message.js";
import type { Endpoint, Channel as EndpointTransportChannel } from "../transport/endpoint.js";

/*
 * Every channel an outbox row can be addressed to, in the order one delivery drains them
 * (monitor/report/deliver.ts), and what sends its rows: e-mail through the mail transport
 * (drain.ts); any other channel as one POST per row (or per chat digest) to its endpoint
 * (endpoint-drain.ts), whose body is the signed event itself for a webhook and, for a chat, the
 * message in that chat's own format. A new channel is a row here, with its Endpoint
 * variant (notify/transport/endpoint.ts) and its configuration (config/config-schema.ts).
 */

type EndpointOf<C extends EndpointTransportChannel> = Extract<Endpoint, { channel: C }>;

/** A chat's message body: the alert (or digest) in its format, for that endpoint. */
type ChatFormat<C extends EndpointTransportChannel> = (
  message: ChatMessage,
  endpoint: EndpointOf<C>,
) => unknown;

const CHANNEL_TABLE = {
  email: { sender: "mail" },
  webhook: { sender: "endpoint", body: "signed event" },
  slack: { sender: "endpoint", body: ((message) => renderSlack(message)) as ChatFormat<"slack"> },
  teams: { sender: "endpoint", body: ((message) => renderTeams(message)) as ChatFormat<"teams"> },
  telegram: {
    sender: "endpoint",
    body: ((message, endpoint) =>
      renderTelegram(message, endpoint.chatId)) as ChatFormat<"telegram">,
  },
  whatsapp: {
    sender: "endpoint",
    body: ((message, endpoint) =>
      // endpoint-drain.ts never sends a whatsapp row without a number (a per-watcher row has its own).
      renderWhatsApp(
        message,
        endpoint.to ?? "",
        endpoint.template,
        endpoint.ackTemplate ?? null,
      )) as ChatFormat<"whatsapp">,
  },
} as const;

export type Channel = keyof typeof CHANNEL_TABLE;

/** Every channel, in drain order: e-mail first, then each endpoint channel. */
export const CHANNELS = Object.keys(CHANNEL_TABLE) as readonly Channel[];

export type EndpointChannel = {
  [C in Channel]: (typeof CHANNEL_TABLE)[C]["sender"] extends "endpoint" ? C : never;
}[Channel];

/** The channels sent as POSTs to a configured endpoint. */
export const ENDPOINT_CHANNELS = CHANNELS.filter(
  (c): c is EndpointChannel => CHANNEL_TABLE[c].sender === "endpoint",
);

// The endpoint channels here are exactly those an Endpoint can be (notify/transport/endpoint.ts).
const SAME_ENDPOINT_CHANNELS: [EndpointChannel, EndpointTransportChannel] extends [
  EndpointTransportChannel,
  EndpointChannel,
]
  ? true
  : never = true;
void SAME_ENDPOINT_CHANNELS;

export function isChannel(value: string): value is Channel {
  return (CHANNELS as readonly string[]).includes(value);
}

/** What sends a channel's rows. */
export function senderOf(channel: Channel): "mail" | "endpoint" {
  return CHANNEL_TABLE[channel].sender;
}

/** A chat endpoint's body for one message (or digest), in its channel's format. */
export function chatBody(
  endpoint: Exclude<Endpoint, { channel: "webhook" }>,
  message: ChatMessage,
): unknown {
  const format = CHANNEL_TABLE[endpoint.channel].body as ChatFormat<typeof endpoint.channel>;
  return (format as (m: ChatMessage, e: typeof endpoint) => unknown)(message, endpoint);
}
