/** The text without its accents: "Conclusão" -> "Conclusao" (marks removed after NFD). */
export function stripAccents(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "");
}
