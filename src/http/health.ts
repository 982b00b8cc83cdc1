import type { ServerResponse } from "node:http";
import type { Route } from "./server.js";

/** One condition of readiness, as `/readyz` shows it. */
export interface HealthCheck {
  name: string;
  ok: boolean;
  /** What is wrong, for the operator; never a secret nor case data. Null when ok. */
  problem: string | null;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(`${JSON.stringify(body)}\n`);
}

/**
 * `/livez`: the process answers (its event loop turns); nothing else is asked, so a slow DataJud
 * never gets the daemon restarted. `/readyz`: 200 when every check passes, 503 otherwise, with
 * every check and its problem. Neither needs the token: they tell nothing about the cases.
 */
export function healthRoutes(readiness: () => readonly HealthCheck[]): Route[] {
  return [
    {
      path: "/livez",
      auth: "public",
      handle: (_req, res) => send(res, 200, { status: "ok" }),
    },
    {
      path: "/readyz",
      auth: "public",
      handle: (_req, res) => {
        const checks = readiness();
        const ready = checks.every((c) => c.ok);
        send(res, ready ? 200 : 503, { status: ready ? "ready" : "not ready", checks });
      },
    },
  ];
}
