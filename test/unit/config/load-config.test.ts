import { describe, expect, it } from "vitest";
import {
  type ConfigResult,
  loadConfig,
  type MonitorConfig,
} from "../../../src/config/load-config.js";

const CWD = "/srv/monitor";

/** An in-memory file system: absolute path -> content. */
function files(map: Record<string, string>): (path: string) => string | undefined {
  return (path) => map[path];
}

function ok(result: ConfigResult): Extract<ConfigResult, { ok: true }> {
  if (!result.ok) throw new Error(`expected a valid config, got:\n${result.errors.join("\n")}`);
  return result;
}

function errors(result: ConfigResult): string[] {
  if (result.ok) throw new Error("expected the config to be refused");
  return result.errors;
}

function load(env: NodeJS.ProcessEnv, fs: Record<string, string> = {}): ConfigResult {
  return loadConfig({ env, cwd: CWD, readFile: files(fs) });
}

describe("loadConfig: defaults", () => {
  it("uses config/default.yaml when nothing else is given", () => {
    const result = ok(load({}));

    expect(result.config).toEqual({
      paths: {
        watchlist: "/srv/monitor/watchlist.yaml",
        db: "/srv/monitor/data/monitor.db",
        outboxDir: "/srv/monitor/data/outbox",
      },
      schedule: {
        cron: "0 7,12,17 * * 1-5",
        timezone: "America/Sao_Paulo",
        startJitterSeconds: 60,
        fullRereadDays: 7,
      },
      datajud: {
        baseUrl: "https://api-publica.datajud.cnj.jus.br",
        apiKey: null,
        requestsPerMinute: 120,
        concurrency: 8,
        timeoutMs: 75_000,
        totalTimeoutMs: 180_000,
        maxAttempts: 4,
        batchSize: 100,
        maxResponseMb: 8,
        mcpSharePercent: 25,
      },
      djen: {
        enabled: true,
        baseUrl: "https://comunicaapi.pje.jus.br",
        requestsPerMinute: 20,
        timeoutMs: 30_000,
        totalTimeoutMs: 120_000,
        maxAttempts: 4,
        concurrency: 5,
        maxResponseMb: 8,
        windowDays: 2,
        maxMinutesPerSweep: 60,
        caseEveryHours: 8,
        oabEveryHours: 4,
        partyEveryHours: 24,
      },
      monitor: {
        notFoundThreshold: 3,
        notifyOnBaseline: false,
        checkRetentionDays: 180,
        proofRetentionDays: 400,
        staleAfterDays: 90,
        heartbeatUrl: null,
      },
      summarizer: {
        apiKey: null,
        baseUrl: null,
        model: "claude-sonnet-4-5",
        maxIterations: 6,
        maxOutputTokens: 4096,
        callTimeoutMs: 60_000,
        runTokenBudget: 200_000,
        dailyTokenBudget: 1_000_000,
      },
      mail: {
        smtpUrl: null,
        from: "datajud-monitor <monitor@localhost>",
        mode: "instant",
        admin: null,
        maxAttempts: 8,
        quietHours: null,
        urgentBypassesQuietHours: false,
        healthAfterFailedSweeps: 3,
      },
      log: { level: "info" },
      http: {
        listen: null,
        token: null,
        allowedOrigins: [],
        allowedHosts: [],
        maxBodyBytes: 1_048_576,
      },
      notify: {
        endpoints: [],
        declared: [],
        maxAttempts: 8,
        timeoutMs: 15_000,
        maxResponseBytes: 65_536,
        allowedPrivateNetworks: [],
      },
      calendar: { closures: [] },
      calendarFeed: {
        serve: false,
        reminderBusinessDays: [],
        reminderTime: "09:00",
        pastDays: 30,
        maxEvents: 2000,
        refreshMinutes: 60,
        sessionMinutes: 60,
      },
      acknowledgement: {
        publicBaseUrl: null,
        validHours: 168,
        secret: null,
        telegramSecret: null,
        whatsappAppSecret: null,
        whatsappVerifyToken: null,
      },
    } satisfies MonitorConfig);
    expect(result.secrets).toEqual([]);
    expect(result.sources["schedule.cron"]).toBe("default");
  });

  it("puts the database in $STATE_DIRECTORY under systemd", () => {
    const result = ok(load({ STATE_DIRECTORY: "/var/lib/datajud-monitor:/var/lib/other" }));

    expect(result.config.paths.db).toBe("/var/lib/datajud-monitor/monitor.db");
    expect(result.config.paths.outboxDir).toBe("/var/lib/datajud-monitor/outbox");
    expect(result.sources["paths.db"]).toBe("default ($STATE_DIRECTORY)");
  });
});

describe("loadConfig: alert policy settings", () => {
  it("reads quiet hours, the urgent bypass and the health threshold", () => {
    const fs = {
      "/c.yaml": [
        "mail:",
        '  quietHours: { start: "20:00", end: "7:30" }',
        "  urgentBypassesQuietHours: true",
        "  healthAfterFailedSweeps: 5",
        "monitor:",
        "  staleAfterDays: 60",
        "",
      ].join("\n"),
    };

    const result = ok(load({ MONITOR_CONFIG: "/c.yaml" }, fs));

    expect(result.config.mail).toMatchObject({
      quietHours: { start: "20:00", end: "7:30" },
      urgentBypassesQuietHours: true,
      healthAfterFailedSweeps: 5,
    });
    expect(result.config.monitor.staleAfterDays).toBe(60);
  });

  it("refuses a quiet-hours time that is not HH:MM, and an empty window, at their positions", () => {
    const bad = { "/c.yaml": 'mail:\n  quietHours: { start: "22h", end: "07:00" }\n' };
    const empty = { "/c.yaml": 'mail:\n  quietHours:\n    start: "07:00"\n    end: "07:00"\n' };

    const badResult = load({ MONITOR_CONFIG: "/c.yaml" }, bad);
    const emptyResult = load({ MONITOR_CONFIG: "/c.yaml" }, empty);

    expect(errors(badResult)).toEqual([
      expect.stringMatching(/^\/c\.yaml:2:24 .*"22h" is not a time of day; write it as HH:MM/),
    ]);
    expect(errors(emptyResult)).toEqual([
      expect.stringMatching(/^\/c\.yaml:3:5 .*start and end are the same time/),
    ]);
  });
});

describe("loadConfig: config file", () => {
  it("reads config/monitor.yaml from the working directory when present", () => {
    const fs = {
      "/srv/monitor/config/monitor.yaml": [
        "schedule:",
        '  cron: "0 8 * * *"',
        "mail:",
        "  mode: digest",
        "  admin: ti@example.com",
        "paths:",
        "  db: state/m.db",
        "",
      ].join("\n"),
    };

    const result = ok(load({}, fs));

    expect(result.config.schedule.cron).toBe("0 8 * * *");
    expect(result.config.schedule.timezone).toBe("America/Sao_Paulo");
    expect(result.config.mail).toMatchObject({ mode: "digest", admin: "ti@example.com" });
    expect(result.config.paths.db).toBe("/srv/monitor/state/m.db");
    expect(result.config.paths.outboxDir).toBe("/srv/monitor/state/outbox");
    expect(result.sources["schedule.cron"]).toBe("/srv/monitor/config/monitor.yaml:2:9");
  });

  it("reads the file MONITOR_CONFIG names instead, relative to the working directory", () => {
    const fs = {
      "/srv/monitor/config/monitor.yaml": "log:\n  level: debug\n",
      "/srv/monitor/etc/mine.yaml": "log:\n  level: warn\n",
    };

    const result = ok(load({ MONITOR_CONFIG: "etc/mine.yaml" }, fs));

    expect(result.config.log.level).toBe("warn");
  });

  it("refuses a MONITOR_CONFIG that does not exist", () => {
    const result = load({ MONITOR_CONFIG: "/etc/nope.yaml" });

    expect(errors(result)).toEqual([
      expect.stringMatching(/^MONITOR_CONFIG: \/etc\/nope\.yaml does not exist/),
    ]);
  });

  it("reports unknown keys with their position and the key meant", () => {
    const fs = {
      "/c.yaml": "datajud:\n  requests_per_minute: 60\n  timeout: 5\nschedul:\n  cron: x\n",
    };

    const result = load({ MONITOR_CONFIG: "/c.yaml" }, fs);

    expect(errors(result)).toEqual([
      '/c.yaml:2:3 unknown key "requests_per_minute" in datajud; did you mean "requestsPerMinute"?',
      expect.stringMatching(
        /^\/c\.yaml:3:3 unknown key "timeout" in datajud; did you mean "timeoutMs"\?$/,
      ),
      expect.stringMatching(/^\/c\.yaml:4:1 unknown key "schedul"; did you mean "schedule"\?$/),
    ]);
  });

  it("refuses a secret in the file and says where it belongs", () => {
    const fs = { "/c.yaml": "datajud:\n  apiKey: cDZHYzlZa0JadVREZDJCendQbXY\n" };

    const result = load({ MONITOR_CONFIG: "/c.yaml" }, fs);

    const [message] = errors(result);
    expect(message).toMatch(/^\/c\.yaml:2:3 unknown key "apiKey" in datajud: .*DATAJUD_API_KEY/);
    expect(message).not.toContain("cDZHYzlZa0JadVREZDJCendQbXY");
  });

  it("reports YAML syntax errors and wrong types with positions", () => {
    const fs = {
      "/bad.yaml": "schedule:\n  cron: [\n",
      "/types.yaml": 'datajud:\n  timeoutMs: "5000"\nmonitor:\n  notifyOnBaseline: maybe\n',
    };

    const syntax = load({ MONITOR_CONFIG: "/bad.yaml" }, fs);
    const types = load({ MONITOR_CONFIG: "/types.yaml" }, fs);

    expect(errors(syntax)[0]).toMatch(/^\/bad\.yaml:\d+:\d+ YAML: /);
    expect(errors(types)).toEqual([
      expect.stringMatching(
        /^\/types\.yaml:2:14 datajud\.timeoutMs: expected a number.*without quotes$/,
      ),
      expect.stringMatching(
        /^\/types\.yaml:4:21 monitor\.notifyOnBaseline: expected true or false/,
      ),
    ]);
  });

  it("refuses a YAML alias bomb with a position instead of expanding it", () => {
    const rows = ['x: &x0 ["a", "a", "a", "a", "a", "a", "a", "a", "a", "a"]'];
    for (let i = 1; i < 7; i++)
      rows.push(
        `x${i}: &x${i} [${Array(10)
          .fill(`*x${i - 1}`)
          .join(", ")}]`,
      );
    const fs = { "/bomb.yaml": `${rows.join("\n")}\n` };

    const result = load({ MONITOR_CONFIG: "/bomb.yaml" }, fs);

    expect(errors(result)).toEqual([
      expect.stringMatching(/^\/bomb\.yaml:2:\d+ YAML: the aliases .*expand/),
    ]);
  });

  it("refuses a bad cron expression in our words, and an unknown time zone", () => {
    const fs = { "/c.yaml": 'schedule:\n  cron: "0 25 * * *"\n  timezone: America/Sao_Pablo\n' };

    const result = load({ MONITOR_CONFIG: "/c.yaml" }, fs);

    expect(errors(result)).toEqual([
      expect.stringMatching(
        /^\/c\.yaml:2:9 schedule\.cron: "0 25 \* \* \*" is not a cron schedule: its hour field "25" is not valid \(0-23;/,
      ),
      expect.stringMatching(
        /^\/c\.yaml:3:13 schedule\.timezone: "America\/Sao_Pablo" is not an IANA time zone/,
      ),
    ]);
  });
});

describe("loadConfig: environment", () => {
  it("overrides the file and the defaults", () => {
    const fs = { "/c.yaml": "datajud:\n  timeoutMs: 1000\n  maxAttempts: 2\n" };
    const env = {
      MONITOR_CONFIG: "/c.yaml",
      DATAJUD_TIMEOUT_MS: "2000",
      DATAJUD_BASE_URL: "http://127.0.0.1:8080/",
      MONITOR_WATCHLIST: "/etc/w.yaml",
      MONITOR_DB: "db/x.db",
      MONITOR_OUTBOX_DIR: "/var/mail-out",
      ANTHROPIC_MODEL: "claude-haiku-4-5",
      AGENT_MAX_ITERATIONS: "3",
      MAIL_FROM: "Escritório <alertas@example.com>",
      LOG_LEVEL: "debug",
    };

    const result = ok(load(env, fs));

    expect(result.config.datajud).toMatchObject({
      timeoutMs: 2000,
      maxAttempts: 2,
      baseUrl: "http://127.0.0.1:8080",
    });
    expect(result.config.paths).toEqual({
      watchlist: "/etc/w.yaml",
      db: "/srv/monitor/db/x.db",
      outboxDir: "/var/mail-out",
    });
    expect(result.config.summarizer).toMatchObject({ model: "claude-haiku-4-5", maxIterations: 3 });
    expect(result.config.mail.from).toBe("Escritório <alertas@example.com>");
    expect(result.config.log.level).toBe("debug");
    expect(result.sources).toMatchObject({
      "datajud.timeoutMs": "DATAJUD_TIMEOUT_MS",
      "datajud.maxAttempts": "/c.yaml:3:16",
      "log.level": "LOG_LEVEL",
    });
  });

  it("prefers MONITOR_LOG_LEVEL to LOG_LEVEL and treats an empty value as unset", () => {
    const result = ok(load({ MONITOR_LOG_LEVEL: "error", LOG_LEVEL: "trace", MAIL_FROM: "" }));

    expect(result.config.log.level).toBe("error");
    expect(result.config.mail.from).toBe("datajud-monitor <monitor@localhost>");
  });

  it("reads X_FILE, trimmed, relative to the working directory", () => {
    const fs = { "/srv/monitor/secrets/key": "  the-datajud-key\n", "/run/rpm": "60\n" };

    const result = ok(
      load(
        { DATAJUD_API_KEY_FILE: "secrets/key", DATAJUD_REQUESTS_PER_MINUTE_FILE: "/run/rpm" },
        fs,
      ),
    );

    expect(result.config.datajud.apiKey).toBe("the-datajud-key");
    expect(result.config.datajud.requestsPerMinute).toBe(60);
    expect(result.sources["datajud.apiKey"]).toBe(
      "DATAJUD_API_KEY_FILE (/srv/monitor/secrets/key)",
    );
    expect(result.secrets).toEqual(["the-datajud-key"]);
  });

  it("takes the DataJud key as the wiki shows it: the APIKey word and line breaks dropped, and says so", () => {
    const fs = {
      "/run/key": "  apikey cDZHYzlZa0JadVREZDJC\nendQbXY6SkJlTzNjLV9TRENyQk1RdnFKZGRQdw==\n",
    };

    const pasted = ok(load({ DATAJUD_API_KEY: "APIKey cDZHYzlZa0JadVREZDJCendQbXY6SkJlTzNj" }));
    const filed = ok(load({ DATAJUD_API_KEY_FILE: "/run/key" }, fs));
    const header = ok(load({ DATAJUD_API_KEY: "Authorization: APIKey abcd1234efgh" }));
    const bare = ok(load({ DATAJUD_API_KEY: "abcd1234efgh" }));

    expect(pasted.config.datajud.apiKey).toBe("cDZHYzlZa0JadVREZDJCendQbXY6SkJlTzNj");
    expect(pasted.notices).toEqual([
      expect.stringContaining('was given with the "APIKey" word before it'),
    ]);
    expect(filed.config.datajud.apiKey).toBe(
      "cDZHYzlZa0JadVREZDJCendQbXY6SkJlTzNjLV9TRENyQk1RdnFKZGRQdw==",
    );
    expect(filed.notices[0]).toContain("spaces or line breaks inside it");
    expect(header.config.datajud.apiKey).toBe("abcd1234efgh");
    expect(bare.config.datajud.apiKey).toBe("abcd1234efgh");
    expect(bare.notices).toEqual([]);
    expect(pasted.secrets).toEqual(["cDZHYzlZa0JadVREZDJCendQbXY6SkJlTzNj"]);
    expect(pasted.notices.join(" ")).not.toContain("cDZHYzlZ");
  });

  it("refuses a key that is only the APIKey word", () => {
    const result = load({ DATAJUD_API_KEY: "APIKey " });

    expect(result.ok).toBe(false);
  });

  it("reads systemd credentials by exact and lower-case name", () => {
    const fs = {
      "/run/credentials/m.service/DATAJUD_API_KEY": "key-from-credential\n",
      "/run/credentials/m.service/smtp_url": "smtps://mailer:p%40ss-word@mail.example.com:465",
    };

    const result = ok(load({ CREDENTIALS_DIRECTORY: "/run/credentials/m.service" }, fs));

    expect(result.config.datajud.apiKey).toBe("key-from-credential");
    expect(result.config.mail.smtpUrl).toBe("smtps://mailer:p%40ss-word@mail.example.com:465");
    expect(result.sources["mail.smtpUrl"]).toBe("credential /run/credentials/m.service/smtp_url");
    expect(result.secrets).toEqual(
      expect.arrayContaining(["key-from-credential", "p%40ss-word", "p@ss-word"]),
    );
  });

  it("ranks X over X_FILE over the credential", () => {
    const fs = {
      "/k": "from-file",
      "/creds/DATAJUD_API_KEY": "from-credential",
      "/creds/ANTHROPIC_API_KEY": "anthropic-from-credential",
    };
    const env = {
      CREDENTIALS_DIRECTORY: "/creds",
      DATAJUD_API_KEY: "from-env",
      DATAJUD_API_KEY_FILE: "/k",
      ANTHROPIC_API_KEY_FILE: "/k",
    };

    const result = ok(load(env, fs));

    expect(result.config.datajud.apiKey).toBe("from-env");
    expect(result.config.summarizer.apiKey).toBe("from-file");
  });

  it("refuses an X_FILE that does not exist or is empty", () => {
    const result = load(
      { DATAJUD_API_KEY_FILE: "/missing", SMTP_URL_FILE: "/empty" },
      { "/empty": " \n" },
    );

    expect(errors(result)).toEqual([
      expect.stringMatching(/^DATAJUD_API_KEY_FILE \(\/missing\): the file does not exist/),
      expect.stringMatching(/^SMTP_URL_FILE \(\/empty\): the file is empty/),
    ]);
  });

  it("names the variable of a bad number and what was given", () => {
    const result = load({ DATAJUD_TIMEOUT_MS: "90s", DATAJUD_MAX_ATTEMPTS: "2.5" });

    expect(errors(result)).toEqual([
      'DATAJUD_TIMEOUT_MS (datajud.timeoutMs): must be a whole number (got "90s")',
      'DATAJUD_MAX_ATTEMPTS (datajud.maxAttempts): must be a whole number (got "2.5")',
    ]);
  });

  it("refuses more than 120 requests per minute, citing the terms of use", () => {
    const fromEnv = load({ DATAJUD_REQUESTS_PER_MINUTE: "200" });
    const fromFile = load(
      { MONITOR_CONFIG: "/c.yaml" },
      { "/c.yaml": "datajud:\n  requestsPerMinute: 121\n" },
    );

    expect(errors(fromEnv)).toEqual([
      expect.stringMatching(
        /^DATAJUD_REQUESTS_PER_MINUTE \(datajud\.requestsPerMinute\): must be at most 120 .*terms of use/,
      ),
    ]);
    expect(errors(fromFile)).toEqual([
      expect.stringMatching(
        /^\/c\.yaml:2:22 datajud\.requestsPerMinute: must be at most 120 .*terms of use/,
      ),
    ]);
  });

  it("takes calendarFeed.sessionMinutes from 5 to 720 and refuses others at file:line", () => {
    const taken = load(
      { MONITOR_CONFIG: "/c.yaml" },
      { "/c.yaml": "calendarFeed:\n  sessionMinutes: 90\n" },
    );
    const zero = load(
      { MONITOR_CONFIG: "/c.yaml" },
      { "/c.yaml": "calendarFeed:\n  sessionMinutes: 0\n" },
    );
    const day = load(
      { MONITOR_CONFIG: "/c.yaml" },
      { "/c.yaml": "calendarFeed:\n  sessionMinutes: 1440\n" },
    );

    expect(taken.ok && taken.config.calendarFeed.sessionMinutes).toBe(90);
    expect(errors(zero)).toEqual([
      "/c.yaml:2:19 calendarFeed.sessionMinutes: must be at least 5 minutes",
    ]);
    expect(errors(day)).toEqual([
      "/c.yaml:2:19 calendarFeed.sessionMinutes: must be at most 720 minutes",
    ]);
  });

  it("takes DATAJUD_CONCURRENCY up to 16 and refuses more, saying DataJud is shared", () => {
    const taken = load({ DATAJUD_CONCURRENCY: "16" });
    const refused = load({ DATAJUD_CONCURRENCY: "32" });

    expect(taken.ok && taken.config.datajud.concurrency).toBe(16);
    expect(errors(refused)).toEqual([
      expect.stringMatching(
        /^DATAJUD_CONCURRENCY \(datajud\.concurrency\): must be at most 16 requests at once, DataJud is one public cluster shared/,
      ),
    ]);
  });

  it("refuses a bad URL, log level and mail mode", () => {
    const result = load({
      DATAJUD_BASE_URL: "api-publica.datajud.cnj.jus.br",
      MONITOR_LOG_LEVEL: "verbose",
    });

    expect(errors(result)).toEqual([
      expect.stringMatching(
        /^DATAJUD_BASE_URL \(datajud\.baseUrl\): "api-publica\.datajud\.cnj\.jus\.br" is not an http\(s\) URL/,
      ),
      expect.stringMatching(
        /^MONITOR_LOG_LEVEL \(log\.level\): must be one of "fatal", .*\(got "verbose"\)$/,
      ),
    ]);
  });

  it("refuses a total timeout shorter than one attempt, naming both sources", () => {
    const result = load({ DATAJUD_TIMEOUT_MS: "5000", DATAJUD_TOTAL_TIMEOUT_MS: "4000" });

    expect(errors(result)).toEqual([
      expect.stringMatching(
        /totalTimeoutMs \(4000, from DATAJUD_TOTAL_TIMEOUT_MS\) is shorter than datajud\.timeoutMs \(5000, from DATAJUD_TIMEOUT_MS\)/,
      ),
    ]);
  });

  it("reads DJEN's settings from the environment and checks its timeouts the same way", () => {
    const on = ok(
      load({ DJEN_ENABLED: "false", DJEN_BASE_URL: "http://127.0.0.1:9/", DJEN_MAX_ATTEMPTS: "2" }),
    );
    const off = load({ DJEN_TIMEOUT_MS: "5000", DJEN_TOTAL_TIMEOUT_MS: "4000" });

    expect(on.config.djen).toMatchObject({
      enabled: false,
      baseUrl: "http://127.0.0.1:9",
      maxAttempts: 2,
    });
    expect(on.sources["djen.enabled"]).toBe("DJEN_ENABLED");
    expect(errors(off)).toEqual([
      expect.stringMatching(
        /^djen\.totalTimeoutMs \(4000, from DJEN_TOTAL_TIMEOUT_MS\) is shorter than djen\.timeoutMs/,
      ),
    ]);
  });

  it("refuses a DJEN rate above 60 a minute, saying why", () => {
    const result = load({ DJEN_REQUESTS_PER_MINUTE: "100" });

    expect(errors(result)).toEqual([
      expect.stringMatching(
        /^DJEN_REQUESTS_PER_MINUTE \(djen\.requestsPerMinute\): must be at most 60 requests per minute, DJEN answers bursts/,
      ),
    ]);
  });

  it("never puts a secret in an error message", () => {
    const smtp = "http://mailer:hunter2-password@mail.example.com";
    const key = "ZGF0YWp1ZC1zZWNyZXQta2V5";
    const fs = {
      "/c.yaml": `datajud:\n  baseUrl: "${key}"\nmail:\n  smtpUrl: "${smtp}"\n`,
    };

    const result = load({ MONITOR_CONFIG: "/c.yaml", SMTP_URL: smtp, DATAJUD_API_KEY: key }, fs);

    const all = errors(result).join("\n");
    expect(all).toContain("SMTP_URL (mail.smtpUrl): is not an smtp:// or smtps:// URL");
    expect(all).not.toContain(key);
    expect(all).not.toContain("hunter2-password");
  });
});

describe("loadConfig: settings that may hold a credential, masked valid or not", () => {
  it("never shows a malformed heartbeat URL, from the environment or the config file", () => {
    const env = "htps://ping-user:hb-s3cret@hc-ping.example/5c0ffee0-uuid";
    const file = "https//ping-user:hb-f1le-secret@hc-ping.example/dead-beef-uuid";
    const fs = { "/c.yaml": `monitor:\n  heartbeatUrl: "${file}"\n` };

    const fromEnv = errors(load({ MONITOR_HEARTBEAT_URL: env }));
    const fromFile = errors(load({ MONITOR_CONFIG: "/c.yaml" }, fs));

    expect(fromEnv).toEqual([
      "MONITOR_HEARTBEAT_URL (monitor.heartbeatUrl): is not an http:// or https:// URL, like https://hc-ping.com/<uuid> (the value is not shown: it may hold a credential)",
    ]);
    expect(fromFile).toEqual([
      expect.stringMatching(/^\/c\.yaml:2:17 .*is not an http:\/\/ or https:\/\/ URL/),
    ]);
    for (const text of [...fromEnv, ...fromFile]) {
      expect(text).not.toMatch(/s3cret|f1le-secret|ping-user|5c0ffee0|dead-beef/);
    }
  });

  it("masks the user, password and query of a base URL it quotes, and redacts a valid one's password", () => {
    const result = errors(
      load({ DATAJUD_BASE_URL: "ftp://proxy-user:pr0xy-pass@proxy.example/?key=abc123" }),
    );
    const valid = ok(load({ DJEN_BASE_URL: "https://proxy-user:pr0xy-pass@proxy.example/" }));

    expect(result).toEqual([
      'DATAJUD_BASE_URL (datajud.baseUrl): "ftp://***@proxy.example/?***" is not an http(s) URL, like https://api-publica.datajud.cnj.jus.br',
    ]);
    expect(valid.secrets).toContain("pr0xy-pass");
    expect(valid.secrets).not.toContain("https://proxy-user:pr0xy-pass@proxy.example");
  });
});

describe("loadConfig: the HTTP server", () => {
  it("reads http.listen as host and port (127.0.0.1 when only a port), origins and the token", () => {
    const token = "a1b2c3d4e5f6a7b8c9d0";
    const fs = {
      "/c.yaml":
        'http:\n  listen: "8765"\n  allowedOrigins: [https://mcp.example.com]\n  allowedHosts: [mcp.example.com]\n',
      "/run/token": `${token}\n`,
    };

    const result = ok(load({ MONITOR_CONFIG: "/c.yaml", MCP_HTTP_TOKEN_FILE: "/run/token" }, fs));

    expect(result.config.http).toEqual({
      listen: { host: "127.0.0.1", port: 8765 },
      token,
      allowedOrigins: ["https://mcp.example.com"],
      allowedHosts: ["mcp.example.com"],
      maxBodyBytes: 1_048_576,
    });
    expect(result.secrets).toContain(token);
    expect(result.sources["http.token"]).toBe("MCP_HTTP_TOKEN_FILE (/run/token)");
  });

  it("refuses a listen address, an origin and a short token it cannot use, without showing the token", () => {
    const fs = {
      "/c.yaml": 'http:\n  listen: "::1:80"\n  allowedOrigins: ["https://x.example/path"]\n',
    };

    const all = errors(load({ MONITOR_CONFIG: "/c.yaml", MCP_HTTP_TOKEN: "short-secret" }, fs));

    expect(all).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/c\.yaml:2:11 .*is not \[HOST:\]PORT/),
        expect.stringMatching(/^\/c\.yaml:3:20 .*is not an origin/),
        expect.stringMatching(/MCP_HTTP_TOKEN \(http\.token\): must be at least 16 characters/),
      ]),
    );
    expect(all.join("\n")).not.toContain("short-secret");
  });

  it("refuses the token in a config file and says where it belongs", () => {
    const fs = { "/c.yaml": "http:\n  token: abcdefabcdefabcdef\n" };

    const all = errors(load({ MONITOR_CONFIG: "/c.yaml" }, fs));

    expect(all.join("\n")).toContain("set MCP_HTTP_TOKEN in the environment");
    expect(all.join("\n")).not.toContain("abcdefabcdefabcdef");
  });
});

describe("loadConfig: court closures (calendar.closures)", () => {
  it("reads a closure, one day when `to` is omitted, lower-casing the court", () => {
    const fs = {
      "/c.yaml": [
        "calendar:",
        "  closures:",
        "    - court: TJSP",
        '      from: "2026-03-10"',
        '      to: "2026-03-11"',
        "      effect: closed",
        "      reason: indisponibilidade do eSAJ",
        "      source: Comunicado CG 100/2026",
        "      url: https://www.tjsp.jus.br/",
        "      municipalities: [3550308]",
        "    - court: api_publica_trt2",
        "      from: 2026-04-06",
        "      effect: late-opening",
        "      reason: expediente a partir das 13h",
        "      source: Ato GP 5/2026",
        "",
      ].join("\n"),
    };

    const result = ok(load({ MONITOR_CONFIG: "/c.yaml" }, fs));

    expect(result.config.calendar.closures).toEqual([
      {
        court: "tjsp",
        municipalities: [3550308],
        from: "2026-03-10",
        to: "2026-03-11",
        effect: "closed",
        reason: "indisponibilidade do eSAJ",
        source: "Comunicado CG 100/2026",
        url: "https://www.tjsp.jus.br/",
      },
      {
        court: "trt2",
        municipalities: [],
        from: "2026-04-06",
        to: "2026-04-06",
        effect: "late-opening",
        reason: "expediente a partir das 13h",
        source: "Ato GP 5/2026",
        url: null,
      },
    ]);
  });

  it("refuses an unknown court, a date that is not one, a reversed range and a seat elsewhere, at their positions", () => {
    const fs = {
      "/c.yaml": [
        "calendar:",
        "  closures:",
        "    - court: tjps",
        '      from: "2026-02-30"',
        "      effect: closed",
        "      reason: x",
        "      source: y",
        "    - court: tjrj",
        '      from: "2026-03-11"',
        '      to: "2026-03-10"',
        "      effect: shut",
        "      reason: x",
        "      source: y",
        "      municipalities: [3550308]",
        "",
      ].join("\n"),
    };

    const messages = errors(load({ MONITOR_CONFIG: "/c.yaml" }, fs));

    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/c\.yaml:3:14 .*"tjps" is not a court this calendar knows/),
        expect.stringMatching(/^\/c\.yaml:4:13 .*"2026-02-30" is not a date; write YYYY-MM-DD/),
        expect.stringMatching(/^\/c\.yaml:11:15 /),
      ]),
    );
  });

  it("says when the range runs backwards or a seat is outside the court's state", () => {
    const fs = {
      "/c.yaml": [
        "calendar:",
        "  closures:",
        "    - court: tjrj",
        '      from: "2026-03-11"',
        '      to: "2026-03-10"',
        "      effect: closed",
        "      reason: x",
        "      source: y",
        "      municipalities: [3304557, 3550308]",
        "",
      ].join("\n"),
    };

    const messages = errors(load({ MONITOR_CONFIG: "/c.yaml" }, fs));

    expect(messages).toEqual([
      expect.stringMatching(/^\/c\.yaml:5:11 .*2026-03-10 is before from \(2026-03-11\)/),
      expect.stringMatching(/^\/c\.yaml:9:33 .*3550308 is in SP, where tjrj has no seat/),
    ]);
  });
});
