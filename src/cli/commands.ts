import { calendarCommand, calendarTokenCommand } from "./calendar.js";
import type { Command } from "./command.js";
import { daemonCommand } from "./daemon.js";
import { dbCommand } from "./db.js";
import { demoCommand } from "./demo.js";
import { doctorCommand } from "./doctor.js";
import { endpointCommand } from "./endpoint.js";
import { exportCommand } from "./export.js";
import { historyCommand } from "./history.js";
import { mcpCommand } from "./mcp.js";
import { prazoCommand } from "./prazo.js";
import { proofCommand } from "./proof.js";
import { radarCommand } from "./radar.js";
import { runOnceCommand } from "./run-once.js";
import { statusCommand } from "./status.js";
import { testEmailCommand } from "./test-email.js";
import { testNotifyCommand } from "./test-notify.js";
import { validateCommand } from "./validate.js";
import { watchCommand } from "./watch.js";

/** Every command, in the order `monitor --help` lists them. */
export const COMMANDS: readonly Command[] = [
  runOnceCommand,
  daemonCommand,
  statusCommand,
  historyCommand,
  radarCommand,
  exportCommand,
  proofCommand,
  calendarCommand,
  calendarTokenCommand,
  prazoCommand,
  validateCommand,
  watchCommand,
  doctorCommand,
  testEmailCommand,
  testNotifyCommand,
  endpointCommand,
  dbCommand,
  mcpCommand,
  demoCommand,
];
