import { describe, expect, it } from "vitest";
import { isCiente } from "../../../src/ack/ciente.js";

/*
 * The rule a chat reply must meet to acknowledge an urgent alert (docs/channels.md,
 * "Replies"): "ciente" with at most three plain words around it, any case, accents and
 * punctuation; never a question, a negation or a sentence.
 */

describe("isCiente", () => {
  it.each([
    "ciente",
    "Ciente",
    "CIENTE!",
    "  ciente.  ",
    "ok, ciente",
    "Ok ciente 👍",
    "estou ciente",
    "Estou ciente.",
    "tô ciente, obrigada",
    "Ciente, obrigado!",
    "já estou ciente",
    "sim, ciente",
    "cíente",
  ])("counts %j", (text) => {
    expect(isCiente(text)).toBe(true);
  });

  it.each([
    "",
    "ok",
    "ciente?",
    "Está ciente?",
    "não estou ciente",
    "nao ciente",
    "nem ciente",
    "ciente ciente",
    "inciente",
    "cientes",
    "conscientemente",
    "ciente, mas o prazo está errado",
    "ok ok ok ok ciente",
    `ciente ${"ok ".repeat(30)}`,
  ])("does not count %j", (text) => {
    expect(isCiente(text)).toBe(false);
  });
});
