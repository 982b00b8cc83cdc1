import { parseCnjNumber } from "../datajud/cnj-number.js";
import { resolveCourt } from "../datajud/courts.js";

/*
 * Which states a case number's court sits in, for a party's `ufs:`: a state court (TJ, TJM), an
 * electoral court (TRE) and a labour region (TRT) name theirs; a federal region (TRF) and the
 * superior courts span many, so a case there is never set aside by `ufs:`. Pure.
 */

/**
 * The states of each TRT region (CLT art. 674, as later laws created the 15th to 24th regions):
 * the 8th, 10th, 11th and 14th have two.
 */
const TRT_STATES: Readonly<Record<number, readonly string[]>> = {
  1: ["RJ"],
  2: ["SP"],
  3: ["MG"],
  4: ["RS"],
  5: ["BA"],
  6: ["PE"],
  7: ["CE"],
  8: ["PA", "AP"],
  9: ["PR"],
  10: ["DF", "TO"],
  11: ["AM", "RR"],
  12: ["SC"],
  13: ["PB"],
  14: ["RO", "AC"],
  15: ["SP"],
  16: ["MA"],
  17: ["ES"],
  18: ["GO"],
  19: ["AL"],
  20: ["SE"],
  21: ["RN"],
  22: ["PI"],
  23: ["MT"],
  24: ["MS"],
};

/** The states a case's court sits in (upper case); null when it spans many or is unknown. */
export function statesOfCase(caseNumber: string): readonly string[] | null {
  const parsed = parseCnjNumber(caseNumber);
  if (!parsed.ok) return null;
  let alias: string;
  try {
    alias = resolveCourt(parsed.value);
  } catch {
    return null;
  }
  if (alias === "tjdft" || alias === "tre-dft") return ["DF"];
  const state = /^(?:tjm?|tre-)([a-z]{2})$/u.exec(alias);
  if (state?.[1] !== undefined) return [state[1].toUpperCase()];
  const trt = /^trt(\d{1,2})$/u.exec(alias);
  if (trt?.[1] !== undefined) return TRT_STATES[Number(trt[1])] ?? null;
  return null;
}
