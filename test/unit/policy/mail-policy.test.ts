import { describe, expect, it } from "vitest";
import { NO_ALERT_POLICY } from "../../../src/policy/alert-rules.js";
import {
  alertDelivery,
  deliveryOf,
  type MailSettings,
  mailPolicy,
} from "../../../src/policy/mail-policy.js";
import { parseWatchlist, type Watchlist } from "../../../src/watchlist/parse-watchlist.js";

const SETTINGS: MailSettings = {
  timezone: "America/Sao_Paulo",
  quietHours: { start: "20:00", end: "07:30" },
  urgentBypassesQuietHours: true,
  defaultDelivery: "instant",
};

function watchlist(): Watchlist {
  const parsed = parseWatchlist(
    [
      "defaults:",
      "  notify: [ana@example.com, Rui@Example.com, bia@example.com]",
      "cases:",
      '  - number: "0713383-43.2025.8.07.0006"',
      "    muted: true",
      "watchers:",
      "  - address: Rui@Example.com",
      "    delivery: digest",
      '    digest_schedule: "0 18 * * 1-5"',
      "  - address: bia@example.com",
      "    delivery: digest",
      "",
    ].join("\n"),
    "watchlist.yaml",
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.watchlist;
}

/** São Paulo local time (UTC-3) on Tuesday 3 March 2026. */
const tuesday = (hour: number, minute = 0): Date =>
  new Date(Date.UTC(2026, 2, 3, hour + 3, minute));

describe("mailPolicy", () => {
  it("finds a case's rules by number and court, and none for a case not in the watchlist", () => {
    const policy = mailPolicy(watchlist(), SETTINGS);

    expect(policy.casePolicy("07133834320258070006", "tjdft").muted).toBe(true);
    expect(policy.casePolicy("07133834320258070006", "stj")).toEqual(NO_ALERT_POLICY);
  });
});

describe("alertDelivery", () => {
  it("sends an unlisted watcher's alert now, or at the end of quiet hours", () => {
    const policy = mailPolicy(watchlist(), SETTINGS);

    const day = alertDelivery(policy, "ana@example.com", false, tuesday(12));
    const night = alertDelivery(policy, "ana@example.com", false, tuesday(22));

    expect(day).toEqual({ kind: "alert", notBefore: null });
    expect(night).toEqual({ kind: "alert", notBefore: "2026-03-04T10:30:00.000Z" });
  });

  it("puts a digest watcher's alert in the digest at its next hour, matching the address in any case", () => {
    const policy = mailPolicy(watchlist(), SETTINGS);

    const scheduled = alertDelivery(policy, "rui@example.com", false, tuesday(12));
    const afterEverySweep = alertDelivery(policy, "bia@example.com", false, tuesday(12));

    expect(scheduled).toEqual({ kind: "digest", notBefore: "2026-03-03T21:00:00.000Z" });
    expect(afterEverySweep).toEqual({ kind: "digest", notBefore: null });
  });

  it("lets an urgent alert through quiet hours only when the setting allows", () => {
    const bypass = mailPolicy(watchlist(), SETTINGS);
    const strict = mailPolicy(watchlist(), { ...SETTINGS, urgentBypassesQuietHours: false });

    expect(alertDelivery(bypass, "ana@example.com", true, tuesday(22)).notBefore).toBeNull();
    expect(alertDelivery(strict, "ana@example.com", true, tuesday(22)).notBefore).toBe(
      "2026-03-04T10:30:00.000Z",
    );
  });

  it("uses mail.mode for watchers the watchlist does not list", () => {
    const policy = mailPolicy(watchlist(), { ...SETTINGS, defaultDelivery: "digest" });

    expect(alertDelivery(policy, "ana@example.com", false, tuesday(12))).toEqual({
      kind: "digest",
      notBefore: null,
    });
  });
});

describe("deliveryOf: one rule for every message the outbox queues", () => {
  const night = tuesday(22);
  const morning = "2026-03-04T10:30:00.000Z";

  it("holds an alert as its watcher gets alerts: quiet hours, digests, urgent crossing", () => {
    const policy = mailPolicy(watchlist(), SETTINGS);

    expect(deliveryOf(policy, "ana@example.com", { rule: "alert", urgent: false }, night)).toEqual({
      kind: "alert",
      notBefore: morning,
    });
    expect(deliveryOf(policy, "ana@example.com", { rule: "alert", urgent: true }, night)).toEqual({
      kind: "alert",
      notBefore: null,
    });
    expect(
      deliveryOf(policy, "bia@example.com", { rule: "alert", urgent: false }, tuesday(12)),
    ).toEqual({ kind: "digest", notBefore: null });
  });

  it("holds a status report by quiet hours but never puts it in a digest", () => {
    const policy = mailPolicy(watchlist(), SETTINGS);

    expect(deliveryOf(policy, "bia@example.com", { rule: "after-quiet-hours" }, night)).toEqual({
      kind: "alert",
      notBefore: morning,
    });
    expect(
      deliveryOf(policy, "bia@example.com", { rule: "after-quiet-hours" }, tuesday(12)),
    ).toEqual({ kind: "alert", notBefore: null });
  });

  it("sends operator mail and tests at once, and everything at once without a policy", () => {
    const policy = mailPolicy(watchlist(), SETTINGS);

    expect(deliveryOf(policy, "bia@example.com", { rule: "now" }, night)).toEqual({
      kind: "alert",
      notBefore: null,
    });
    expect(
      deliveryOf(undefined, "bia@example.com", { rule: "alert", urgent: false }, night),
    ).toEqual({ kind: "alert", notBefore: null });
  });
});
