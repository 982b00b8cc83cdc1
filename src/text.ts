/** The text without its accents: "Conclusão" -> "Conclusao" (marks removed after NFD). */
export function stripAccents(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "");
}

/**
 * Lower case, no accents, single spaces: how names are compared, in ignore/urgent rules and in a
 * movement's identity (a court re-serving "Conclusão  para DECISÃO" has not made a new movement).
 * A `?` that replaced a letter stays: which letter it was is lost.
 */
export function foldText(text: string): string {
  return stripAccents(text).toLowerCase().replace(/\s+/gu, " ").trim();
}
