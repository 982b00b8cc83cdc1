import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeSlack, startFakeSlack } from "../../fakes/fake-chat.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import { djenItem } from "../../fakes/fake-djen.js";
import {
  type FakeWebhookReceiver,
  startFakeWebhookReceiver,
} from "../../fakes/fake-webhook-receiver.js";
import { cliInProcess, fixtureDoc, n } from "../../support/cli-harness.js";
import { type DjenSweep, type Mail, startDjenSweep } from "../../support/djen-sweep.js";
import type { FixtureDoc } from "../../support/fixtures.js";

/*
 * Freshness beyond e-mail (issue 36), through the real sweep against the fake DataJud and the fake
 * DJEN on a fake clock, with the firm's webhook (default events), a system's webhook that asks
 * for case.checked and publication.missing, and a Slack channel:
 * - a publication's event carries `sources`, as its e-mail carries the "Fontes:" line;
 * - a DataJud disponibilização DJEN did not return reaches the webhooks as publication.missing
 *   and Slack as an urgent message, once, beside the lawyer's e-mail;
 * - case.checked: one per case per day to the endpoint that asks for it, whatever the number of
 *   sweeps that day, none to the firm's webhook (not among the default events).
 */

const ANA = "ana@example.com";
const SECRET = `whsec_${Buffer.alloc(32, 5).toString("base64")}`;
const despejo = n.tjdftDespejo;
const digits = despejo.replace(/\D/gu, "");
const OTHER_LAWYER = [{ name: "BETO ADVOGADO", oab: "999", uf: "DF" }];

const WATCHLIST = `
defaults:
  notify: [${ANA}]
  channels: [equipe, sistema]
cases:
  - number: "${despejo}"
    label: "Despejo"
`;

const CONFIG = `
schedule:
  startJitterSeconds: 0
mail:
  from: "Monitor <monitor@monitor.example.com>"
notify:
  endpoints:
    equipe: { channel: slack, urlVariable: SLACK_URL, quietHours: false }
    sistema:
      channel: webhook
      urlVariable: SISTEMA_URL
      secretVariable: WEBHOOK_SECRET
      events: [case.checked, publication.missing]
`;

interface Event {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

let harness: DjenSweep;
let receiver: FakeWebhookReceiver;
let slack: FakeSlack;
let doc: FixtureDoc;
const clock = new FakeClock({ now: Date.UTC(2025, 9, 1, 13, 0), autoAdvance: true });

/** A sweep at `time` (UTC) on `day`; the e-mails it sent. */
async function sweepAt(day: string, time = "13:00"): Promise<Mail[]> {
  clock.set(Date.parse(`${day}T${time}:00.000Z`));
  const before = harness.sink.messages.length;
  await harness.sweep();
  return harness.mailsSince(before);
}

function events(type: string): Event[] {
  return (receiver.events as Event[]).filter((e) => e.type === type);
}

/** The outbox rows of one endpoint, by message type. */
function rowsOf(recipient: string, messageType: string): Array<{ dedupeKey: string }> {
  return harness.monitor.db
    .prepare<[string, string], { dedupeKey: string }>(
      `SELECT dedupe_key AS dedupeKey FROM outbox WHERE recipient = ? AND message_type = ?
       ORDER BY id`,
    )
    .all(recipient, messageType);
}

beforeAll(async () => {
  receiver = await startFakeWebhookReceiver({
    secret: SECRET,
    nowSeconds: () => Math.floor(clock.now() / 1000),
  });
  slack = await startFakeSlack();
  harness = await startDjenSweep({
    prefix: "monitor-freshness-channels-",
    apiKey: "freshness-channels-key",
    watchlist: WATCHLIST,
    config: CONFIG,
    env: {
      WEBHOOK_URL: receiver.url,
      WEBHOOK_SECRET: SECRET,
      SISTEMA_URL: receiver.url,
      SLACK_URL: slack.url,
    },
    clock,
  });
  doc = fixtureDoc("tjdft", despejo);
  // The first look: DataJud's baseline and DJEN's item of the case already there, told nobody.
  harness.djen.setItems([
    djenItem({ id: 6001, caseNumber: digits, date: "2025-09-30", lawyers: OTHER_LAWYER }),
  ]);
  await sweepAt("2025-10-01");
}, 60_000);

afterAll(async () => {
  await harness?.close();
  await Promise.all([receiver?.close(), slack?.close()]);
});

describe("freshness on webhooks and chat", () => {
  it("gives a publication's event the sources its e-mail's footer states", async () => {
    harness.djen.add(
      djenItem({ id: 6002, caseNumber: digits, date: "2025-10-02", lawyers: OTHER_LAWYER }),
    );
    const mails = await sweepAt("2025-10-02");

    const footer = mails.find((m) => m.to === ANA)?.text ?? "";
    expect(footer).toContain("Fontes: DataJud atualizado em");
    const published = events("publication.published");
    expect(published).toHaveLength(1);
    expect(published[0]?.data.sources).toEqual({
      datajud: { updatedAt: expect.any(String) },
      djen: { askedAt: "2025-10-02T13:00:00.000Z" },
      dataJudLate: false,
    });
  }, 60_000);

  it("tells a DJEN miss to the webhooks as publication.missing and to Slack, once each", async () => {
    (doc._source.movimentos as unknown[]).push({
      codigo: 1061,
      nome: "Disponibilização no Diário da Justiça Eletrônico",
      dataHora: "2025-10-06T09:00:00.000Z",
    });
    doc._source.dataHoraUltimaAtualizacao = "2025-10-07T08:00:00.000Z";
    harness.datajud.upsert("tjdft", structuredClone(doc));

    const mails = await sweepAt("2025-10-07");
    await sweepAt("2025-10-08");

    expect(
      mails.filter((m) => m.subject.includes("Intimação no DataJud sem publicação no DJEN")),
    ).toHaveLength(1);
    // The firm's webhook (default events) and the system's (it asks for it): one event each.
    const missing = events("publication.missing");
    expect(missing).toHaveLength(2);
    expect(new Set(missing.map((e) => e.id)).size).toBe(2);
    expect(missing[0]?.data).toMatchObject({
      case: { number: despejo, court: "tjdft", label: "Despejo" },
      urgent: true,
      summary:
        "O DataJud registra uma intimação disponibilizada em 06/10/2025 que o DJEN não devolveu: confira no tribunal.",
      availableOn: "2025-10-06",
      djenAskedAt: "2025-10-07T13:00:00.000Z",
      // The court's wall clock, as DataJud wrote it (its Z is not UTC), never shifted.
      sources: { datajud: { updatedAt: "2025-10-07T08:00:00" } },
    });
    const chat = slack.messages.filter((m) => m.text.includes("sem publicação no DJEN"));
    expect(chat).toHaveLength(1);
    expect(chat[0]?.text).toContain("URGENTE");
    expect(chat[0]?.text).toContain("06/10/2025");
  }, 60_000);

  it("sends case.checked once per case per day to the endpoint that asks, and no other", async () => {
    // Two sweeps on 9 October, one on the 10th; 1, 2, 7 and 8 October had one each.
    await sweepAt("2025-10-09", "12:00");
    await sweepAt("2025-10-09", "18:00");
    await sweepAt("2025-10-10");

    const checked = events("case.checked");
    const days = checked.map((e) => e.data.day);
    expect(days).toEqual([
      "2025-10-01",
      "2025-10-02",
      "2025-10-07",
      "2025-10-08",
      "2025-10-09",
      "2025-10-10",
    ]);
    expect(rowsOf("sistema", "case-checked")).toHaveLength(6);
    expect(rowsOf("webhook", "case-checked")).toEqual([]);
    expect(rowsOf("equipe", "case-checked")).toEqual([]);
    // The first sweep of the 9th: DataJud checked at 12:00 UTC, DJEN asked, both fresh.
    const ninth = checked[4];
    expect(ninth?.data).toMatchObject({
      case: { number: despejo, court: "tjdft", label: "Despejo" },
      outcome: "ok",
      datajud: { checkedAt: expect.stringMatching(/^2025-10-09T12:00/u), outcome: "unchanged" },
      djen: { checkedAt: expect.stringMatching(/^2025-10-09T12:00/u), outcome: "ok" },
      instances: [{ instance: "G1", updatedAt: "2025-10-07T08:00:00" }],
      sources: { djen: { askedAt: expect.stringMatching(/^2025-10-09T12:00/u) } },
    });
  }, 60_000);

  it("leaves each case.checked delivery in the case's record of watching", async () => {
    const run = await cliInProcess(["proof", despejo], harness.env, harness.dir);
    expect(run.code).toBe(0);
    const entries = (
      JSON.parse(run.stdout) as {
        entries: Array<{ kind: string; source: string; query: string; outcome: string }>;
      }
    ).entries.filter((e) => e.kind === "delivery" && e.query === "sistema");
    // publication.missing once, and case.checked on six days: each queued, then sent.
    expect(entries.filter((e) => e.outcome === "queued")).toHaveLength(7);
    expect(entries.filter((e) => e.outcome === "sent")).toHaveLength(7);
    expect(new Set(entries.map((e) => e.source))).toEqual(new Set(["webhook"]));
  }, 60_000);

  it("says a failed check failed", async () => {
    harness.datajud.failAlways({ status: 503, body: { error: "maintenance" } });
    await sweepAt("2025-10-13");
    harness.datajud.failAlways(null);
    await sweepAt("2025-10-13", "18:00");

    const monday = events("case.checked").filter((e) => e.data.day === "2025-10-13");
    expect(monday).toHaveLength(1);
    expect(monday[0]?.data).toMatchObject({
      outcome: "failed",
      datajud: { outcome: "failed", error: expect.stringContaining("503") },
    });
  }, 60_000);
});
