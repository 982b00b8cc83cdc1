import { describe, expect, it } from "vitest";
import { MovementHint } from "../../../src/datajud/instance-record.js";
import { movementHint, movementKind, TPU_ENTRIES } from "../../../src/datajud/tpu-hints.js";

describe("TPU_ENTRIES", () => {
  it("has one entry per code, each with both languages filled in", () => {
    const codes = TPU_ENTRIES.map((e) => e.code);

    expect(new Set(codes).size).toBe(codes.length);
    expect(TPU_ENTRIES.length).toBeGreaterThanOrEqual(40);
    for (const entry of TPU_ENTRIES) {
      expect(Number.isInteger(entry.code) && entry.code > 0).toBe(true);
      expect(entry.name.trim()).not.toBe("");
      expect(entry.pt.trim().length).toBeGreaterThan(5);
      expect(entry.en.trim().length).toBeGreaterThan(5);
    }
  });

  it("classifies the codes that matter most for a lawyer", () => {
    const kinds = Object.fromEntries(
      [
        26, 51, 60, 85, 92, 123, 219, 220, 221, 237, 239, 246, 848, 861, 893, 898, 970, 1051, 11009,
        11010, 12164, 12265,
      ].map((code) => [code, movementKind(code)]),
    );

    expect(kinds).toEqual({
      26: "distribution",
      51: "conclusion",
      60: "routine",
      85: "routine",
      92: "publication",
      123: "remittance",
      219: "sentence",
      220: "sentence",
      221: "sentence",
      237: "judgment",
      239: "judgment",
      246: "archiving",
      848: "final_judgment",
      861: "archiving",
      893: "unarchiving",
      898: "suspension",
      970: "hearing",
      1051: "deadline",
      11009: "routine",
      11010: "routine",
      12164: "decision",
      12265: "intimation",
    });
  });
});

/**
 * The 40 codes most frequent in ../shared/real-datajud/hits.json (1,036 movements), most frequent
 * first; src/datajud/tpu-hints.ts says how they were counted.
 */
const MOST_FREQUENT_REAL_CODES = [
  60, 85, 1051, 132, 11383, 51, 118, 1061, 92, 581, 12164, 123, 493, 985, 12265, 26, 12266, 11010,
  12444, 36, 12282, 106, 245, 272, 12099, 22, 135, 970, 12115, 12205, 12614, 12740, 83, 219, 220,
  239, 394, 848, 871, 941,
];

describe("the TPU codes real records use most", () => {
  it("all have a hint", () => {
    const missing = MOST_FREQUENT_REAL_CODES.filter((code) => movementHint(code) === null);

    expect(MOST_FREQUENT_REAL_CODES).toHaveLength(40);
    expect(missing).toEqual([]);
  });

  it("call a publication a publication, never an intimação, unless the movement says so", () => {
    const hints = [movementHint(92)?.pt ?? "", movementHint(1061)?.pt ?? ""];

    expect(hints.join(" ")).not.toMatch(/intima/i);
    expect(movementKind(92, "Publicação")).toBe("publication");
    expect(movementKind(1061)).toBe("publication");
    expect(movementKind(null, "Disponibilizado no DJe o despacho")).toBe("publication");
    expect(movementKind(92, "Publicação", ["tipo_de_documento Intimação"])).toBe("intimation");
    expect(movementKind(null, "Publicada intimação das partes")).toBe("intimation");
    expect(movementKind(60, "Expedição de documento", ["tipo_de_documento Intimação"])).toBe(
      "intimation",
    );
    expect(movementKind(60, "Expedição de documento", ["tipo_de_documento Certidão"])).toBe(
      "routine",
    );
  });

  it("take a session listing for a session, not a hearing, and say what matters for it", () => {
    expect([12104, 12105, 12115].map((c) => movementKind(c))).toEqual([
      "session",
      "session",
      "session",
    ]);
    expect([12203, 12205].map((c) => movementKind(c))).toEqual([
      "session_change",
      "session_change",
    ]);
    expect(movementKind(null, "Inclusão em pauta virtual")).toBe("session");
    expect(movementKind(null, "Retirado de pauta")).toBe("session_change");
    expect(movementKind(null, "Audiência de instrução designada")).toBe("hearing");
    expect(movementHint(12105)?.pt).toMatch(/não é audiência/);
    expect(movementHint(12105)?.pt).toMatch(/memoriais/);
    expect(movementHint(12104)?.pt).toMatch(/sustentação oral/);
  });
});

describe("movementHint", () => {
  it("gives the plain-language meaning of a known code in the instance-record shape", () => {
    const hint = movementHint(848);

    expect(MovementHint.parse(hint)).toEqual(hint);
    expect(hint?.pt).toContain("Trânsito em julgado");
    expect(hint?.en).toMatch(/appeal/i);
  });

  it("returns null for unknown codes and for no code", () => {
    const hints = [movementHint(999_999), movementHint(null)];

    expect(hints).toEqual([null, null]);
  });
});

describe("movementKind", () => {
  it("lets a known code decide even when the name says something else", () => {
    const kind = movementKind(848, "Conclusão");

    expect(kind).toBe("final_judgment");
  });

  it("falls back to the name when the code is unknown or missing", () => {
    const cases: [number | null, string, string][] = [
      [null, "Sentença", "sentence"],
      [999_001, "Julgado procedente o pedido", "sentence"],
      [999_002, "Decisão interlocutória", "decision"],
      [999_003, "Expedição de mandado de citação", "citation"],
      [999_004, "Intimação eletrônica", "intimation"],
      [999_005, "Audiência de conciliação designada", "hearing"],
      [999_006, "Transitado em julgado", "final_judgment"],
      [999_007, "Arquivado definitivamente", "archiving"],
      [999_008, "Desarquivamento", "unarchiving"],
      [999_009, "Conclusos para sentença", "conclusion"],
      [999_010, "Juntada de petição", "routine"],
      [999_011, "Expedição de ofício", "routine"],
      [999_012, "Acórdão", "judgment"],
      [999_013, "Recurso provido", "judgment"],
      [999_014, "Interposição de recurso de apelação", "appeal"],
      [999_015, "Decorrido prazo de recurso", "deadline"],
      [999_016, "Processo suspenso", "suspension"],
      [999_017, "Penhora realizada", "execution"],
      [999_018, "Extinção da execução", "sentence"],
      [999_019, "Remessa ao Tribunal de Justiça", "remittance"],
      [999_020, "Redistribuído por sorteio", "distribution"],
      [999_021, "Homologação de acordo", "sentence"],
      [999_022, "Petição inicial", "filing"],
      [999_023, "Cumprimento de sentença iniciado", "execution"],
    ];

    const kinds = cases.map(([code, name]) => movementKind(code, name));

    expect(kinds).toEqual(cases.map(([, , kind]) => kind));
  });

  it("ignores case and accents in names", () => {
    const kinds = [
      movementKind(null, "SENTENÇA"),
      movementKind(null, "sentenca"),
      movementKind(null, "TRÂNSITO EM JULGADO"),
      movementKind(null, "transito em julgado"),
      movementKind(null, "Audiencia"),
      movementKind(null, "INTIMAÇÃO"),
      movementKind(null, "decisao"),
      movementKind(null, "Citacao"),
    ];

    expect(kinds).toEqual([
      "sentence",
      "sentence",
      "final_judgment",
      "final_judgment",
      "hearing",
      "intimation",
      "decision",
      "citation",
    ]);
  });

  it("does not mistake look-alike words", () => {
    const kinds = [
      movementKind(null, "Solicitação de informações"),
      movementKind(null, "Determinada providência"),
      movementKind(null, "República"),
    ];

    expect(kinds).toEqual(["other", "other", "other"]);
  });

  it("says other when neither code nor name tells", () => {
    const kinds = [
      movementKind(999_999),
      movementKind(null),
      movementKind(null, ""),
      movementKind(null, "xyz"),
    ];

    expect(kinds).toEqual(["other", "other", "other", "other"]);
  });
});
