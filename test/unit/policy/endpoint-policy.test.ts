import { describe, expect, it } from "vitest";
import {
  type EndpointPolicy,
  endpointDelivery,
  endpointsFor,
} from "../../../src/policy/endpoint-policy.js";
import type { MailSettings } from "../../../src/policy/mail-policy.js";

const CASE_EVENTS = [
  "case.movement",
  "case.correction",
  "publication.published",
  "publication.cancelled",
];

function endpoint(overrides: Partial<EndpointPolicy>): EndpointPolicy {
  return {
    name: "equipe",
    channel: "slack",
    events: CASE_EVENTS,
    delivery: "instant",
    digestSchedule: null,
    quietHours: true,
    ...overrides,
  };
}

const FIRM = endpoint({
  name: "webhook",
  channel: "webhook",
  events: [...CASE_EVENTS, "operator.alert"],
  quietHours: false,
});
const SLACK = endpoint({});
const OPS = endpoint({ name: "ops", channel: "telegram", events: ["operator.alert"] });

// 22:00-07:00 in São Paulo (UTC-3); 2025-10-02T02:00Z is 23:00 local, inside.
const MAIL: MailSettings = {
  timezone: "America/Sao_Paulo",
  quietHours: { start: "22:00", end: "07:00" },
  urgentBypassesQuietHours: true,
  defaultDelivery: "instant",
};
const NIGHT = new Date("2025-10-02T02:00:00.000Z");
const MORNING_END = "2025-10-02T10:00:00.000Z";

describe("endpointsFor", () => {
  it("sends a case event to the firm-wide webhook and to the endpoints the case names", () => {
    const all = [FIRM, SLACK, OPS];

    expect(endpointsFor("case.movement", ["equipe"], all).map((e) => e.name)).toEqual([
      "webhook",
      "equipe",
    ]);
    expect(endpointsFor("case.movement", [], all).map((e) => e.name)).toEqual(["webhook"]);
  });

  it("sends operator alerts only to endpoints that take them, whatever the case's channels", () => {
    expect(
      endpointsFor("operator.alert", ["equipe"], [FIRM, SLACK, OPS]).map((e) => e.name),
    ).toEqual(["webhook", "ops"]);
  });

  it("never sends an endpoint an event type it does not take", () => {
    const publicationsOnly = endpoint({ name: "pubs", events: ["publication.published"] });

    expect(endpointsFor("case.movement", ["pubs"], [publicationsOnly])).toEqual([]);
  });
});

describe("endpointDelivery", () => {
  it("a webhook goes at once, even in quiet hours", () => {
    expect(endpointDelivery(FIRM, MAIL, false, NIGHT)).toEqual({ kind: "alert", notBefore: null });
  });

  it("a chat message waits for the end of quiet hours unless urgent, or unless it ignores them", () => {
    expect(endpointDelivery(SLACK, MAIL, false, NIGHT)).toEqual({
      kind: "alert",
      notBefore: MORNING_END,
    });
    expect(endpointDelivery(SLACK, MAIL, true, NIGHT)).toEqual({ kind: "alert", notBefore: null });
    expect(endpointDelivery(endpoint({ quietHours: false }), MAIL, false, NIGHT)).toEqual({
      kind: "alert",
      notBefore: null,
    });
  });

  it("a digest chat waits for its schedule (18:00 São Paulo = 21:00 UTC)", () => {
    const digest = endpoint({ delivery: "digest", digestSchedule: "0 18 * * *" });

    expect(endpointDelivery(digest, MAIL, false, new Date("2025-10-02T15:00:00.000Z"))).toEqual({
      kind: "digest",
      notBefore: "2025-10-02T21:00:00.000Z",
    });
  });
});
