import { createServer, type ServerResponse } from "node:http";
import { listenLoopback } from "./listen-loopback.js";

/**
 * A loopback stand-in for a Healthchecks.io-style ping service: real HTTP on 127.0.0.1, every
 * request recorded by method and path (query included), answered with `status`, or never while
 * `hang` is set (the socket is destroyed on close).
 */
export interface FakeHeartbeat {
  /** Base URL, e.g. http://127.0.0.1:PORT; pings go to `${url}/<check>`. */
  url: string;
  pings: Array<{
    method: string;
    path: string;
    userAgent: string | undefined;
    authorization: string | undefined;
  }>;
  /** @default 200 */
  status: number;
  hang: boolean;
  close(): Promise<void>;
}

export async function startFakeHeartbeat(): Promise<FakeHeartbeat> {
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    fake.pings.push({
      method: req.method ?? "",
      path: req.url ?? "",
      userAgent: req.headers["user-agent"],
      authorization: req.headers.authorization,
    });
    if (fake.hang) {
      held.push(res);
      return;
    }
    res.writeHead(fake.status, { "content-type": "text/plain" });
    res.end(fake.status < 300 ? "OK" : "not found");
  });
  const listening = await listenLoopback(server);
  const fake: FakeHeartbeat = {
    url: listening.origin,
    pings: [],
    status: 200,
    hang: false,
    close: listening.close,
  };
  return fake;
}
