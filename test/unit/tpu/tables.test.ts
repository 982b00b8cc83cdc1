import { describe, expect, it } from "vitest";
import { branchOf, classAncestors, classesSource, className } from "../../../src/tpu/classes.js";
import {
  ancestors,
  descendantsOf,
  isDescendantOf,
  isHearingCode,
  kindOf,
  movementEntry,
  movementPath,
  movementsSource,
} from "../../../src/tpu/movements.js";
import { loadTables, tables } from "../../../src/tpu/tables.js";

describe("CNJ's movement table as vendored", () => {
  it("holds every code with its parent chain up to 1 Magistrado or 14 Serventuário", () => {
    const { movements } = tables();
    const roots = new Set(movements.items.map((i) => ancestors(i.code).at(-1) ?? i.code));

    expect(movements.items.length).toBeGreaterThanOrEqual(964);
    expect([...roots].sort((a, b) => a - b)).toEqual([1, 14]);
  });

  it("agrees with CNJ's tree on a sample of codes", () => {
    expect([12740, 12749, 12750, 12624].map((c) => movementEntry(c)?.parent)).toEqual([
      970, 970, 970, 970,
    ]);
    expect(movementEntry(12749)?.name).toBe("de Instrução");
    expect(movementEntry(12750)?.name).toBe("de Instrução e Julgamento");
    expect(ancestors(12265)).toEqual([12264, 12263, 48, 14]);
    expect(ancestors(219)).toEqual([385, 193, 1]);
    expect(movementPath(12266)).toEqual([
      "Escrivão/Diretor de Secretaria/Secretário Jurídico",
      "Intimação",
      "Eletrônica",
      "Confirmada",
    ]);
  });

  it("keys by code, never by name: 198 and 15162 share a name under different parents", () => {
    const [a, b] = [movementEntry(198), movementEntry(15162)];

    expect(a?.name).toBe(b?.name);
    expect([a?.parent, b?.parent]).toEqual([385, 3]);
    expect([isDescendantOf(198, 193), isDescendantOf(15162, 193)]).toEqual([true, false]);
  });

  it("says where it came from and how old it is", () => {
    const source = movementsSource();

    expect(source.url).toBe(
      "https://gateway.cloud.pje.jus.br/tpu/api/v1/publico/download/movimentos",
    );
    expect(source.via).toMatch(/hsigstad\/diarios/);
    expect(source.newestItem >= "2025-09-11").toBe(true);
    expect(classesSource().url).toMatch(/download\/classes$/);
  });
});

describe("a movement's kind, by its place in the tree", () => {
  it("gives every code of the table a kind", () => {
    const without = tables().movements.items.filter((i) => kindOf(i.code) === null);

    expect(without).toEqual([]);
  });

  it("makes every descendant of Audiência a hearing", () => {
    const hearings = descendantsOf(970);

    expect(hearings).toEqual(expect.arrayContaining([12624, 12740, 12749, 12750, 15569]));
    expect(hearings.filter((c) => !isHearingCode(c))).toEqual([]);
    expect(isHearingCode(970)).toBe(true);
  });

  it("makes the suspension family suspensions, and their lifting a resumption", () => {
    expect([25, 265, 272, 898, 12098, 12099, 12100, 12065, 11025].map(kindOf)).toEqual(
      Array(9).fill("suspension"),
    );
    // 14975-14985 sit under 14974 "Levantamento da Causa Suspensiva ou de Sobrestamento": each
    // names the stay lifted by its cause (14978 SIRDR by the STJ's President).
    expect(movementEntry(14978)?.parent).toBe(14974);
    expect([14974, 14975, 14978, 14985, 12066, 12067].map(kindOf)).toEqual(
      Array(6).fill("resumption"),
    );
  });

  it("reads judgments and decisions by their branch, with the law's exceptions", () => {
    expect([219, 220, 221, 466, 196, 193, 12187].map(kindOf)).toEqual(Array(7).fill("sentence"));
    expect([237, 238, 239, 235, 972, 12435].map(kindOf)).toEqual(Array(6).fill("judgment"));
    expect([3, 12164, 941, 394, 198, 200, 871, 15162, 15164].map(kindOf)).toEqual(
      Array(9).fill("decision"),
    );
    expect(kindOf(11382)).toBe("execution");
    expect([11009, 11010, 60, 85, 581].map(kindOf)).toEqual(Array(5).fill("routine"));
  });

  it("has no kind for a code CNJ's table does not hold", () => {
    expect([kindOf(999_999), kindOf(null)]).toEqual([null, null]);
  });
});

describe("CNJ's class table", () => {
  it("names each class and its branch of justice by its place in the tree", () => {
    expect(className(7)).toBe("Procedimento Comum Cível");
    expect(classAncestors(7)).toEqual([1107, 1106, 2]);
    expect(
      [7, 156, 1116, 436, 460, 14695, 985, 1009, 283, 10943, 299, 386, 1720, 1032].map(branchOf),
    ).toEqual([
      "civil",
      "civil",
      "civil",
      "juizado",
      "juizado",
      "juizado",
      "labour",
      "labour",
      "criminal",
      "criminal",
      "criminal",
      "criminal",
      "criminal",
      "superior",
    ]);
    expect(branchOf(999_999)).toBeNull();
  });

  it("gives every class of the table a branch", () => {
    const without = tables().classes.items.filter((i) => branchOf(i.code) === null);

    expect(without.map((i) => i.code)).toEqual([]);
  });
});

describe("loadTables", () => {
  const source = {
    publisher: "CNJ",
    url: "https://example.org/t",
    licence: "public",
    retrieved: "2026-01-01",
    newestItem: "2026-01-01",
  };
  const item = (code: number, parent: number | null) => ({
    code,
    parent,
    name: `item ${code}`,
    active: true,
    version: "2026-01-01",
  });
  const tablesWith = (movements: unknown[], kinds: unknown[]) => () =>
    loadTables({
      movements: { table: "movements", source, items: movements },
      classes: { table: "classes", source, items: [item(2, null)] },
      kinds: { about: "", rules: kinds },
      branches: { about: "", rules: [{ code: 2, branch: "civil", why: "" }] },
    });

  it("refuses a parent the table lacks, and a rule for a code it lacks, saying which", () => {
    expect(tablesWith([item(1, null), item(3, 9)], [])).toThrow(/parent 9 of code 3/);
    expect(tablesWith([item(1, null)], [{ code: 5, kind: "decision", why: "" }])).toThrow(
      /movement-kinds.json: no code 5/,
    );
    expect(tablesWith([{ ...item(1, null), name: "" }], [])).toThrow(
      /movements.json: items.0.name/,
    );
  });

  it("takes the nearest rule of a code's lineage", () => {
    const t = tablesWith(
      [item(1, null), item(3, 1), item(25, 3), item(265, 25)],
      [
        { code: 1, kind: "decision", why: "" },
        { code: 25, kind: "suspension", why: "" },
      ],
    )();

    expect(t.movements.lineage(265)).toEqual([265, 25, 3, 1]);
    expect(t.kindRules.get(25)).toBe("suspension");
  });
});
