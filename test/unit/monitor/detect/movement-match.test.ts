import { describe, expect, it } from "vitest";
import type { Movement } from "../../../../src/datajud/instance-record.js";
import { contentHash, legacyMovementIds } from "../../../../src/datajud/movement-identity.js";
import { normalizeInstanceRecord, normalizeMovement } from "../../../../src/datajud/normalize.js";
import { matchMovements } from "../../../../src/monitor/detect/movement-match.js";
import type { StoredMovement } from "../../../../src/store/movements.js";
import { storedMovements } from "../../../support/movement.js";

const PUBLICATION = {
  codigo: 92,
  nome: "Publicação",
  dataHora: "2025-11-04T00:15:00.000Z",
  complementosTabelados: [
    { codigo: 4, nome: "Intimação", valor: 1, descricao: "tipo_de_documento" },
    { codigo: 7, nome: "Diário", valor: 2, descricao: "meio" },
  ],
};
const EXPIRY = { codigo: 1051, nome: "Decurso de Prazo", dataHora: "2025-11-10T23:59:59.000Z" };

/** DataJud's movement list as the sweep receives it. */
function read(...raw: object[]): Movement[] {
  return normalizeInstanceRecord({ _id: "r", _source: { movimentos: raw } }, "tjdft").movements;
}

const stored = storedMovements;

function counts(plan: ReturnType<typeof matchMovements>): Record<string, number> {
  return {
    kept: plan.kept.length,
    reappeared: plan.reappeared.length,
    rekeyed: plan.rekeyed.length,
    filled: plan.filled.length,
    amended: plan.amended.length,
    redated: plan.redated.length,
    added: plan.added.length,
    disappeared: plan.disappeared.length,
  };
}

const NOTHING = {
  kept: 0,
  reappeared: 0,
  rekeyed: 0,
  filled: 0,
  amended: 0,
  redated: 0,
  added: 0,
  disappeared: 0,
};

describe("matchMovements: repeated movements are separate events", () => {
  it("matches the same answer copy for copy", () => {
    const before = read(PUBLICATION, EXPIRY, EXPIRY);

    const plan = matchMovements(stored(before), read(PUBLICATION, EXPIRY, EXPIRY));

    expect(counts(plan)).toEqual({ ...NOTHING, kept: 3 });
    expect(plan.movements.map((m) => m.id)).toEqual(before.map((m) => m.id));
  });

  it("alerts a new copy of a known movement once, as its next occurrence", () => {
    const before = read(PUBLICATION, EXPIRY, EXPIRY);

    const plan = matchMovements(stored(before), read(EXPIRY, PUBLICATION, EXPIRY, EXPIRY));

    expect(counts(plan)).toEqual({ ...NOTHING, kept: 3, added: 1 });
    expect(plan.added.map((m) => [m.name, m.occurrence])).toEqual([["Decurso de Prazo", 3]]);
  });

  it("records a copy that disappears, and its return, without alerting either", () => {
    const before = read(PUBLICATION, EXPIRY, EXPIRY);

    const gone = matchMovements(stored(before), read(PUBLICATION, EXPIRY));
    const back = matchMovements(stored(before, [3]), read(PUBLICATION, EXPIRY, EXPIRY));

    expect(counts(gone)).toEqual({ ...NOTHING, kept: 2, disappeared: 1 });
    expect(gone.disappeared.map((d) => d.movement.occurrence)).toEqual([2]);
    expect(counts(back)).toEqual({ ...NOTHING, kept: 2, reappeared: 1 });
  });
});

describe("matchMovements: the same movement, re-served, is not news", () => {
  const before = read(PUBLICATION, EXPIRY);

  it.each([
    [
      "complements in another order",
      { ...PUBLICATION, complementosTabelados: [...PUBLICATION.complementosTabelados].reverse() },
    ],
    ["the name in other case", { ...PUBLICATION, nome: "PUBLICAÇÃO" }],
    ["a double space and no accent", { ...PUBLICATION, nome: "Publicacao " }],
    ["the date without its zone", { ...PUBLICATION, dataHora: "2025-11-04T00:15:00" }],
    ["the date as dd/MM/yyyy HH:mm:ss", { ...PUBLICATION, dataHora: "04/11/2025 00:15:00" }],
    ["the date in compact form", { ...PUBLICATION, dataHora: "20251104001500" }],
  ])("keeps it with %s", (_, reserved) => {
    const plan = matchMovements(stored(before), read(reserved, EXPIRY));

    expect(counts(plan)).toEqual({ ...NOTHING, kept: 2 });
  });

  it("stores one more complement at the same code and time as an amendment, not as news", () => {
    const more = {
      ...PUBLICATION,
      complementosTabelados: [
        ...PUBLICATION.complementosTabelados,
        { codigo: 9, nome: "Prazo", valor: 15, descricao: "dias" },
      ],
    };

    const plan = matchMovements(stored(before), read(more, EXPIRY));

    expect(counts(plan)).toEqual({ ...NOTHING, kept: 1, amended: 1 });
    expect(plan.amended[0]?.before.complements).toHaveLength(2);
    expect(plan.amended[0]?.movement.complements).toHaveLength(3);
  });

  it("still alerts a different movement at the same code and time when the known one stays", () => {
    const other = { ...PUBLICATION, complementosTabelados: [] };

    const plan = matchMovements(stored(before), read(PUBLICATION, other, EXPIRY));

    expect(counts(plan)).toEqual({ ...NOTHING, kept: 2, added: 1 });
  });
});

describe("matchMovements: the same act at another time is a correction, not news", () => {
  it("matches a publication re-dated from 04/11 to 05/11 with the stored one", () => {
    const before = read(PUBLICATION, EXPIRY);

    const plan = matchMovements(
      stored(before),
      read({ ...PUBLICATION, dataHora: "2025-11-05T00:15:00.000Z" }, EXPIRY),
    );

    expect(counts(plan)).toEqual({ ...NOTHING, kept: 1, redated: 1 });
    expect(plan.redated[0]?.before.dateTime).toBe("2025-11-04T00:15:00");
    expect(plan.redated[0]?.movement.dateTime).toBe("2025-11-05T00:15:00");
  });

  it("pairs each re-dated copy with the stored copy nearest in time", () => {
    const early = { ...EXPIRY, dataHora: "2025-10-01T23:59:59.000Z" };
    const before = read(early, EXPIRY);

    const plan = matchMovements(
      stored(before),
      read(early, { ...EXPIRY, dataHora: "2025-11-12T23:59:59.000Z" }),
    );

    expect(counts(plan)).toEqual({ ...NOTHING, kept: 1, redated: 1 });
    expect(plan.redated[0]?.before.dateTime).toBe("2025-11-10T23:59:59");
  });

  it("alerts as new the same act when the stored copy was no longer listed before", () => {
    const before = read(PUBLICATION, EXPIRY);

    const plan = matchMovements(
      stored(before, [1]),
      read({ ...PUBLICATION, dataHora: "2025-11-05T00:15:00.000Z" }, EXPIRY),
    );

    expect(counts(plan)).toEqual({ ...NOTHING, kept: 1, added: 1 });
  });
});

describe("matchMovements: rows stored before the upgrade", () => {
  /** A row as schema 2 stored it: its hash id, its date as a UTC instant, no identity. */
  function legacyRow(m: Movement, rowId: number): StoredMovement {
    const [id] = legacyMovementIds(m);
    return {
      rowId,
      movementId: id ?? "",
      identity: null,
      occurrence: 1,
      code: m.code,
      dateTime: `${m.dateTime}.000Z`,
      disappeared: false,
      firstSeenAt: "2025-06-01T10:00:00.000Z",
      data: { ...m, id: id ?? "" },
    };
  }

  it("computes the id schema 2 stored: the content as sent, the date read as UTC", () => {
    const m = normalizeMovement(PUBLICATION);
    const complements = PUBLICATION.complementosTabelados.map((c) => ({
      code: c.codigo,
      name: c.nome,
      value: c.valor,
      description: c.descricao,
    }));

    const schema2 = contentHash([92, "Publicação", "2025-11-04T00:15:00.000Z", complements]);

    expect(m && legacyMovementIds(m)).toContain(schema2);
  });

  it("re-keys known rows silently, fills in the copies schema 2 collapsed, alerts only the new", () => {
    const fresh = read(PUBLICATION, EXPIRY, EXPIRY, EXPIRY);
    const [publication, expiry] = fresh;
    if (publication === undefined || expiry === undefined) throw new Error("fixture");
    const rows = [legacyRow(publication, 1), legacyRow(expiry, 2)];
    const sentence = { codigo: 219, nome: "Procedência", dataHora: "2025-11-20T16:00:00.000Z" };

    const plan = matchMovements(rows, read(PUBLICATION, EXPIRY, EXPIRY, EXPIRY, sentence));

    expect(counts(plan)).toEqual({ ...NOTHING, rekeyed: 2, filled: 2, added: 1 });
    expect(plan.filled.map((f) => [f.movement.occurrence, f.firstSeenAt])).toEqual([
      [2, "2025-06-01T10:00:00.000Z"],
      [3, "2025-06-01T10:00:00.000Z"],
    ]);
    expect(plan.added.map((m) => m.code)).toEqual([219]);
    expect(new Set(plan.movements.map((m) => m.id)).size).toBe(5);
  });

  it("recognises a movement schema 2 stored without the code and name nested under movimentoNacional", () => {
    const nested = {
      movimentoNacional: { codigoNacional: 92, descricao: "Publicação" },
      dataHora: "2025-11-04T00:15:00.000Z",
    };
    const m = normalizeMovement(nested);
    if (m === null) throw new Error("fixture");
    const schema2Id = contentHash([null, "", "2025-11-04T00:15:00.000Z", []]);
    const row = { ...legacyRow(m, 1), movementId: schema2Id, code: null };

    const plan = matchMovements([row], [m]);

    expect(counts(plan)).toEqual({ ...NOTHING, rekeyed: 1 });
  });
});
