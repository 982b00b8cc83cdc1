/*
 * The one rule for a phone number we send WhatsApp messages to: a watcher's `whatsapp:` in the
 * watchlist, a whatsapp endpoint's `to` in the configuration. E.164 (ITU-T E.164, as the
 * WhatsApp Cloud API takes it): a "+", a country code that does not start with 0, at most 15
 * digits in all, nothing else (no spaces, dashes or brackets, which people write and the API
 * does not read the same way everywhere).
 */
export const E164 = /^\+[1-9]\d{7,14}$/u;

/** The number as the Cloud API's `to` takes it: digits only, without the "+". */
export function cloudApiNumber(e164: string): string {
  return e164.trim().slice(1);
}

/** What is wrong with a number E164 refuses, and how to write it. */
export function phoneNumberProblem(input: string): string {
  return `${JSON.stringify(input.slice(0, 40))} is not a phone number in E.164 form; write + then the country code and the number, digits only, like "+5511987654321"`;
}
