import { z } from "zod";
import { AlertContent } from "../render/alert-content.js";
import { AcknowledgementNotice, CorrectionNotice } from "../render/build-event.js";
import { CaseChecked } from "../render/case-checked.js";
import { DjenGapWarning } from "../render/djen-gap.js";
import { EscalationNotice } from "../render/escalation.js";
import { AdminAlert } from "../render/operator-mail.js";
import { PublicationAlertContent } from "../render/publication-alert.js";
import { Receipt } from "../render/receipt.js";
import { StatusReport } from "../render/status-report.js";

/*
 * What an outbox row carries, named in the row when it is queued (migration 018, `message_type`)
 * and read back through that type's schema: a drain never guesses a stored message's type by
 * trying schemas in turn. One payload schema per type; a new kind of message is a type here
 * (and its messages.ts constructor names it).
 */

export const MESSAGE_TYPES = [
  "movement",
  "correction",
  "publication",
  "operator",
  "status-report",
  "djen-gap",
  "case-checked",
  "receipt",
  "acknowledgement",
  "escalation",
] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

/** A stored message, read through the schema of the type its row names. */
export type StoredMessage =
  | { type: "movement"; content: AlertContent }
  | { type: "correction"; notice: CorrectionNotice }
  | { type: "publication"; content: PublicationAlertContent }
  | { type: "operator"; alert: AdminAlert }
  | { type: "status-report"; report: StatusReport }
  | { type: "djen-gap"; warning: DjenGapWarning }
  | { type: "case-checked"; checked: CaseChecked }
  | { type: "receipt"; receipt: Receipt }
  | { type: "acknowledgement"; notice: AcknowledgementNotice }
  | { type: "escalation"; notice: EscalationNotice };

const WORDS: Record<MessageType, string> = {
  movement: "a movement alert",
  correction: "a case correction",
  publication: "a publication alert",
  operator: "an operator alert",
  "status-report": "a status report",
  "djen-gap": "a DJEN gap warning",
  "case-checked": "a case.checked event",
  receipt: "a daily receipt",
  acknowledgement: "an acknowledgement",
  escalation: "an escalation step",
};

function parsed<T>(
  schema: z.ZodType<T>,
  payload: unknown,
  type: MessageType,
): { ok: true; data: T } | { ok: false; error: string } {
  const result = schema.safeParse(payload);
  return result.success
    ? { ok: true, data: result.data }
    : { ok: false, error: `the stored payload is not ${WORDS[type]}; it cannot be sent` };
}

/** The message a row holds, read as its stored type says; an error a person can read if not. */
export function readStoredMessage(
  type: string,
  payload: unknown,
): { ok: true; message: StoredMessage } | { ok: false; error: string } {
  const known = z.enum(MESSAGE_TYPES).safeParse(type);
  if (!known.success) {
    return { ok: false, error: `unknown message type "${type.slice(0, 20)}"; it cannot be sent` };
  }
  switch (known.data) {
    case "movement": {
      const r = parsed(AlertContent, payload, "movement");
      return r.ok ? { ok: true, message: { type: "movement", content: r.data } } : r;
    }
    case "correction": {
      const r = parsed(CorrectionNotice, payload, "correction");
      return r.ok ? { ok: true, message: { type: "correction", notice: r.data } } : r;
    }
    case "publication": {
      const r = parsed(PublicationAlertContent, payload, "publication");
      return r.ok ? { ok: true, message: { type: "publication", content: r.data } } : r;
    }
    case "operator": {
      const r = parsed(AdminAlert, payload, "operator");
      return r.ok ? { ok: true, message: { type: "operator", alert: r.data } } : r;
    }
    case "status-report": {
      const r = parsed(StatusReport, payload, "status-report");
      return r.ok ? { ok: true, message: { type: "status-report", report: r.data } } : r;
    }
    case "djen-gap": {
      const r = parsed(DjenGapWarning, payload, "djen-gap");
      return r.ok ? { ok: true, message: { type: "djen-gap", warning: r.data } } : r;
    }
    case "case-checked": {
      const r = parsed(CaseChecked, payload, "case-checked");
      return r.ok ? { ok: true, message: { type: "case-checked", checked: r.data } } : r;
    }
    case "receipt": {
      const r = parsed(Receipt, payload, "receipt");
      return r.ok ? { ok: true, message: { type: "receipt", receipt: r.data } } : r;
    }
    case "acknowledgement": {
      const r = parsed(AcknowledgementNotice, payload, "acknowledgement");
      return r.ok ? { ok: true, message: { type: "acknowledgement", notice: r.data } } : r;
    }
    case "escalation": {
      const r = parsed(EscalationNotice, payload, "escalation");
      return r.ok ? { ok: true, message: { type: "escalation", notice: r.data } } : r;
    }
  }
}
