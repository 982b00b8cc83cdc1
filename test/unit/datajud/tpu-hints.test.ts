import { describe, expect, it } from "vitest";
import { MovementHint } from "../../../src/datajud/instance-record.js";
import { movementHint, movementKind } from "../../../src/datajud/tpu-hints.js";
import { tables } from "../../../src/tpu/tables.js";

describe("the monitor's glosses (src/tpu/data/glosses.json)", () => {
  it("has one gloss per code of CNJ's table, each with both languages filled in", () => {
    const glosses = [...tables().glosses.values()];

    expect(glosses.length).toBeGreaterThanOrEqual(40);
    for (const gloss of glosses) {
      expect(tables().movements.has(gloss.code), String(gloss.code)).toBe(true);
      expect(gloss.name.trim()).not.toBe("");
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

  it("says a code CNJ's tables lack is unknown, and has nothing for no code", () => {
    const hints = [movementHint(999_999), movementHint(null)];

    expect(hints).toEqual([
      {
        pt: "Movimento de código 999999, não encontrado nas tabelas do CNJ: confira nos autos o que foi registrado.",
        en: "Movement code 999999 is not in CNJ's tables: check the record for what it records.",
      },
      null,
    ]);
  });

  it("reads a code the monitor has no words for by its place in CNJ's tree", () => {
    expect(movementHint(12749)?.pt).toBe(
      "Audiência de instrução (designada, realizada, redesignada, cancelada...; o complemento diz qual).",
    );
    expect(movementHint(200)?.pt).toBe(
      "Movimento da tabela do CNJ: Julgamento › Com Resolução do Mérito › Não-Acolhimento de Embargos de Declaração.",
    );
    expect(movementHint(14978)?.pt).toMatch(/^Foi levantada a suspensão/);
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

  it("says unknown for a code CNJ's tables lack whose name tells nothing, other without a code", () => {
    const kinds = [
      movementKind(999_999),
      movementKind(999_999, "xyz"),
      movementKind(null),
      movementKind(null, ""),
      movementKind(null, "xyz"),
    ];

    expect(kinds).toEqual(["unknown", "unknown", "other", "other", "other"]);
  });

  it("reads every code of CNJ's table by the tree, never by its name", () => {
    expect(movementKind(12749, "de Instrução")).toBe("hearing");
    expect(movementKind(12750, "xyz")).toBe("hearing");
    expect(
      movementKind(
        14978,
        "Suspensão/Sobrestamento Determinada por Decisão do Presidente do STJ - SIRDR",
      ),
    ).toBe("resumption");
    expect(movementKind(12098, "Incidente de Resolução de Demandas Repetitivas")).toBe(
      "suspension",
    );
    expect(movementKind(200, "Não-Acolhimento de Embargos de Declaração")).toBe("decision");
  });

  it("makes any movement with a hearing's situation a hearing, whatever its code", () => {
    expect(movementKind(60, "Expedição de documento", ["situacao_da_audiencia designada"])).toBe(
      "hearing",
    );
    expect(movementKind(999_999, "xyz", ["situacao_da_audiencia 15 cancelada"])).toBe("hearing");
  });
});
