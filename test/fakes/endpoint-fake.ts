import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import { listenLoopback } from "./listen-loopback.js";
import { readBody } from "./read-body.js";

/**
 * A loopback HTTP endpoint for the webhook and chat fakes: real HTTP on 127.0.0.1, every request
 * recorded, answered by the fake's own handler unless a scripted answer is queued first
 * ("hang" never answers; the socket is destroyed on close).
 */

export interface ReceivedRequest {
  method: string;
  /** Path and query, as sent. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Answer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

export type ScriptedAnswer = Answer | "hang";

export interface EndpointFake {
  /** http://127.0.0.1:PORT */
  origin: string;
  requests: ReceivedRequest[];
  /** Answers for the next requests, in order, before the handler's. */
  script: ScriptedAnswer[];
  /** Called once an answer has been written out (a test kills the sender there). */
  afterAnswer?: (() => void) | undefined;
  close(): Promise<void>;
}

export async function startEndpointFake(
  handle: (request: ReceivedRequest) => Answer,
): Promise<EndpointFake> {
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const request: ReceivedRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body,
      };
      fake.requests.push(request);
      const scripted = fake.script.shift();
      if (scripted === "hang") {
        held.push(res);
        return;
      }
      const answer = scripted ?? handle(request);
      res.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers });
      res.end(answer.body ?? "", () => fake.afterAnswer?.());
    });
  });
  const listening = await listenLoopback(server);
  const fake: EndpointFake = {
    origin: listening.origin,
    requests: [],
    script: [],
    close: listening.close,
  };
  return fake;
}

export function json(status: number, value: unknown): Answer {
  return { status, body: JSON.stringify(value), headers: { "content-type": "application/json" } };
}
