/**
 * The fake DataJud in its own process, so the monitor's measured memory holds none of the fake's
 * documents. Driven over IPC by run.ts: `ready` once listening, then `change`, `latency`,
 * `fixed-latency`, `hostile`, `stats`, `close`.
 */
import { startFakeDataJud } from "../fakes/fake-datajud.js";
import {
  changedIndices,
  courtOf,
  documentFor,
  hostileDocumentFor,
  seededRandom,
} from "./bench-data.js";

export type FakeCommand =
  | { type: "change"; share: number; extra: number }
  | { type: "latency"; minMs: number; maxMs: number; seed: number; requests: number }
  /** Every answer from now on waits `ms` (0 for none). */
  | { type: "fixed-latency"; ms: number }
  | { type: "stats" }
  | { type: "hostile"; movements: number; nameBytes: number }
  | { type: "close" };

export type FakeReply =
  | { type: "ready"; url: string }
  | { type: "changed"; cases: number }
  | { type: "latency-set" }
  | { type: "hostile-set" }
  /** `maxInFlight`: the most requests in flight at once since the last `stats`. */
  | { type: "stats"; requests: number; maxInFlight: number };

const cases = Number(process.env.BENCH_CASES ?? "1000");
const fake = await startFakeDataJud({ apiKey: "bench" });
const byCourt = new Map<string, ReturnType<typeof documentFor>[]>();
for (let i = 0; i < cases; i++) {
  const alias = courtOf(i).alias;
  const list = byCourt.get(alias) ?? [];
  list.push(documentFor(i));
  byCourt.set(alias, list);
}
for (const [alias, docs] of byCourt) fake.setDocuments(alias, docs);
byCourt.clear();

function reply(message: FakeReply): void {
  process.send?.(message);
}

process.on("message", (command: FakeCommand) => {
  switch (command.type) {
    case "change": {
      const touched = changedIndices(cases, command.share);
      for (const i of touched) fake.upsert(courtOf(i).alias, documentFor(i, command.extra));
      reply({ type: "changed", cases: touched.length });
      return;
    }
    case "latency": {
      // One queued delay per request, consumed in order: a random 1-3 s answer time each.
      const random = seededRandom(command.seed);
      const span = command.maxMs - command.minMs;
      for (let n = 0; n < command.requests; n++) {
        fake.failNext({ delayMs: command.minMs + Math.round(random() * span) });
      }
      reply({ type: "latency-set" });
      return;
    }
    case "fixed-latency":
      fake.latencyMs = command.ms;
      reply({ type: "latency-set" });
      return;
    case "hostile":
      fake.upsert(courtOf(0).alias, hostileDocumentFor(0, command.movements, command.nameBytes));
      reply({ type: "hostile-set" });
      return;
    case "stats":
      reply({ type: "stats", requests: fake.requests.length, maxInFlight: fake.maxInFlight });
      fake.maxInFlight = 0;
      return;
    case "close":
      void fake.close().then(() => process.exit(0));
      return;
  }
});
reply({ type: "ready", url: fake.url });
