import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { doctorCommand, PROBE_QUERY, runDoctor } from "../../../src/cli/doctor.js";
import { closeDatabase, openDatabase } from "../../../src/store/database.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import { type FakeDataJud, startFakeDataJud } from "../../fakes/fake-datajud.js";
import { djenItem, type FakeDjen, startFakeDjen } from "../../fakes/fake-djen.js";
import { type SmtpSink, startSmtpSink } from "../../fakes/smtp-sink.js";
import { captureIo } from "../../support/cli-io.js";
import { closedPort } from "../../support/closed-port.js";

let fake: FakeDataJud;
let djen: FakeDjen;
let sink: SmtpSink;
let dir: string;

const WATCHLIST = [
  "defaults:",
  "  notify: [escritorio@example.com]",
  "cases:",
  '  - number: "0708123-34.2024.8.07.0001"',
  '  - number: "0712345-63.2025.8.07.0016"',
  "",
].join("\n");

beforeAll(async () => {
  fake = await startFakeDataJud({ apiKey: "doctor-key" });
  fake.setDocuments("tjdft", [{ _id: "A", _source: { numeroProcesso: "07081233420248070001" } }]);
  sink = await startSmtpSink({ auth: { user: "monitor", pass: "s3cret-pass" } });
  djen = await startFakeDjen();
});

afterAll(async () => {
  await djen.close();
  await sink.close();
  await fake.close();
});

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "monitor-doctor-"));
  writeFileSync(join(dir, "watchlist.yaml"), WATCHLIST);
  fake.requests.length = 0;
  djen.requests.length = 0;
  djen.foreign = false;
  djen.failAlways(null);
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    MONITOR_WATCHLIST: join(dir, "watchlist.yaml"),
    MONITOR_DB: join(dir, "monitor.db"),
    DATAJUD_BASE_URL: fake.url,
    DJEN_ENABLED: "false",
    DATAJUD_API_KEY: "doctor-key",
    SMTP_URL: sink.url({ user: "monitor", pass: "s3cret-pass" }),
    ...extra,
  };
}

/** Noon in São Paulo: the day doctor asks DJEN about is the day the test expects, at any hour. */
const NOON = Date.parse("2026-03-04T15:00:00.000Z");
const TODAY = "2026-03-04";

async function doctor(environment: NodeJS.ProcessEnv): Promise<{ code: number; out: string }> {
  const io = captureIo(environment, dir, [], new FakeClock({ now: NOON, autoAdvance: true }));
  const code = await doctorCommand.run({ values: {}, positionals: [] }, io);
  return { code, out: io.out() };
}

function line(out: string, check: string): string {
  return out.split("\n").find((l) => new RegExp(`^(OK|FAIL) +${check} `).test(l)) ?? "";
}

describe("monitor doctor and the alert policy", () => {
  it("lists muted cases, each watcher's delivery and the quiet hours under the watchlist check", async () => {
    writeFileSync(
      join(dir, "watchlist.yaml"),
      [
        "defaults:",
        "  notify: [escritorio@example.com, rui@example.com]",
        "cases:",
        '  - number: "0708123-34.2024.8.07.0001"',
        "    muted: true",
        '  - number: "0712345-63.2025.8.07.0016"',
        "    muted_until: 2020-01-31",
        "watchers:",
        "  - address: rui@example.com",
        "    delivery: digest",
        '    digest_schedule: "0 18 * * 1-5"',
        '    status_report: "0 8 * * 1"',
        "",
      ].join("\n"),
    );
    writeFileSync(
      join(dir, "monitor.yaml"),
      'mail:\n  quietHours: { start: "20:00", end: "07:30" }\n',
    );

    const run = await doctor(env({ MONITOR_CONFIG: join(dir, "monitor.yaml") }));

    expect(run.out).toContain("muted: 0708123-34.2024.8.07.0001 (tjdft)");
    expect(run.out).not.toContain("muted: 0712345-63.2025.8.07.0016");
    expect(run.out).toContain(
      'rui@example.com: digest ("0 18 * * 1-5"); status report "0 8 * * 1"',
    );
    expect(run.out).toContain("quiet hours 20:00-07:30 America/Sao_Paulo");
  });
});

describe("monitor doctor", () => {
  it("passes every check against a working DataJud and SMTP server, and exits 0", async () => {
    closeDatabase(openDatabase(join(dir, "monitor.db")));

    const run = await doctor(env({ MONITOR_LOG_LEVEL: "warn" }));

    expect(run.code).toBe(0);
    expect(line(run.out, "config")).toMatch(/^OK +config +defaults < environment/);
    expect(run.out).toMatch(/datajud\.apiKey +from DATAJUD_API_KEY/);
    expect(run.out).toMatch(/log\.level +from MONITOR_LOG_LEVEL/);
    expect(line(run.out, "watchlist")).toContain("2 case(s) in 1 court(s)");
    expect(line(run.out, "database")).toMatch(
      /^OK +database .*monitor\.db: schema \d+, SQLite 3\.\d+\.\d+, quick_check ok$/,
    );
    expect(line(run.out, "datajud")).toContain("api_publica_tjdft answered in");
    expect(line(run.out, "mail")).toMatch(/^OK +mail +smtp:\/\/monitor@127\.0\.0\.1:\d+ .*login/);
    expect(run.out).toContain("all checks passed");
    expect(run.out).not.toContain("s3cret-pass");
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.body).toEqual(PROBE_QUERY);
    expect(fake.requests[0]?.alias).toBe("tjdft");
  });

  it("reports a database not created yet, and .eml mode, as fine", async () => {
    const { SMTP_URL: _unused, ...withoutSmtp } = env();

    const run = await doctor(withoutSmtp);

    expect(run.code).toBe(0);
    expect(line(run.out, "database")).toContain("not created yet; the first sweep creates it");
    expect(line(run.out, "mail")).toContain(
      `.eml mode (no SMTP_URL): alerts are written to ${dir}`,
    );
  });

  it("fails each broken part with what to fix, and exits 1", async () => {
    writeFileSync(join(dir, "monitor.db"), "this is not a database, just text\n".repeat(10));
    writeFileSync(join(dir, "watchlist.yaml"), 'cases:\n  - number: "0708123-35.2024.8.07.0001"\n');
    const closed = await startSmtpSink();
    const port = closed.port;
    await closed.close();

    const run = await doctor(
      env({ DATAJUD_API_KEY: "rotated-key", SMTP_URL: `smtp://127.0.0.1:${port}` }),
    );

    expect(run.code).toBe(1);
    expect(line(run.out, "config")).toMatch(/^OK/);
    expect(line(run.out, "watchlist")).toMatch(/^FAIL +watchlist .*1 error/);
    expect(run.out).toMatch(/watchlist\.yaml:2:\d+ .*34/);
    expect(line(run.out, "database")).toMatch(/^FAIL +database .*cannot be read as an SQLite/);
    expect(line(run.out, "datajud")).toMatch(/^FAIL +datajud .*HTTP 401/);
    expect(run.out).toContain("fix: put CNJ's current public key");
    expect(line(run.out, "mail")).toMatch(/^FAIL +mail +SMTP: .*ECONNREFUSED/);
    expect(run.out).toContain("fix: check SMTP_URL");
    expect(run.out).toContain("4 check(s) failed");
  });

  it("accepts the key pasted as the wiki shows it, says so, and sends the bare key", async () => {
    const run = await doctor(env({ DATAJUD_API_KEY: "APIKey doctor-key\n" }));

    expect(line(run.out, "datajud")).toMatch(/^OK +datajud .*the key was accepted/);
    expect(run.out).toContain('note: DATAJUD_API_KEY was given with the "APIKey" word before it');
    expect(fake.requests[0]?.authorization).toBe("APIKey doctor-key");
  });

  it("says the key is missing without calling DataJud", async () => {
    const { DATAJUD_API_KEY: _unused, ...withoutKey } = env();

    const run = await doctor(withoutKey);

    expect(run.code).toBe(1);
    expect(line(run.out, "datajud")).toMatch(/^FAIL +datajud +DATAJUD_API_KEY is not set/);
    expect(run.out).toContain("https://datajud-wiki.cnj.jus.br/api-publica/acesso");
    expect(fake.requests).toHaveLength(0);
  });

  it("stops after the configuration when it does not load", async () => {
    const run = await doctor(env({ DATAJUD_REQUESTS_PER_MINUTE: "500" }));

    expect(run.code).toBe(1);
    expect(line(run.out, "config")).toMatch(/^FAIL +config +1 error/);
    expect(run.out).toContain("DATAJUD_REQUESTS_PER_MINUTE");
    expect(line(run.out, "datajud")).toBe("");
    expect(fake.requests).toHaveLength(0);
  });
});

describe("monitor doctor and DJEN", () => {
  const withDjen = (extra: Record<string, string> = {}): NodeJS.ProcessEnv =>
    env({ DJEN_ENABLED: "true", DJEN_BASE_URL: djen.url, ...extra });

  it("asks DJEN for today's publications of the first watched case, once", async () => {
    djen.setItems([djenItem({ id: 9001, caseNumber: "07081233420248070001", date: TODAY })]);

    const run = await doctor(withDjen());

    expect(run.code).toBe(0);
    expect(line(run.out, "djen")).toMatch(
      new RegExp(
        `^OK +djen +${djen.url.replace(/\./g, "\\.")}: answered in \\d+ ms \\(1 publication\\(s\\) of a case number today\\)$`,
      ),
    );
    expect(djen.requests.map((r) => r.params)).toEqual([
      expect.objectContaining({
        numeroProcesso: "07081233420248070001",
        dataDisponibilizacaoInicio: TODAY,
        dataDisponibilizacaoFim: TODAY,
      }),
    ]);
  });

  it("says plainly that DJEN refuses this server's address abroad (403), with what to do", async () => {
    djen.foreign = true;

    const run = await doctor(withDjen());

    expect(run.code).toBe(1);
    expect(line(run.out, "djen")).toMatch(
      /^FAIL +djen +http:\/\/127\.0\.0\.1:\d+ refused this server's address \(HTTP 403\): DJEN answers only addresses in Brazil/,
    );
    expect(run.out).toContain(
      "fix: run the monitor from a server in Brazil (or point DJEN_BASE_URL at a proxy there), or set djen.enabled: false",
    );
    expect(djen.requests).toHaveLength(1);
    expect(run.out).toContain("1 check(s) failed");
  });

  it("reports DJEN down as a failure to retry, and an answer that ignored its filter as a wrong address", async () => {
    djen.failAlways({ status: 503 });
    const down = await doctor(withDjen());
    djen.failAlways(null);
    djen.setItems([djenItem({ id: 9002, caseNumber: "10352894820228260602", court: "TJSP" })]);
    djen.ignoreFilters = true;
    const stray = await doctor(withDjen());
    djen.ignoreFilters = false;

    expect(line(down.out, "djen")).toMatch(/^FAIL +djen +DJEN answered HTTP 503/);
    expect(down.out).toContain("fix: DJEN itself is failing; try again later");
    expect(down.out).toContain(
      "or set DJEN_ENABLED=false (djen.enabled: false) to run without publications",
    );
    expect(line(stray.out, "djen")).toMatch(/^FAIL +djen .*ignored a filter/);
    expect(stray.out).toContain("fix: check that DJEN_BASE_URL is CNJ's Comunica API");
  });

  it("asks the first registration when the watchlist lists no case", async () => {
    writeFileSync(
      join(dir, "watchlist.yaml"),
      'watchers:\n  - address: joao@example.com\n    oab: ["123456/SP"]\n',
    );

    const run = await doctor(withDjen());

    expect(line(run.out, "djen")).toContain("of OAB 123456/SP today");
    expect(djen.requests[0]?.params).toMatchObject({ numeroOab: "123456", ufOab: "SP" });
  });

  it("is off without a request when djen.enabled is false", async () => {
    const run = await doctor(env());

    expect(line(run.out, "djen")).toMatch(
      /^OK +djen +off \(djen\.enabled: false\): no DJEN publication is read$/,
    );
    expect(djen.requests).toHaveLength(0);
  });
});

describe("monitor doctor: HTTP settings", () => {
  function config(listen: string): string {
    const path = join(dir, "http.yaml");
    writeFileSync(path, `http:\n  listen: "${listen}"\n`);
    return path;
  }

  it("says the HTTP server is off by default, and where the heartbeat goes by host only", async () => {
    const run = await doctor(
      env({ MONITOR_HEARTBEAT_URL: "https://hc-ping.com/0b7c-secret-uuid" }),
    );

    expect(line(run.out, "http")).toMatch(/^OK +http +off \(http\.listen is null\)/);
    expect(run.out).toContain("heartbeat: a GET to hc-ping.com after every sweep");
    expect(run.out).not.toContain("secret-uuid");
  });

  it("fails a listen address off this machine without a token, saying the daemon would refuse it", async () => {
    const run = await doctor(env({ MONITOR_CONFIG: config("0.0.0.0:8765") }));

    expect(run.code).toBe(1);
    expect(line(run.out, "http")).toMatch(
      /^FAIL +http +http\.listen 0\.0\.0\.0:8765 is off this machine and MCP_HTTP_TOKEN is not set/,
    );
    expect(run.out).toContain("fix: set MCP_HTTP_TOKEN");
  });

  it("passes a free loopback port, saying who may read what", async () => {
    const port = await closedPort();

    const run = await doctor(env({ MONITOR_CONFIG: config(`127.0.0.1:${port}`) }));

    expect(line(run.out, "http")).toBe(
      `OK    http       the daemon listens on http://127.0.0.1:${port}: /mcp, /livez, /readyz, /metrics`,
    );
    expect(run.out).toContain("no MCP_HTTP_TOKEN: /mcp answers 503, and /metrics is open");
    expect(run.out).toContain(`port ${port} is free`);
  });

  it("tells a port already held by the daemon from one held by another program", async () => {
    const other = createServer((_req, res) => {
      res.writeHead(404);
      res.end("not here");
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const { port } = other.address() as AddressInfo;
    const answers = (status: string): typeof fetch =>
      (async () => Response.json({ status })) as typeof fetch;

    try {
      const held = await doctor(
        env({ MONITOR_CONFIG: config(`127.0.0.1:${port}`), MCP_HTTP_TOKEN: "t".repeat(32) }),
      );
      const daemon = await runDoctor(
        captureIo(
          env({ MONITOR_CONFIG: config(`127.0.0.1:${port}`), MCP_HTTP_TOKEN: "t".repeat(32) }),
          dir,
        ),
        { fetch: answers("ok") },
      );

      expect(line(held.out, "http")).toMatch(
        /^FAIL +http +cannot listen on 127\.0\.0\.1:\d+: another program holds the port/,
      );
      const http = daemon.find((c) => c.name === "http");
      expect(http?.ok).toBe(true);
      expect(http?.details).toContain(
        `a monitor already answers at http://127.0.0.1:${port}/livez`,
      );
      expect(http?.details).toContain(
        "MCP_HTTP_TOKEN set: /mcp and /metrics need Authorization: Bearer <token>",
      );
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });
});
