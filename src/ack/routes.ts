import type { Route } from "../http/server.js";
import type { Endpoint } from "../notify/transport/endpoint.js";
import { acknowledgementsOn } from "./ack-token.js";
import { ackHttpRoute } from "./http-route.js";
import type { RecordDeps } from "./record.js";
import type { ReplyRouteDeps } from "./replies.js";
import { telegramRepliesRoute } from "./telegram-replies.js";
import { whatsAppRepliesRoute } from "./whatsapp-replies.js";

/*
 * Which acknowledgement routes the daemon serves, from the settings: /ack/<token> when links are
 * on (a public base URL and ACK_SECRET), and beside it each reply webhook whose secrets are set.
 * A reply webhook without links would acknowledge alerts nobody was asked about: it is not
 * served, and the operator is told why, as for WhatsApp with one of its two secrets.
 */

export interface AckSettings {
  publicBaseUrl: string | null;
  secret: string | null;
  telegramSecret: string | null;
  whatsappAppSecret: string | null;
  whatsappVerifyToken: string | null;
}

export interface AckRoutesDeps extends RecordDeps, ReplyRouteDeps {
  /** The schedule's time zone: the page's instants. */
  timeZone: string;
}

export function acknowledgementRoutes(
  settings: AckSettings,
  endpoints: readonly Endpoint[],
  deps: AckRoutesDeps,
): Route[] {
  const replies =
    settings.telegramSecret ?? settings.whatsappAppSecret ?? settings.whatsappVerifyToken;
  if (!acknowledgementsOn(settings)) {
    if (replies !== null) {
      deps.logger.warn(
        "a reply webhook's secret is set but acknowledgement links are off (acknowledgement.publicBaseUrl and ACK_SECRET): replies are not read",
      );
    }
    return [];
  }
  const routes = [ackHttpRoute({ ...deps, secret: settings.secret })];
  if (settings.telegramSecret !== null) {
    const names = endpoints.filter((e) => e.channel === "telegram").map((e) => e.name);
    routes.push(
      telegramRepliesRoute({ ...deps, secret: settings.telegramSecret, endpoints: () => names }),
    );
  }
  const { whatsappAppSecret: appSecret, whatsappVerifyToken: verifyToken } = settings;
  if (appSecret !== null && verifyToken !== null) {
    const numbers = endpoints.flatMap((e) =>
      e.channel === "whatsapp" ? [{ name: e.name, phoneNumberId: e.phoneNumberId, to: e.to }] : [],
    );
    routes.push(
      whatsAppRepliesRoute({ ...deps, appSecret, verifyToken, endpoints: () => numbers }),
    );
  } else if (appSecret !== null || verifyToken !== null) {
    deps.logger.warn(
      "WhatsApp replies need both WHATSAPP_APP_SECRET and WHATSAPP_VERIFY_TOKEN; with one alone they are not read",
    );
  }
  return routes;
}
