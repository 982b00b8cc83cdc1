import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../../src/cli/run-cli.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import type { FakeDataJud } from "../../fakes/fake-datajud.js";
import { djenItem, type FakeDjen, startFakeDjen } from "../../fakes/fake-djen.js";
import {
  type FakeWebhookReceiver,
  startFakeWebhookReceiver,
} from "../../fakes/fake-webhook-receiver.js";
import {
  baseEnv,
  emlFiles,
  moveCase,
  n,
  startDataJud,
  type Workspace,
  workspace,
} from "../../support/cli-harness.js";
import { captureIo } from "../../support/cli-io.js";
import { readIcs } from "../../support/ics-reader.js";

/*
 * Issue 34: a sentence DataJud lists without its publication is dated from the case's DJEN
 * intimação of it, through the whole pipeline (fake DJEN and DataJud -> run-once -> mail and
 * webhook). DJEN makes the sentença available on Mon 14/12/2026; DataJud lists the sentence (TPU
 * 219, of Fri 11/12) in the next sweep, with no gazette movement.
 *
 * By hand (December 2026: Mon 14, Tue 15, Wed 16, Thu 17, Fri 18; January 2027: Thu 21, Fri 22,
 * Mon 25 ... Fri 29; February: Mon 01 ... Fri 05): published Tue 15/12, the count starts Wed 16/12
 * (Lei 11.419/2006 art. 4 §§ 3-4). Periods do not run from 20/12 to 20/01 (CPC art. 220).
 * - embargos de declaração, 5 dias úteis (CPC art. 1.023): 16, 17, 18/12 (3), 21, 22/01 (5) ->
 *   Fri 22/01/2027;
 * - apelação, 15 dias úteis (CPC art. 1.003 § 5): 16-18/12 (3), 21-22/01 (5), 25-29/01 (10),
 *   01-05/02 (15) -> Fri 05/02/2027 (Carnaval 2027 falls on 08-09/02, after it).
 * The sentença's own text gives 15 days to leave the property: the same 15 dias úteis from the
 * same intimação, Fri 05/02/2027, one event in the calendar feed with the apelação's.
 */

const DESPEJO = n.tjdftDespejo.replace(/\D/gu, "");
const SECRET = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;

let datajud: FakeDataJud;
let djen: FakeDjen;
let receiver: FakeWebhookReceiver;
let ws: Workspace;
let env: Record<string, string>;
const clock = new FakeClock({ now: Date.UTC(2026, 11, 14, 15, 0), autoAdvance: true });

async function runOnceAt(utc: number): Promise<void> {
  clock.set(Math.max(clock.now(), utc));
  const io = captureIo(env, ws.dir, ["run-once", "--json"], clock);
  expect(await runCli(io)).toBe(0);
}

beforeAll(async () => {
  datajud = await startDataJud("act-deadlines-djen-key");
  djen = await startFakeDjen();
  receiver = await startFakeWebhookReceiver({
    secret: SECRET,
    nowSeconds: () => Math.floor(clock.now() / 1000),
  });
  ws = workspace("act-deadlines-djen-", [n.tjdftDespejo]);
  const config = join(ws.dir, "monitor.yaml");
  writeFileSync(config, "schedule:\n  startJitterSeconds: 0\n");
  env = baseEnv(ws, datajud, {
    MONITOR_CONFIG: config,
    DJEN_ENABLED: "true",
    DJEN_BASE_URL: djen.url,
    DJEN_MAX_ATTEMPTS: "1",
    DJEN_CASE_EVERY_HOURS: "0",
    DJEN_OAB_EVERY_HOURS: "0",
    WEBHOOK_URL: receiver.url,
    WEBHOOK_SECRET: SECRET,
  });
  // 1. Mon 14/12 12:00 in São Paulo: the baselines.
  await runOnceAt(Date.UTC(2026, 11, 14, 15, 0));
  // 2. DJEN: the sentença made available on Mon 14/12 (and a despacho, which is not it).
  djen.setItems([
    djenItem({
      id: 8101,
      date: "2026-12-14",
      caseNumber: DESPEJO,
      documentType: "Despacho",
      texto: "<p>Intimem-se as partes.</p>",
    }),
    djenItem({
      id: 8102,
      date: "2026-12-14",
      caseNumber: DESPEJO,
      documentType: "Sentença",
      texto:
        "<p>SENTENÇA. Ante o exposto, JULGO PROCEDENTE o pedido e decreto o despejo. Desocupe o réu o imóvel no prazo de 15 (quinze) dias. Intimem-se.</p>",
    }),
  ]);
  await runOnceAt(Date.UTC(2026, 11, 15, 13, 0));
  // 3. DataJud lists the sentence of Fri 11/12, with no gazette movement.
  moveCase(datajud, "tjdft", n.tjdftDespejo, {
    codigo: 219,
    nome: "Procedência",
    dataHora: "2026-12-11T16:00:00.000Z",
  });
  await runOnceAt(Date.UTC(2026, 11, 15, 19, 0));
}, 60_000);

afterAll(async () => {
  await Promise.all([djen?.close(), datajud?.close(), receiver?.close()]);
});

describe("a sentence dated from its DJEN intimação, through a sweep", () => {
  it("opens the DataJud alert with the sentence, its publication and each period's last day", async () => {
    const parsed = await Promise.all(emlFiles(ws).map((raw) => simpleParser(raw)));
    const movement = parsed.filter((m) => (m.text ?? "").includes("MOVIMENTAÇÕES NOVAS"));
    expect(movement).toHaveLength(1);
    const text = movement[0]?.text ?? "";
    expect(text).toContain(
      "- Sentença (Julgado procedente o pedido) em 11/12/2026, 1º grau (G1); publicação considerada feita em 15/12/2026 (intimação no DJEN disponibilizada em 14/12/2026).",
    );
    expect(text).toContain(
      "- Até 22/01/2027 (sexta-feira): embargos de declaração (5 dias úteis; CPC, art. 1.023; dias úteis, art. 219)\n- Até 05/02/2027 (sexta-feira): apelação (15 dias úteis; CPC, art. 1.003, § 5º; dias úteis, art. 219)",
    );
    expect(text).toContain(
      "prazos suspensos de 20/12 a 20/01, 20/12/2026 a 20/01/2027 (CPC, art. 220)",
    );
    expect(text.match(/Calendário do tribunal: /gu)).toHaveLength(1);
    expect(text.indexOf("O QUE FAZER E ATÉ QUANDO")).toBeLessThan(
      text.indexOf("MOVIMENTAÇÕES NOVAS"),
    );
  });

  it("gives the webhook event the act's dates", () => {
    const events = receiver.events as Array<{
      type: string;
      data: {
        acts?: Array<{ publishedOn: string | null; periods: Array<{ lastDay: string | null }> }>;
        opening?: { todo: string[] };
      };
    }>;
    const movement = events.filter((e) => e.type === "case.movement");
    expect(movement).toHaveLength(1);
    const data = movement[0]?.data;
    expect(data?.acts?.[0]?.publishedOn).toBe("2026-12-15");
    expect(data?.acts?.[0]?.periods.map((p) => p.lastDay)).toEqual(["2027-02-05", "2027-01-22"]);
    expect(data?.opening?.todo[0]).toMatch(/^Até 22\/01\/2027 \(sexta-feira\): embargos/u);
  });
});

describe("the sentence's dated periods in the calendar feed", () => {
  it("are one event per period, the DJEN item's same period folded into the act's", async () => {
    const io = captureIo(env, ws.dir, ["calendar", "--watcher", "ana@example.com"], clock);
    expect(await runCli(io)).toBe(0);
    const events = readIcs(io.out()).events;

    expect(events.map((e) => [e.start, e.summary, e.sequence])).toEqual([
      [
        "2027-01-22",
        "Último dia do prazo (embargos de declaração, 5 dias úteis), estimativa: 0713383-43.2025.8.07.0006",
        0,
      ],
      [
        "2027-02-05",
        "Último dia do prazo (apelação, 15 dias úteis), estimativa: 0713383-43.2025.8.07.0006",
        0,
      ],
    ]);
    const apelacao = events[1]?.description ?? "";
    expect(apelacao).toContain(
      "Publicação considerada feita em 15/12/2026 (terça-feira) (intimação no DJEN disponibilizada em 14/12/2026); o prazo conta de 16/12/2026 (quarta-feira). Regra: Intimação",
    );
    expect(apelacao).toContain(
      "A mesma intimação está no DJEN (publicação 8102): o prazo do texto termina no mesmo dia.",
    );
    expect(apelacao).toContain("prazos suspensos de 20/12 a 20/01");
    expect(apelacao).toContain("ESTIMATIVA");
    expect(events.every((e) => e.allDay && e.transparency === "TRANSPARENT")).toBe(true);
  });
});
