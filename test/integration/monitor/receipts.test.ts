import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailTick } from "../../../src/monitor/mail-tick.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import { djenItem } from "../../fakes/fake-djen.js";
import { n } from "../../support/cli-harness.js";
import { type DjenSweep, type Mail, startDjenSweep } from "../../support/djen-sweep.js";

/*
 * The daily receipts (issue 36, docs/freshness.md) through the real sweep and the daemon's mail
 * tick against the fake DataJud and the fake DJEN, on a fake clock, São Paulo time (UTC-3):
 * - Ana (instant) asks for one at 18:00: a short e-mail of its own, once a day, also after a
 *   restart and more ticks and sweeps;
 * - Rui (a digest at 19:00) asks for one too: it comes in his digest, which on a quiet day holds
 *   nothing else;
 * - a day DJEN fails says which source failed for which case; a day with news says so.
 */

const ANA = "ana@example.com";
const RUI = "rui@example.com";
const despejo = n.tjdftDespejo;
const cobranca = n.tjspCobranca;
const digits = despejo.replace(/\D/gu, "");
const OTHER_LAWYER = [{ name: "BETO ADVOGADO", oab: "999", uf: "DF" }];

const WATCHLIST = `
defaults:
  notify: [${ANA}]
cases:
  - number: "${despejo}"
    label: "Despejo"
    notify: [${RUI}]
  - number: "${cobranca}"
    label: "Cobrança"
watchers:
  - address: ${ANA}
    receipt: "18:00"
    oab: ["123456/SP"]
  - address: ${RUI}
    delivery: digest
    digest_schedule: "0 19 * * *"
    receipt: true
`;

let harness: DjenSweep;
const clock = new FakeClock({ now: Date.UTC(2025, 9, 1, 13, 0), autoAdvance: true });

/** São Paulo wall time `hhmm` on `day`, as an instant (UTC-3, no daylight saving in 2025). */
function at(day: string, hhmm: string): number {
  const [h, m] = hhmm.split(":").map(Number);
  return Date.parse(`${day}T00:00:00.000Z`) + ((h ?? 0) + 3) * 3_600_000 + (m ?? 0) * 60_000;
}

async function sweep(day: string, hhmm: string): Promise<Mail[]> {
  clock.set(at(day, hhmm));
  const before = harness.sink.messages.length;
  await harness.sweep();
  return harness.mailsSince(before);
}

async function tick(day: string, hhmm: string): Promise<Mail[]> {
  clock.set(at(day, hhmm));
  const before = harness.sink.messages.length;
  await mailTick(harness.monitor.mail);
  return harness.mailsSince(before);
}

function receipts(mails: readonly Mail[], to: string): Mail[] {
  return mails.filter((m) => m.to === to && m.subject.includes("Verificado"));
}

beforeAll(async () => {
  harness = await startDjenSweep({
    prefix: "monitor-receipts-",
    apiKey: "receipts-key",
    watchlist: WATCHLIST,
    config:
      'schedule:\n  startJitterSeconds: 0\nmail:\n  from: "Monitor <monitor@monitor.example.com>"\n',
    clock,
  });
  harness.djen.setItems([
    djenItem({ id: 7001, caseNumber: digits, date: "2025-09-30", lawyers: OTHER_LAWYER }),
  ]);
}, 60_000);

afterAll(async () => {
  await harness?.close();
});

describe("daily receipts", () => {
  it("mails Ana's at 18:00, 'verificado, nada novo', listing what was checked and when", async () => {
    const morning = await sweep("2025-10-01", "10:00");
    expect(receipts(morning, ANA)).toEqual([]);
    expect(receipts(await tick("2025-10-01", "17:59"), ANA)).toEqual([]);

    const evening = await tick("2025-10-01", "18:00");

    const mine = receipts(evening, ANA);
    expect(mine.map((m) => m.subject)).toEqual([
      "[datajud] Verificado, nada novo: 2 processos e 1 registro da OAB (01/10/2025)",
    ]);
    const text = mine[0]?.text ?? "";
    expect(text).toContain(
      "Verificado, nada novo: 2 processos e 1 registro da OAB verificados entre 30/09/2025 18:00 e 01/10/2025 18:00.",
    );
    expect(text).toContain(`1. ${despejo} · TJDFT (Despejo)`);
    expect(text).toContain(`2. ${cobranca} · TJSP (Cobrança)`);
    expect(text).toContain(
      "3. OAB 123456/SP\n   DJEN: 1 consulta, a última resposta completa em 01/10/2025 10:00",
    );
    expect(text).toContain("DataJud: 1 consulta, a última em 01/10/2025 10:00, atualizado em");
    expect(text).toContain("DJEN: 1 consulta, a última resposta completa em 01/10/2025 10:00");
    expect(text).not.toContain("Fontes atrasadas ou falhando");
    expect(mine[0]?.html).toContain("Verificação diária de 01/10/2025");
  }, 60_000);

  it("puts Rui's in his 19:00 digest, which on a quiet day holds only the receipt", async () => {
    expect(receipts(await tick("2025-10-01", "18:30"), RUI)).toEqual([]);

    const digest = receipts(await tick("2025-10-01", "19:00"), RUI);

    expect(digest.map((m) => m.subject)).toEqual([
      "[datajud] Verificado, nada novo: 1 processo (01/10/2025)",
    ]);
    expect(digest[0]?.text).toContain("VERIFICAÇÃO DIÁRIA DE 01/10/2025");
    expect(digest[0]?.text).toContain(`1. ${despejo} · TJDFT (Despejo)`);
    expect(digest[0]?.text).not.toContain(cobranca);
  }, 60_000);

  it("is sent once a day per watcher, also across a restart", async () => {
    await harness.reopen();
    const again = [
      ...(await tick("2025-10-01", "19:30")),
      ...(await sweep("2025-10-01", "20:00")),
      ...(await tick("2025-10-01", "23:59")),
    ];
    expect(receipts(again, ANA)).toEqual([]);
    expect(receipts(again, RUI)).toEqual([]);
    const rows = harness.monitor.db
      .prepare<[], { n: number }>("SELECT count(*) AS n FROM outbox WHERE message_type = 'receipt'")
      .get();
    expect(rows?.n).toBe(2);
  }, 60_000);

  it("is not made for a day before the monitor watched anything", () => {
    const days = harness.monitor.db
      .prepare<[], { key: string }>(
        "SELECT dedupe_key AS key FROM outbox WHERE message_type = 'receipt' ORDER BY id",
      )
      .all()
      .map((r) => r.key);
    // The first sweep, at 10:00 on 1 October, made no receipt of 30 September.
    expect(days).toEqual([`receipt:2025-10-01:${ANA}`, `receipt:2025-10-01:${RUI}`]);
  });

  it("names the source that failed, for each case, on a day DJEN fails", async () => {
    harness.djen.failAlways({ status: 500, body: { message: "erro interno" } });
    await sweep("2025-10-02", "10:00");
    await sweep("2025-10-02", "14:00");
    harness.djen.failAlways(null);

    const mine = receipts(await tick("2025-10-02", "18:05"), ANA);

    expect(mine.map((m) => m.subject)).toEqual([
      "[datajud] Verificado, nada novo: 2 processos e 1 registro da OAB, 3 com fonte atrasada ou falhando (02/10/2025)",
    ]);
    const text = mine[0]?.text ?? "";
    expect(text).toContain("Fontes atrasadas ou falhando:");
    expect(text).toMatch(
      new RegExp(
        `- ${despejo.replace(/\./gu, "\\.")} · TJDFT \\(Despejo\\): DJEN falhou na última consulta: `,
        "u",
      ),
    );
    // Three DataJud checks in the period (20:00 the day before, 10:00, 14:00), two DJEN failures.
    expect(text).toContain("DataJud: 3 consultas, a última em 02/10/2025 14:00");
    expect(text).toContain("DJEN: 3 consultas, a última resposta completa em 01/10/2025 20:00");
  }, 60_000);

  it("says a day had news, already sent", async () => {
    harness.djen.add(
      djenItem({ id: 7002, caseNumber: digits, date: "2025-10-03", lawyers: OTHER_LAWYER }),
    );
    const news = await sweep("2025-10-03", "10:00");
    expect(news.filter((m) => m.to === ANA && !m.subject.includes("Verificado"))).toHaveLength(1);

    const mine = receipts(await tick("2025-10-03", "18:00"), ANA);

    expect(mine.map((m) => m.subject)).toEqual([
      "[datajud] Verificado: 2 processos e 1 registro da OAB, 1 com novidades (03/10/2025)",
    ]);
    expect(mine[0]?.text).toContain("1 processo com novidades, já enviadas.");
    expect(mine[0]?.text).toContain(`1. ${despejo} · TJDFT (Despejo) · com novidades`);
  }, 60_000);

  it("sends a day's receipt whose hour passed while the monitor was down when it is back", async () => {
    // Down from 17:00 on the 4th to 09:00 on the 5th: the 4th's receipt at the 5th's first sweep.
    await harness.reopen();
    const back = receipts(await sweep("2025-10-05", "09:00"), ANA);

    expect(back.map((m) => m.subject)).toEqual([
      "[datajud] Verificado, nada novo: 2 processos e 1 registro da OAB (04/10/2025)",
    ]);
    expect(back[0]?.text).toContain("entre 03/10/2025 18:00 e 05/10/2025 09:00");
    expect(receipts(await tick("2025-10-05", "12:00"), ANA)).toEqual([]);
  }, 60_000);
});
