import { describe, expect, it } from "vitest";
import type { InstanceRecord, Movement } from "../../../src/datajud/instance-record.js";
import { normalizeMovement } from "../../../src/datajud/normalize.js";
import {
  actAttention,
  earlierDesignation,
  hearingUrgency,
} from "../../../src/summarize/act-reading.js";
import { isHearing, movementTitle } from "../../../src/summarize/movement-reading.js";

/*
 * Hearings by their place in CNJ's tree: every code under 970 Audiência (12749 instrução, 12750
 * instrução e julgamento), and any movement whose complement states a hearing's situation. The
 * complements are DataJud's own (tjto's 12740: situacao_da_audiencia codigo 15, valor 9
 * "designada", 13 "realizada").
 */

const SITUATION_VALUE: Record<string, number> = {
  designada: 9,
  realizada: 13,
  cancelada: 3,
  redesignada: 10,
  antecipada: 1,
};

function hearing(
  codigo: number,
  nome: string,
  dataHora: string,
  situation: string,
  text?: string,
): Movement {
  const m = normalizeMovement({
    codigo,
    nome,
    dataHora,
    complementosTabelados: [
      {
        codigo: 15,
        valor: text ?? SITUATION_VALUE[situation] ?? 0,
        nome: situation,
        descricao: "situacao_da_audiencia",
      },
    ],
  });
  if (m === null) throw new Error("test movement unreadable");
  return m;
}

type Rec = Pick<InstanceRecord, "instance" | "court" | "class" | "movements">;

function rec(...movements: Movement[]): Rec {
  return {
    instance: "G1",
    court: "tjsp",
    class: { code: 7, name: "Procedimento Comum Cível" },
    movements,
  };
}

describe("a hearing under Audiência in CNJ's tree", () => {
  it("reads 12749 and 12750 as hearings by their type, urgent when designated or cancelled", () => {
    const instruction = hearing(12749, "de Instrução", "2026-11-20T14:10:00.000Z", "designada");
    const trial = hearing(
      12750,
      "de Instrução e Julgamento",
      "2026-11-21T09:00:00.000Z",
      "cancelada",
    );

    expect([isHearing(instruction), isHearing(trial)]).toEqual([true, true]);
    expect(movementTitle(instruction)).toBe("Audiência de instrução designada");
    expect(movementTitle(trial)).toBe("Audiência de instrução e julgamento cancelada");
    expect(actAttention(instruction, rec(instruction))?.reason).toBe(
      "Audiência de instrução designada: movimento registrado em 20/11/2026 14:10 (quando a audiência foi designada ou alterada); a data da audiência não consta do DataJud: conferir no processo ou no DJEN; verificar o comparecimento",
    );
    expect(hearingUrgency(instruction, rec(instruction), null)).toBe(
      "Audiência de instrução designada",
    );
    expect(hearingUrgency(trial, rec(trial), null)).toBe(
      "Audiência de instrução e julgamento cancelada",
    );
  });

  it("is not urgent once held", () => {
    const held = hearing(12749, "de Instrução", "2026-11-20T14:10:00.000Z", "realizada");

    expect(hearingUrgency(held, rec(held), null)).toBeNull();
  });

  it("takes any movement with a hearing's situation for a hearing, whatever its code", () => {
    const odd = hearing(11383, "Ato ordinatório", "2026-11-20T14:10:00.000Z", "designada");

    expect(isHearing(odd)).toBe(true);
    expect(hearingUrgency(odd, rec(odd), null)).toBe("Audiência designada");
  });
});

describe("a hearing designated again before it was held", () => {
  const first = hearing(
    12749,
    "de Instrução",
    "2026-10-01T10:00:00.000Z",
    "designada",
    "designada para 10/12/2026 às 14h00",
  );
  const second = hearing(12749, "de Instrução", "2026-11-20T14:10:00.000Z", "designada");

  it("says the earlier date no longer stands, and is urgent", () => {
    const record = rec(first, second);

    expect(earlierDesignation(second, record)).toBe(first);
    expect(hearingUrgency(second, record, null)).toBe(
      "Audiência de instrução designada; a data designada antes (movimento de 01/10/2026, para 10/12/2026 14:00) não vale mais",
    );
    expect(actAttention(second, record)?.next).toBe(
      "Audiência remarcada: conferir no processo a nova data (a anterior não vale mais) e o comparecimento.",
    );
  });

  it("is a new hearing, not a re-scheduling, once the earlier one was held or cancelled", () => {
    const held = hearing(12749, "de Instrução", "2026-10-20T10:00:00.000Z", "realizada");

    expect(earlierDesignation(second, rec(first, held, second))).toBeNull();
    expect(earlierDesignation(first, rec(first, second))).toBeNull();
  });
});
