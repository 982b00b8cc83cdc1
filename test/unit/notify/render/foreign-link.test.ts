import { describe, expect, it } from "vitest";
import { publicationEvent } from "../../../../src/notify/render/build-event.js";
import { chatDigest, chatMessage } from "../../../../src/notify/render/chat-message.js";
import { renderDigest } from "../../../../src/notify/render/digest.js";
import { renderPublicationAlert } from "../../../../src/notify/render/publication-alert.js";
import { renderSlack } from "../../../../src/notify/render/slack-message.js";
import { renderTeams } from "../../../../src/notify/render/teams-message.js";
import { renderTelegram } from "../../../../src/notify/render/telegram-message.js";
import { samplePublication } from "./sample-publication.js";

/*
 * DJEN's `link` is whatever the court's system (or anyone between) put there. A publication
 * queued before the court-host rule, carrying a foreign link and no DJEN certificate, is rendered
 * on every channel: the link is nowhere, and the court's own link still is.
 */

const FOREIGN = "https://tjdft.jus.br.golpe.example/boleto";
const id = `evt_${"0".repeat(31)}1`;

function urgent(link: string) {
  return samplePublication({ link, certificateUrl: null });
}

describe("a publication whose DJEN link is not a court's", () => {
  it("is mailed, alone and in a digest, without it", () => {
    const mail = renderPublicationAlert(urgent(FOREIGN));
    const digest = renderDigest([], "America/Sao_Paulo", [urgent(FOREIGN)]);

    expect(mail.text).not.toContain("golpe");
    expect(mail.html).not.toContain("golpe");
    expect(digest.text).not.toContain("golpe");
    expect(digest.html).not.toContain("golpe");
    expect(mail.text).toContain("Intimação");
  });

  it("reaches a webhook with link null, and chat with no button at all", () => {
    const event = publicationEvent(urgent(FOREIGN), { id });
    const message = chatMessage(event);
    const bodies = [
      JSON.stringify(renderSlack(message)),
      JSON.stringify(renderTeams(message)),
      JSON.stringify(renderTelegram(message, "1")),
      JSON.stringify(renderSlack(chatDigest([event, event]))),
    ];

    expect(event.type === "publication.published" && event.data.publication.link).toBeNull();
    expect(message.urgent).toBe(true);
    expect(message.link).toBeNull();
    for (const body of bodies) expect(body).not.toContain("golpe");
  });

  it("keeps a court's link (TJRJ's document cache, as DJEN sent it) on every channel", () => {
    const court =
      "https://www3.tjrj.jus.br/gedcacheweb/default.aspx?GEDID=0004B1F4F67C2150D639E14F918727111686C5030B5B3C4B";
    const event = publicationEvent(urgent(court), { id });

    expect(renderPublicationAlert(urgent(court)).text).toContain(court);
    expect(event.type === "publication.published" && event.data.publication.link).toBe(court);
    expect(chatMessage(event).link?.url).toBe(court);
  });
});
