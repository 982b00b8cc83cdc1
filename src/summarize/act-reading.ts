import type { InstanceRecord, Movement } from "../datajud/instance-record.js";
import { foldText } from "../text.js";
import { formatBrazilian } from "../time/calendar-date.js";
import {
  type ActReading,
  actPeriods,
  citationOnlySent,
  isSuperiorCourt,
  periodsText,
  suspensionReading,
} from "./act-periods.js";
import { type HearingDate, hearingDateOnRecord, hearingWhenText } from "./hearing-when.js";
import { movementDay as day, kindOf } from "./instance-status.js";
import {
  HEARING_SITUATION_PT,
  HEARING_UPSET,
  type HearingSituation,
  hearingSituation,
  isCriminalClass,
  isHearing,
  movementTitle,
} from "./movement-reading.js";

/*
 * What a decisive act asks of the lawyer, in the words of its case: a criminal judgment is a
 * condenação or an absolvição (CPP art. 593), a received denúncia opens the resposta à acusação
 * (CPP art. 396); a superior court's judgment is a monocratic decision (agravo interno, CPC art.
 * 1.021) or an acórdão only when the record tells which. Pure.
 */

export interface ActAttention {
  reason: string;
  next: string;
}

export { isSuperiorCourt };

/** Judgments of a court whose periods depend on whether the relator alone gave them. */
const COURT_JUDGMENTS: ReadonlySet<ActReading["key"]> = new Set([
  "civil_judgment",
  "labour_judgment",
]);

export type JudgmentForm = { form: "monocratic" | "collegiate"; basis: string };

/**
 * Whether an appeal was judged by the relator alone or by the panel, as far as the record tells:
 * the movement's own words ("monocrática", "acórdão"), else what led to it in the instance: an
 * inclusão em pauta after the last conclusão is a session's judgment; a conclusão "para decisão"
 * (or "para despacho") with no session after it went to the relator to decide alone. The court
 * unit is not a signal: DataJud names the relator's gabinete for both.
 */
export function judgmentForm(
  m: Movement,
  record: Pick<InstanceRecord, "movements"> | null,
): JudgmentForm | null {
  const said = foldText(
    [m.name, ...m.complements.map((c) => `${c.name ?? ""} ${c.value ?? ""}`)].join(" "),
  );
  if (/monocratic/.test(said)) return { form: "monocratic", basis: "o movimento diz monocrática" };
  if (/acordao|colegiad/.test(said))
    return { form: "collegiate", basis: "o movimento diz acórdão" };
  if (record === null) return null;
  const before = record.movements
    .filter((x) => x !== m && x.id !== m.id && (x.dateTime ?? "") <= (m.dateTime ?? ""))
    .sort((a, b) => (b.dateTime ?? "").localeCompare(a.dateTime ?? ""));
  for (const x of before) {
    const kind = kindOf(x);
    if (kind === "session") {
      return { form: "collegiate", basis: `incluído em pauta de sessão em ${day(x)}` };
    }
    if (kind === "conclusion") {
      const to = foldText(x.complements.map((c) => c.name ?? "").join(" "));
      if (/para (decisao|despacho)/.test(to)) {
        return {
          form: "monocratic",
          basis: `concluso ao relator para decisão em ${day(x)}, sem inclusão em pauta`,
        };
      }
      return null;
    }
  }
  return null;
}

/** Situations that give a hearing a date: it is on the calendar from this movement on. */
const SETS_A_DATE: ReadonlySet<HearingSituation> = new Set([
  "designada",
  "redesignada",
  "antecipada",
]);

/** Situations after which no earlier designation stands: the hearing happened or is gone. */
const CLOSES: ReadonlySet<HearingSituation> = new Set([
  "realizada",
  "cancelada",
  "nao_realizada",
  "convertida",
]);

/**
 * The designation a new date replaces: the instance's last hearing movement before `m` that set a
 * date, when nothing since closed it (held, cancelled, not held). A second "designada" for a
 * hearing not held is a re-scheduling, whatever the court called it.
 */
export function earlierDesignation(
  m: Movement,
  record: Pick<InstanceRecord, "movements"> | null,
): Movement | null {
  const situation = hearingSituation(m);
  if (record === null || situation === null || !SETS_A_DATE.has(situation)) return null;
  const before = record.movements
    .filter((x) => x.id !== m.id && isHearing(x) && (x.dateTime ?? "") <= (m.dateTime ?? ""))
    .sort((a, b) => (b.dateTime ?? "").localeCompare(a.dateTime ?? ""));
  for (const x of before) {
    const was = hearingSituation(x);
    if (was === null) continue;
    if (CLOSES.has(was)) return null;
    if (SETS_A_DATE.has(was)) return x;
  }
  return null;
}

/** "a audiência designada antes (movimento de 02/03/2026, para 10/03/2026 14:00) não vale mais". */
function replacedText(earlier: Movement): string {
  const date = hearingDateOnRecord(earlier);
  const at =
    date === null
      ? ""
      : `, para ${formatBrazilian(date.date)}${date.time === null ? "" : ` ${date.time}`}`;
  return `a data designada antes (movimento de ${day(earlier)}${at}) não vale mais`;
}

/**
 * Why a hearing movement cannot wait, in Portuguese; null when it can (held, or without a
 * situation). Designated, moved, brought forward, postponed, not held or cancelled: the lawyer's
 * day changes.
 */
export function hearingUrgency(
  m: Movement,
  record: Pick<InstanceRecord, "movements"> | null,
  date: HearingDate | null,
): string | null {
  if (!isHearing(m)) return null;
  const situation = hearingSituation(m);
  if (situation === null || !(SETS_A_DATE.has(situation) || HEARING_UPSET.has(situation))) {
    return null;
  }
  const title = movementTitle(m);
  const earlier = earlierDesignation(m, record);
  const replaced = earlier === null ? "" : `; ${replacedText(earlier)}`;
  const when =
    date === null
      ? ""
      : ` para ${formatBrazilian(date.date)}${date.time === null ? "" : ` ${date.time}`}`;
  const what = HEARING_SITUATION_PT[situation];
  const lead = title.toLocaleLowerCase("pt-BR").endsWith(what) ? title : `${title} (${what})`;
  return `${lead}${SETS_A_DATE.has(situation) ? when : ""}${replaced}`;
}

/**
 * A hearing with both its dates: when the movement was recorded (designada, cancelada) and, where
 * a text says it, when the hearing is; never the first read as the second. A new date for a
 * hearing already designated says that the earlier date no longer stands.
 */
function hearingAttention(
  m: Movement,
  date: HearingDate | null,
  record: Pick<InstanceRecord, "movements"> | null,
): ActAttention {
  const title = movementTitle(m);
  const situation = hearingSituation(m);
  const earlier = earlierDesignation(m, record);
  if (earlier !== null) {
    return {
      reason: `${title}: ${replacedText(earlier)}; ${hearingWhenText(m, date)}; conferir no processo a nova data e o comparecimento`,
      next:
        date === null
          ? "Audiência remarcada: conferir no processo a nova data (a anterior não vale mais) e o comparecimento."
          : `Audiência remarcada para ${formatBrazilian(date.date)}${date.time === null ? "" : ` ${date.time}`} (a data anterior não vale mais): comparecimento (conferir no processo).`,
    };
  }
  if (situation !== null && HEARING_UPSET.has(situation)) {
    return {
      reason: `${title}: ${hearingWhenText(m, date)}; conferir no processo a nova data ou o cancelamento`,
      next: "Audiência: conferir no processo a nova data ou o cancelamento.",
    };
  }
  return {
    reason: `${title}: ${hearingWhenText(m, date)}; verificar o comparecimento`,
    next:
      date === null
        ? "Audiência: conferir a data no processo ou no DJEN, e o comparecimento."
        : `Audiência em ${formatBrazilian(date.date)}${date.time === null ? "" : ` ${date.time}`}: comparecimento (conferir no processo).`,
  };
}

/** Criminal judgments by their TPU code (219 Procedência, 220 Improcedência, 221 em Parte). */
const CRIMINAL_JUDGMENTS: Readonly<Record<number, ActAttention>> = {
  219: {
    reason: "sentença condenatória: verificar o prazo de apelação (CPP, art. 593)",
    next: "Apelação da sentença condenatória (CPP, art. 593) ou trânsito em julgado.",
  },
  220: {
    reason: "sentença absolutória: verificar se a acusação apela (CPP, art. 593)",
    next: "Apelação da acusação, se houver (CPP, art. 593), ou trânsito em julgado da absolvição.",
  },
  221: {
    reason: "sentença condenatória em parte: verificar o prazo de apelação (CPP, art. 593)",
    next: "Apelação da sentença condenatória (CPP, art. 593) ou trânsito em julgado.",
  },
};

const CRIMINAL_SENTENCE: ActAttention = {
  reason: "sentença penal: verificar o prazo de apelação (CPP, art. 593)",
  next: "Apelação da sentença (CPP, art. 593) ou trânsito em julgado.",
};

/** TPU 391: the denúncia (or queixa) received, the ação penal begins. */
const DENUNCIA_RECEIVED: ActAttention = {
  reason:
    "denúncia recebida: o acusado será citado para responder à acusação em 10 dias (CPP, art. 396)",
  next: "Citação do acusado e resposta à acusação em 10 dias (CPP, art. 396).",
};

/**
 * The attention a decisive act asks for when its case changes the words; null when the generic
 * wording of its kind (rules-summary.ts) is right.
 */
export function actAttention(
  m: Movement,
  record: Pick<InstanceRecord, "instance" | "court" | "class" | "movements"> | null,
  hearing: HearingDate | null = null,
): ActAttention | null {
  const kind = kindOf(m);
  if (kind === "hearing") return hearingAttention(m, hearing ?? hearingDateOnRecord(m), record);
  if (kind === "unknown") {
    const named = m.name.trim() === "" ? "" : ` ("${m.name.trim()}")`;
    return {
      reason: `movimento de código ${m.code}${named}, não encontrado nas tabelas do CNJ: conferir nos autos o que foi registrado`,
      next: `Conferir nos autos o movimento de código ${m.code}, que as tabelas do CNJ não identificam.`,
    };
  }
  if (kind === "suspension") return suspensionAttention(m);
  const criminal = record !== null && isCriminalClass(record.class);
  if (m.code === 391) return DENUNCIA_RECEIVED;
  const periods = actPeriods(m, record);
  if (periods !== null && !COURT_JUDGMENTS.has(periods.key)) {
    if (periods.key === "criminal_sentence") {
      const words = (m.code === null ? undefined : CRIMINAL_JUDGMENTS[m.code]) ?? CRIMINAL_SENTENCE;
      return withPeriods(words, periods, m.code === 220 ? "prazo da acusação" : "prazo que abre");
    }
    if (periods.key === "case_closed") return null;
    return PERIOD_ATTENTION[periods.key](periods, m);
  }
  if (kind === "sentence" && criminal) {
    return (m.code === null ? undefined : CRIMINAL_JUDGMENTS[m.code]) ?? CRIMINAL_SENTENCE;
  }
  if (kind !== "judgment" || record === null) return null;
  const title = movementTitle(m, { criminal });
  const form = judgmentForm(m, record);
  if (form?.form === "monocratic") {
    // The relator's judgment is his decision: the periods its court and class give one
    // (act-periods.json: the agravo interno of a TJ, a TRT or the TST, a superior court's).
    const alone = actPeriods(m, record, "decision");
    if (alone !== null && alone.periods.length > 0) {
      const opens = periodsText(alone);
      return {
        reason: `decisão monocrática do relator (${title}; ${form.basis}): prazos que abre: ${opens}`,
        next: `${AGRAVO_OF[alone.key] ?? "Agravo interno"} contra a decisão monocrática (${opens}) ou trânsito em julgado.`,
      };
    }
    const appeal = criminal
      ? "cabe agravo regimental ao colegiado (Lei 8.038/1990, art. 39)"
      : "cabe agravo interno ao colegiado (CPC, art. 1.021)";
    return {
      reason: `decisão monocrática do relator (${title}; ${form.basis}): ${appeal}; verificar o prazo`,
      next: criminal
        ? "Prazo para agravo regimental contra a decisão monocrática (Lei 8.038/1990, art. 39) ou trânsito em julgado."
        : "Prazo para agravo interno contra a decisão monocrática (CPC, art. 1.021) ou trânsito em julgado.",
    };
  }
  if (form === null && isSuperiorCourt(record)) {
    return {
      reason: `recurso julgado (${title}): o DataJud não diz se por decisão monocrática ou por acórdão; conferir nos autos e o prazo do recurso cabível`,
      next: "Conferir se foi decisão monocrática (cabe agravo interno, CPC art. 1.021) ou acórdão, e o prazo do recurso cabível.",
    };
  }
  if (periods !== null && COURT_JUDGMENTS.has(periods.key) && !isSuperiorCourt(record))
    return PERIOD_ATTENTION[periods.key as "civil_judgment"](periods, m);
  return null;
}

/**
 * What an act that asks nothing of the lawyer means, for the next step when nothing else is
 * pressing: a baixa definitiva takes the case out of the court, opening no period.
 */
export function actInformation(
  m: Movement,
  record: Pick<InstanceRecord, "instance" | "court" | "class"> | null,
): string | null {
  const r = actPeriods(m, record);
  if (r?.key !== "case_closed") return null;
  return `Baixa definitiva em ${day(m)}: ${r.note ?? "o processo saiu deste juízo ou tribunal"}.`;
}

/** A criminal judgment's own words, with the period it opens named in full. */
function withPeriods(words: ActAttention, r: ActReading, lead: string): ActAttention {
  const opens = periodsText(r);
  return {
    reason: `${words.reason.replace(/: verificar .*$/u, "")}: ${lead}: ${opens}`,
    next: `${words.next} Prazo: ${opens}.`,
  };
}

/** "citação" (done) or "citação expedida (ainda não cumprida)": what a citação movement says. */
function citationState(m: Movement, act: string): { what: string; opens: string } {
  return citationOnlySent(m)
    ? {
        what: `${act} expedida (ainda não cumprida)`,
        opens: "prazo que abrirá, cumprida a citação",
      }
    : { what: act, opens: "prazo que abre" };
}

/** A citação and the answer it calls for, by the class (act-periods.json). */
function citationAttention(lead: string): (r: ActReading, m: Movement) => ActAttention {
  return (r, m) => {
    const state = citationState(m, r.act);
    const sent = citationOnlySent(m) ? ", depois de cumprida a citação" : "";
    return {
      reason: `${state.what}: ${state.opens}: ${periodsText(r)}`,
      next: `${lead}${sent} (${periodsText(r)}).`,
    };
  };
}

/** The appeal to the panel where it is not the agravo interno (Lei 8.038/1990, art. 39). */
const AGRAVO_OF: Partial<Record<ActReading["key"], string>> = {
  superior_criminal_monocratic: "Agravo regimental",
  superior_monocratic: "Agravo regimental (matéria penal) ou interno (cível)",
};

/** A decision one judge of a court gave alone: the periods to take it to the panel. */
function monocraticAttention(what: string): (r: ActReading) => ActAttention {
  return (r) => ({
    reason: `${what}: prazos que abre: ${periodsText(r)}`,
    next: `Cumprir a decisão ou recorrer dela ao colegiado (${periodsText(r)}).`,
  });
}

/** A judgment that became final: no appeal any more, and what may follow, as information. */
function finalAttention(next: string): (r: ActReading) => ActAttention {
  return (r) => ({
    reason: `trânsito em julgado: não cabe mais recurso; o que pode seguir: ${periodsText(r)}${r.note === undefined ? "" : `; ${r.note}`}`,
    next,
  });
}

/** Each act of act-periods.json in a lawyer's words: what happened, the periods, the next step. */
const PERIOD_ATTENTION: Readonly<
  Record<
    Exclude<ActReading["key"], "criminal_sentence" | "case_closed">,
    (r: ActReading, m: Movement) => ActAttention
  >
> = {
  civil_sentence: (r) => ({
    reason: `sentença proferida: prazos que abre: ${periodsText(r)}`,
    next: `Recurso da sentença (${periodsText(r)}) ou trânsito em julgado.`,
  }),
  juizado_sentence: (r) => ({
    reason: `sentença do juizado proferida: prazos que abre: ${periodsText(r)}`,
    next: `Recurso da sentença (${periodsText(r)}) ou trânsito em julgado.`,
  }),
  labour_sentence: (r) => ({
    reason: `sentença trabalhista proferida: prazos que abre: ${periodsText(r)}`,
    next: `Recurso da sentença (${periodsText(r)}) ou trânsito em julgado.`,
  }),
  civil_judgment: (r) => ({
    reason: `acórdão proferido: prazos que abre: ${periodsText(r)}`,
    next: `Recurso do acórdão (${periodsText(r)}) ou trânsito em julgado.`,
  }),
  labour_judgment: (r) => ({
    reason: `acórdão do Tribunal Regional do Trabalho proferido: prazos que abre: ${periodsText(r)}`,
    next: `Recurso do acórdão (${periodsText(r)}) ou trânsito em julgado.`,
  }),
  embargos_decided: (r) => ({
    reason: `embargos de declaração julgados: ${periodsText(r)}`,
    next: `Recurso contra a decisão embargada: o prazo interrompido pelos embargos recomeça por inteiro da intimação desta decisão (${r.periods[0]?.article ?? "CPC, art. 1.026"}).`,
  }),
  juizado_embargos_decided: (r) => ({
    reason: `embargos de declaração julgados: ${periodsText(r)}`,
    next: `Recurso contra a decisão embargada: o prazo interrompido pelos embargos recomeça por inteiro da intimação desta decisão (${r.periods[0]?.article ?? "Lei 9.099/1995, art. 50"}).`,
  }),
  labour_embargos_decided: (r) => ({
    reason: `embargos de declaração julgados: ${periodsText(r)}`,
    next: `Recurso contra a decisão embargada: o prazo interrompido pelos embargos recomeça por inteiro da intimação desta decisão (${r.periods[0]?.article ?? "CLT, art. 897-A, § 3º"}).`,
  }),
  settlement_approved: () => ({
    reason:
      "acordo homologado: sentença de mérito nos termos do acordo (CPC, art. 487, III, b); conferir os prazos e as obrigações ajustados",
    next: "Cumprimento do acordo nos prazos ajustados; descumprido, cumprimento de sentença do acordo homologado (CPC, art. 515, II).",
  }),
  asset_freeze: (r) => ({
    reason: `bloqueio ou penhora de bens: ${periodsText(r)}`,
    next: `Impugnação ao bloqueio, se houver impenhorabilidade ou excesso (${periodsText(r)}).`,
  }),
  tax_execution_freeze: (r) => ({
    reason: `bloqueio ou penhora na execução fiscal: ${periodsText(r)}`,
    next: `Impugnação ao bloqueio e embargos à execução fiscal (${periodsText(r)}).`,
  }),
  judgment_enforcement: (r) => ({
    reason: `cumprimento de sentença iniciado: ${periodsText(r)}`,
    next: `Pagamento voluntário ou impugnação (${periodsText(r)}).`,
  }),
  civil_organization: (r) => ({
    reason: `decisão de saneamento e organização: prazos que abre: ${periodsText(r)}`,
    next: `Conferir os pontos controvertidos e as provas fixados; pedir esclarecimentos ou ajustes, se preciso, antes que a decisão se torne estável, ou recorrer dela (${periodsText(r)}).`,
  }),
  civil_interlocutory: (r) => ({
    reason: `decisão interlocutória: prazos que pode abrir: ${periodsText(r)}`,
    next: `Cumprir a decisão, se exigir providência, ou recorrer dela (${periodsText(r)}).`,
  }),
  execution_interlocutory: (r) => ({
    reason: `decisão interlocutória na execução ou no cumprimento de sentença: prazos que abre: ${periodsText(r)}`,
    next: `Cumprir a decisão, se exigir providência, ou recorrer dela (${periodsText(r)}).`,
  }),
  civil_monocratic: monocraticAttention("decisão monocrática do relator"),
  labour_monocratic: monocraticAttention("decisão monocrática do relator"),
  superior_civil_monocratic: monocraticAttention("decisão monocrática de ministro"),
  superior_criminal_monocratic: monocraticAttention("decisão monocrática de ministro"),
  superior_monocratic: monocraticAttention("decisão monocrática de ministro"),
  labour_execution_decision: (r) => ({
    reason: `decisão na execução trabalhista: prazos que abre: ${periodsText(r)}`,
    next: `Cumprir a decisão, se exigir providência, ou recorrer dela (${periodsText(r)}).`,
  }),
  labour_interlocutory: (r) => ({
    reason: `decisão interlocutória trabalhista: ${r.note ?? "não é recorrível de imediato (CLT, art. 893, § 1º)"}`,
    next: "Cumprir a decisão, se exigir providência; a questão se discute no recurso da decisão definitiva (CLT, art. 893, § 1º).",
  }),
  civil_citation: citationAttention("Contestação"),
  criminal_citation: citationAttention("Resposta à acusação"),
  labour_citation: citationAttention("Defesa na audiência"),
  juizado_citation: citationAttention("Contestação na audiência"),
  execution_citation: citationAttention("Pagamento ou embargos à execução"),
  tax_execution_citation: citationAttention(
    "Pagamento ou garantia da execução fiscal; garantida, embargos",
  ),
  labour_execution_citation: citationAttention(
    "Pagamento ou garantia da execução; garantida, embargos",
  ),
  citation_failed: (r) => ({
    reason: `citação não realizada: ${r.note ?? "nenhum prazo de resposta corre"}`,
    next: "Nova tentativa de citação, por outro meio ou endereço: conferir nos autos o motivo (no processo civil, a cargo do autor: CPC, art. 240, § 2º).",
  }),
  final_judgment: finalAttention(
    "Cumprimento de sentença, a requerimento do credor (CPC, art. 523), se houver o que cumprir; senão, arquivamento.",
  ),
  criminal_final_judgment: finalAttention(
    "Execução da pena, se houve condenação (Lei 7.210/1984, art. 105); senão, arquivamento.",
  ),
  labour_final_judgment: finalAttention(
    "Execução, promovida pela parte (CLT, art. 878), se houver o que executar; senão, arquivamento.",
  ),
  juizado_final_judgment: finalAttention(
    "Execução da sentença, a pedido do interessado (Lei 9.099/1995, art. 52, IV), se houver o que executar; senão, arquivamento.",
  ),
};

/** A stay by its cause: what it is and what ends it; its periods stop meanwhile (CPC, art. 221). */
function suspensionAttention(m: Movement): ActAttention {
  const s = suspensionReading(m);
  const what = s?.what ?? "suspenso ou sobrestado";
  const ends = s?.ends ?? "a causa da suspensão deixar de existir (CPC, art. 313)";
  return {
    reason: `processo ${what}: os prazos ficam suspensos (CPC, art. 221); a suspensão termina com ${ends}`,
    next: `Suspenso até ${ends}: acompanhar e, ao fim, conferir os prazos que voltam a correr pelo que faltava (CPC, art. 221).`,
  };
}
