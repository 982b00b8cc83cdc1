import { endpointStatuses } from "../policy/endpoint-status.js";
import { closeDatabase, immediate } from "../store/database.js";
import { enableEndpoint, endpointStates } from "../store/endpoint-state.js";
import { endpointOutbox } from "../store/outbox.js";
import { terminalText } from "../text.js";
import { isoNow } from "../time/clock.js";
import { type Command, EXIT, programOf, systemOf, UsageError } from "./command.js";
import { loadRuntime, openRecordedDatabase } from "./runtime.js";
import { endpointLine } from "./status.js";
import { setTelegramWebhook } from "./telegram-webhook.js";
import { readableOutput } from "./terminal.js";

/*
 * `datajud-monitor endpoint`: each webhook and chat endpoint's state, and enabling one again
 * after a 410 Gone disabled it (or after alerts to it were given up). The state lives in the
 * database, so a restart never enables an endpoint by itself.
 */

export const endpointCommand: Command = {
  name: "endpoint",
  summary: "Webhook and chat endpoints: their state, and enabling one a 410 disabled",
  usage: "datajud-monitor endpoint list | enable NAME | telegram-webhook NAME",
  details: [
    "list     every endpoint: disabled, dead, retrying or ok; its alerts pending, retrying, dead and",
    "         delivered; the last error (never its URL, token or secret)",
    "enable   NAME sends to the endpoint again: a 410 Gone disabled it until a person says so.",
    "         Fix the endpoint first (a new URL in its variable, an unarchived channel); alerts",
    "         given up meanwhile stay given up. datajud-monitor test-notify NAME tries it.",
    'telegram-webhook  NAME points the telegram endpoint\'s bot at the daemon, so replies "ciente"',
    "         acknowledge urgent alerts (TELEGRAM_WEBHOOK_SECRET, acknowledgement.publicBaseUrl).",
    "NAME is the endpoint's key in notify.endpoints, or webhook for WEBHOOK_URL.",
    "Exit codes: 0 done, 1 NAME is neither disabled nor configured, or Telegram refused the webhook;",
    "2 bad usage or config (for telegram-webhook: links, the secret or the endpoint missing), or no database yet.",
  ],
  options: {},
  allowPositionals: true,
  async run(args, io) {
    const [action, name, ...rest] = args.positionals;
    if (action !== "list" && action !== "enable" && action !== "telegram-webhook") {
      throw new UsageError(
        action === undefined
          ? "say what to do: list, enable NAME or telegram-webhook NAME"
          : `unknown action "${action}"`,
      );
    }
    if (action !== "list" && (name === undefined || name.trim() === "")) {
      throw new UsageError(
        `${action} needs the endpoint's NAME (see datajud-monitor endpoint list)`,
      );
    }
    const extra = action === "list" ? [name, ...rest] : rest;
    if (extra[0] !== undefined) throw new UsageError(`unexpected argument "${extra[0]}"`);
    const runtime = loadRuntime(io, "endpoint");
    if (!runtime) return EXIT.usage;
    if (action === "telegram-webhook") return setTelegramWebhook(runtime, (name ?? "").trim(), io);
    const db = openRecordedDatabase(io, runtime, "endpoint");
    if (db === null) return EXIT.usage;
    try {
      if (action === "list") {
        const out = readableOutput(io.stdout);
        const statuses = endpointStatuses(
          runtime.config.notify.declared,
          endpointOutbox(db),
          endpointStates(db),
        );
        if (statuses.length === 0) {
          out.write("no webhook or chat endpoint is configured (WEBHOOK_URL, notify.endpoints)\n");
        }
        for (const e of statuses) {
          out.write(`${endpointLine(e, runtime.config.schedule.timezone)}\n`);
        }
        return EXIT.ok;
      }
      const wanted = (name ?? "").trim();
      const was = immediate(db, () => enableEndpoint(db, wanted));
      const configured = runtime.config.notify.declared.some((e) => e.name === wanted);
      const shown = terminalText(wanted);
      if (was.length === 0) {
        io.stderr.write(
          `${programOf(io)} endpoint: "${shown}" is not disabled or dead${configured ? "" : ", nor configured (see datajud-monitor endpoint list)"}\n`,
        );
        return configured ? EXIT.ok : EXIT.failures;
      }
      const at = isoNow(systemOf(io).clock);
      io.stdout.write(
        `enabled ${was.join(", ")} endpoint "${shown}" at ${at}: alerts queued from now on are sent to it\n`,
      );
      if (!configured) {
        io.stderr.write(
          `"${shown}" is not in the configuration now: nothing is sent to it until it is\n`,
        );
      }
      return EXIT.ok;
    } finally {
      closeDatabase(db);
    }
  },
};
