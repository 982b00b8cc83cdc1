import { tables } from "../tpu/tables.js";

/** A TPU movement as DataJud names it: its code and the name it sends in `movimentos[].nome`. */
export interface KnownMovement {
  code: number;
  name: string;
}

/**
 * The movements DataJud sends: every leaf of CNJ's table (src/tpu/data/movements.json) by its
 * table name, and every code the monitor glosses (src/tpu/data/glosses.json: those seen in real
 * records, parents such as 970 Audiência and 193 Julgamento among them) by the name DataJud sends
 * ("Bloqueio/penhora on line" for 11382). A part of the tree DataJud does not send, 67 Juntada,
 * is not here: a rule "juntada" matches nothing DataJud says ("Petição", "Documento").
 */
export const KNOWN_MOVEMENTS: readonly KnownMovement[] = (() => {
  const { movements, glosses } = tables();
  // The glossed first: the names real records carry are the closest suggestions.
  const out: KnownMovement[] = [...glosses.values()].map(({ code, name }) => ({ code, name }));
  for (const item of movements.items) {
    const name = item.name.trim();
    const leaf = movements.children(item.code).length === 0;
    if (leaf && !out.some((m) => m.code === item.code && m.name === name)) {
      out.push({ code: item.code, name });
    }
  }
  return out;
})();
