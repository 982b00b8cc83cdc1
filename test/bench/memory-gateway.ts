/**
 * A DataJud gateway that answers from memory with the bench's synthetic documents: for the rows
 * that measure the monitor's own work and the database (history, exports), not HTTP or MCP.
 */
import type { InstanceFingerprint, InstanceRecord } from "../../src/datajud/instance-record.js";
import {
  caseFingerprint,
  normalizeFingerprint,
  normalizeInstanceRecord,
} from "../../src/datajud/normalize.js";
import type { DataJudGateway } from "../../src/monitor/detect/datajud-gateway.js";
import type { WatchedCase } from "../../src/watchlist/parse-watchlist.js";
import { documentFor } from "./bench-data.js";

/**
 * `extra[i]`: the movements case `i` gained beyond the initial ones (the caller moves it);
 * `now`: the simulated time each answer says it was fetched at.
 */
export function memoryGateway(
  watchlist: readonly WatchedCase[],
  extra: readonly number[],
  now: () => number,
): DataJudGateway {
  const indexOf = new Map(watchlist.map((c, i) => [c.number, i]));
  const fingerprints = new Map<number, { extra: number; instance: InstanceFingerprint }>();
  const fingerprintOfCase = (i: number): InstanceFingerprint => {
    const cached = fingerprints.get(i);
    if (cached !== undefined && cached.extra === extra[i]) return cached.instance;
    const doc = documentFor(i, extra[i]);
    const { movimentos: _movements, ...rest } = doc._source;
    const instance = normalizeFingerprint({ _id: doc._id, _source: rest });
    fingerprints.set(i, { extra: extra[i] ?? 0, instance });
    return instance;
  };
  const provenance = (court: string): { index: string; url: string; fetchedAt: string } => {
    const index = `api_publica_${court}`;
    return { index, url: `http://fake/${index}/_search`, fetchedAt: new Date(now()).toISOString() };
  };
  return {
    fingerprint: async (court, numbers) =>
      numbers.map((number) => {
        const instance = fingerprintOfCase(indexOf.get(number) ?? -1);
        return {
          cnjNumber: number,
          court,
          found: true,
          fingerprint: caseFingerprint([instance]),
          instances: [instance],
          provenance: provenance(court),
        };
      }),
    read: async (court, numbers) =>
      numbers.map((number) => {
        const i = indexOf.get(number) ?? -1;
        const record: InstanceRecord = normalizeInstanceRecord(documentFor(i, extra[i]), court);
        return {
          cnjNumber: number,
          court,
          found: true,
          records: [record],
          provenance: provenance(court),
          error: null,
        };
      }),
  };
}
