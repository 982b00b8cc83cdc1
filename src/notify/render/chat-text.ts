/*
 * Court text made inert for chat. Escaping a platform's markup is not enough: Slack's server and
 * Telegram's both find links, addresses and handles in plain text on their own (Slack: "URL
 * detection is performed by the server"; Telegram: the url, email, mention, hashtag, cashtag and
 * bot_command entities it detects in any message), and neither has a switch for an incoming
 * webhook or a bot to turn that off in the text itself. So the few characters those detectors
 * key on are replaced by look-alikes that read the same and match no detector: the court's
 * "www.tjsp.jus.br" or "@fulano" is shown, never opened or pinged. What is left to a platform's
 * own escaping (Slack's &, <, >; Telegram's HTML entities; Teams' Markdown backslashes) stays
 * with each renderer. Pure.
 */

const FULLWIDTH_AT = "\uff20"; // ＠
const FULLWIDTH_NUMBER = "\uff03"; // ＃
const FULLWIDTH_DOLLAR = "\uff04"; // ＄
const ONE_DOT_LEADER = "\u2024"; // ․
const DIVISION_SLASH = "\u2215"; // ∕

/**
 * A dot between a letter or digit and a letter: the dot of a host name (www.x, tjsp.jus.br,
 * x.com). A dot before a digit (CNJ numbers, amounts, "art. 5", "fls.10") is not a host's and is
 * kept, so a number copied from the message still searches.
 */
const HOST_DOT = /(?<=[\p{L}\p{N}])\.(?=\p{L})/gu;
/** Four dotted groups of one to three digits, an IPv4 address (or an amount in billions). */
const DOTTED_QUAD = /(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?![\d.])/g;
/** A scheme's "://" (http, https, ftp, anything a client may open). */
const SCHEME_SLASHES = /:\/\//g;
/** A slash opening a word then a letter: a Telegram bot command ("/start"), not "e/ou". */
const COMMAND_SLASH = /(?<=^|\s)\/(?=\p{L})/gu;
/** A dollar sign before a letter: a Telegram cashtag ("$USD"); "R$ 10" is kept. */
const CASHTAG = /\$(?=\p{L})/gu;

/** Court text with nothing a chat platform would turn into a link, a mention or a tag. */
export function inertChatText(text: string): string {
  return text
    .replace(/@/g, FULLWIDTH_AT)
    .replace(/#/g, FULLWIDTH_NUMBER)
    .replace(CASHTAG, FULLWIDTH_DOLLAR)
    .replace(SCHEME_SLASHES, `:${DIVISION_SLASH}${DIVISION_SLASH}`)
    .replace(COMMAND_SLASH, DIVISION_SLASH)
    .replace(DOTTED_QUAD, (quad) => quad.replace(/\./g, ONE_DOT_LEADER))
    .replace(HOST_DOT, ONE_DOT_LEADER);
}
