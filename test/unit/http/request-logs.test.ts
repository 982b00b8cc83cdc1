import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpServer, type HttpServer, requestPath } from "../../../src/http/server.js";
import { createLogger, loggableUrl, withLoggableUrls } from "../../../src/log.js";

const TOKEN = "feedtoken-5b1e0c9a7d2f4e68";

let server: HttpServer | null = null;
let lines: string[] = [];

async function serve(): Promise<string> {
  server = createHttpServer({
    listen: { host: "127.0.0.1", port: 0 },
    token: "server-token-0123456789abcdef",
    allowedOrigins: [],
    allowedHosts: [],
    maxBodyBytes: 4096,
    logger: createLogger({ level: "debug", destination: { write: (l: string) => lines.push(l) } }),
  });
  server.route({
    path: "/calendar/",
    prefix: true,
    auth: "public",
    handle: (_req, res) => {
      res.writeHead(200);
      res.end("BEGIN:VCALENDAR");
    },
  });
  return server.start();
}

/** A request with the headers a browser page or a scanner may send: fetch will not set Host. */
function ask(base: string, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const url = new URL(base);
    request({ host: url.hostname, port: url.port, path, headers, method: "GET" }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on("error", reject)
      .end();
  });
}

afterEach(async () => {
  await server?.close();
  server = null;
  lines = [];
});

describe("what the HTTP server logs of a request", () => {
  it("never a feed token: not after an unlisted Host, a foreign Origin, nor a doubled slash", async () => {
    const base = await serve();

    const statuses = [
      await ask(base, `//calendar/${TOKEN}.ics`, { host: "evil.example" }),
      await ask(base, `/calendar/${TOKEN}.ics?x=${TOKEN}`, { host: "evil.example" }),
      await ask(base, `/calendar/${TOKEN}.ics`, { origin: "https://evil.example" }),
      await ask(base, `/x/${TOKEN}`, { host: "evil.example" }),
    ];

    expect(statuses).toEqual([421, 421, 403, 421]);
    const refused = lines.filter((l) => l.includes('"msg":"HTTP request'));
    expect(refused).toHaveLength(4);
    expect(lines.join("")).not.toContain(TOKEN);
    expect(refused.map((l) => (JSON.parse(l) as { path: string }).path)).toEqual([
      "(no route)",
      "/calendar/…",
      "/calendar/…",
      "(no route)",
    ]);
  });

  it("routes //calendar/<token>.ics nowhere: a doubled slash is no feed address", async () => {
    const base = await serve();

    expect(await ask(base, `//calendar/${TOKEN}.ics`, {})).toBe(404);
    expect(await ask(base, `/calendar/${TOKEN}.ics`, {})).toBe(200);
  });
});

describe("requestPath", () => {
  it("reads the path of a request target without a base URL, query and fragment cut", () => {
    expect(requestPath("//calendar/t.ics?a=1")).toBe("//calendar/t.ics");
    expect(requestPath("/mcp#x")).toBe("/mcp");
    expect(requestPath("http://127.0.0.1:8080/readyz?x")).toBe("/readyz");
    expect(requestPath("*")).toBeNull();
    expect(requestPath(undefined)).toBe("/");
  });
});

describe("loggableUrl and withLoggableUrls", () => {
  it("show scheme, host and port only: no user, password, path or query", () => {
    expect(loggableUrl("https://u:p@hc.example:8443/ping/abc?k=v#f")).toBe(
      "https://hc.example:8443/…",
    );
    expect(loggableUrl("https://api.example/")).toBe("https://api.example");
    expect(loggableUrl("not a url")).toBe("(not a URL)");
    expect(withLoggableUrls("failed: https://u:p@x.example/a/b?c=d then http://y.example")).toBe(
      "failed: https://x.example/… then http://y.example",
    );
  });

  it("the logger masks user:password@ in any URL of any line, as a last guard", () => {
    const out: string[] = [];
    const logger = createLogger({ destination: { write: (l: string) => out.push(l) } });

    logger.warn({ target: "https://ops:hunter22@x.example/p" }, "see smtp://me:pw@mail.example");

    expect(out.join("")).not.toMatch(/hunter22|me:pw/u);
    expect(out.join("")).toContain("https://***@x.example/p");
  });
});
