import { storeFailure } from "../store/database.js";
import { suggestName, terminalText } from "../text.js";
import {
  type CliIo,
  type Command,
  EXIT,
  helpText,
  PROGRAM,
  parseCommandArgs,
  programOf,
  UsageError,
} from "./command.js";
import { COMMANDS } from "./commands.js";

const VERSION = "0.1.0";

function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const lines = [
    `usage: ${PROGRAM} <command> [options]`,
    "",
    "Watches Brazilian court cases through CNJ's DataJud and emails what changed.",
    `(\`monitor\` is the same command, kept as an alias; use \`npx ${PROGRAM}\` outside the checkout.)`,
    "",
    "commands:",
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    `Run \`${PROGRAM} <command> --help\` for a command's options.`,
  ];
  return `${lines.join("\n")}\n`;
}

function usageLine(command?: Command): string {
  return command
    ? `usage: ${command.usage}\n`
    : `usage: ${PROGRAM} <command> [options] (${PROGRAM} --help lists the commands)\n`;
}

/** The whole CLI as a function of its inputs, so tests can run it without a subprocess. */
export async function runCli(io: CliIo): Promise<number> {
  const [name, ...rest] = io.argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    const target = name === "help" ? COMMANDS.find((c) => c.name === rest[0]) : undefined;
    io.stdout.write(target ? helpText(target) : overview());
    return EXIT.ok;
  }
  if (name === "--version" || name === "-V") {
    io.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    const suggestion = suggestName(
      name,
      COMMANDS.map((c) => c.name),
    );
    const hint = suggestion === undefined ? "" : `; did you mean "${suggestion}"?`;
    io.stderr.write(`${PROGRAM}: unknown command "${terminalText(name)}"${hint}\n${usageLine()}`);
    return EXIT.usage;
  }
  let args: ReturnType<typeof parseCommandArgs>;
  try {
    args = parseCommandArgs(command, rest);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(
      `${programOf(io)} ${command.name}: ${terminalText(error.message)}\n${usageLine(command)}`,
    );
    return EXIT.usage;
  }
  if (args.values.help === true) {
    io.stdout.write(helpText(command));
    return EXIT.ok;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(
        `${programOf(io)} ${command.name}: ${terminalText(error.message)}\n${usageLine(command)}`,
      );
      return EXIT.usage;
    }
    // The database is full (a runtime failure), or unusable as configured (a bad path, no write
    // access, a newer schema, not a database, an old SQLite).
    const store = storeFailure(error);
    if (store !== null) {
      io.stderr.write(`${programOf(io)} ${command.name}: ${terminalText(store.message)}\n`);
      return store.retryable ? EXIT.failures : EXIT.usage;
    }
    throw error;
  }
}
