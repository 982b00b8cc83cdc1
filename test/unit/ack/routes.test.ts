import { Writable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AckSettings, acknowledgementRoutes } from "../../../src/ack/routes.js";
import { createLogger } from "../../../src/log.js";
import type { Endpoint } from "../../../src/notify/transport/endpoint.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import { DOMAIN, type TempStore, tempStore } from "../../support/outbox-store.js";

/*
 * Which acknowledgement routes the daemon serves (docs/channels.md, Acknowledgement): the page
 * when links are on, each reply webhook when its secrets are set too; none of the replies without
 * links, and a warning for a secret that turns nothing on.
 */

const ON = {
  publicBaseUrl: "https://monitor.example.com",
  secret: "0123456789abcdef0123456789abcdef-ack",
  telegramSecret: null,
  whatsappAppSecret: null,
  whatsappVerifyToken: null,
} satisfies AckSettings;

const ENDPOINTS: Endpoint[] = [
  {
    name: "equipe",
    channel: "telegram",
    apiBase: "https://api.telegram.org",
    token: "t",
    chatId: "1",
  },
];

let store: TempStore;
let logged: string;

beforeEach(() => {
  store = tempStore("ack-routes-");
  logged = "";
});
afterEach(() => store.dispose());

function paths(settings: AckSettings): string[] {
  const logger = createLogger({
    level: "warn",
    destination: new Writable({
      write(chunk, _encoding, done) {
        logged += String(chunk);
        done();
      },
    }),
  });
  return acknowledgementRoutes(settings, ENDPOINTS, {
    db: store.db,
    clock: new FakeClock({ now: 0 }),
    logger,
    timeZone: "America/Sao_Paulo",
    domain: DOMAIN,
    policy: () => undefined,
  }).map((r) => r.path);
}

describe("acknowledgementRoutes", () => {
  it("serves the page alone when only links are on", () => {
    expect(paths(ON)).toEqual(["/ack/"]);
    expect(logged).toBe("");
  });

  it("adds each reply webhook whose secrets are set", () => {
    const both = paths({
      ...ON,
      telegramSecret: "t".repeat(40),
      whatsappAppSecret: "app",
      whatsappVerifyToken: "verify-token-0123456789",
    });

    expect(both).toEqual(["/ack/", "/replies/telegram/", "/replies/whatsapp"]);
  });

  it("serves no reply webhook without links, and says why; nor WhatsApp with one secret", () => {
    const off = paths({ ...ON, publicBaseUrl: null, telegramSecret: "t".repeat(40) });
    expect(off).toEqual([]);
    expect(logged).toContain("acknowledgement links are off");

    logged = "";
    const half = paths({ ...ON, whatsappAppSecret: "meta-app-secret-value" });
    expect(half).toEqual(["/ack/"]);
    expect(logged).toContain("need both WHATSAPP_APP_SECRET and WHATSAPP_VERIFY_TOKEN");
    expect(logged).not.toContain("meta-app-secret-value");
  });
});
