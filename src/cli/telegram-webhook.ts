import { repliesUrl, setWebhookRequest, setWebhookResult } from "../ack/telegram-webhook.js";
import { postToEndpoint } from "../notify/transport/http-endpoint.js";
import { terminalText } from "../text.js";
import { type CliIo, EXIT, programOf } from "./command.js";
import type { Runtime } from "./runtime.js";

/*
 * `datajud-monitor endpoint telegram-webhook NAME`: points the telegram endpoint's bot at the
 * daemon's reply webhook (docs/channels.md, Replies), with TELEGRAM_WEBHOOK_SECRET as its secret
 * token, once per bot. Needs acknowledgement links on (their public base URL is where Telegram
 * posts) and the bot's token in this process.
 */

export async function setTelegramWebhook(
  runtime: Runtime,
  name: string,
  io: CliIo,
): Promise<number> {
  const program = `${programOf(io)} endpoint`;
  const shown = terminalText(name);
  const settings = runtime.config.acknowledgement;
  const endpoint = runtime.config.notify.endpoints.find(
    (e) => e.name === name && e.channel === "telegram",
  );
  const missing =
    settings.publicBaseUrl === null || settings.secret === null
      ? "acknowledgement links are off: set acknowledgement.publicBaseUrl and ACK_SECRET"
      : settings.telegramSecret === null
        ? "TELEGRAM_WEBHOOK_SECRET is not set (32-256 of A-Z a-z 0-9 _ -: openssl rand -hex 32)"
        : endpoint === undefined
          ? `"${shown}" is not a telegram endpoint this process can send to (notify.endpoints, its token variable)`
          : null;
  if (missing !== null || endpoint?.channel !== "telegram" || settings.publicBaseUrl === null) {
    io.stderr.write(`${program}: ${missing ?? "not a telegram endpoint"}\n`);
    return EXIT.usage;
  }
  const limits = {
    timeoutMs: runtime.config.notify.timeoutMs,
    maxResponseBytes: runtime.config.notify.maxResponseBytes,
    allowedPrivateNetworks: runtime.config.notify.allowedPrivateNetworks,
  };
  const request = setWebhookRequest(
    endpoint,
    settings.publicBaseUrl,
    settings.telegramSecret ?? "",
    limits,
  );
  const result = setWebhookResult(await postToEndpoint(request), endpoint);
  if (!result.ok) {
    io.stderr.write(`${program}: setWebhook failed: ${terminalText(result.error)}\n`);
    return EXIT.failures;
  }
  io.stdout.write(
    `Telegram now posts the updates of "${shown}"'s bot to ${repliesUrl(settings.publicBaseUrl, name)}: a reply "ciente" to an urgent alert acknowledges it while the daemon serves that address\n`,
  );
  return EXIT.ok;
}
