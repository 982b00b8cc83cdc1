import { describe, expect, it } from "vitest";
import { ackPage, withAckLink } from "../../../../src/notify/render/acknowledgement.js";
import { renderAlert } from "../../../../src/notify/render/alert.js";
import { acknowledgedEvent, movementEvent } from "../../../../src/notify/render/build-event.js";
import { chatDigest, chatMessage } from "../../../../src/notify/render/chat-message.js";
import { renderDigest } from "../../../../src/notify/render/digest.js";
import { renderSlack } from "../../../../src/notify/render/slack-message.js";
import { renderTeams } from "../../../../src/notify/render/teams-message.js";
import { renderTelegram } from "../../../../src/notify/render/telegram-message.js";
import { WebhookEvent } from "../../../../src/notify/render/webhook-event.js";
import { renderWhatsApp } from "../../../../src/notify/render/whatsapp-message.js";
import { sampleAlert } from "./sample-alert.js";
import { samplePublication } from "./sample-publication.js";

/*
 * What an urgent alert's acknowledgement looks like in each channel (issue 40): a link at the
 * end of the e-mail, a button where the chat has one (Slack and Teams link buttons, Telegram's
 * inline URL button, a WhatsApp template's URL button), and the alert.acknowledged event.
 */

const URL = "https://monitor.example.com/ack/17.AbCdEfGhIjKlMnOpQrStUvWxYz012345";
const ACK = { label: "Confirmar ciência", url: URL };
const ID = `evt_${"a".repeat(32)}`;

function urgentMessage() {
  return { ...chatMessage(movementEvent(sampleAlert({ urgent: true }), { id: ID })), ack: ACK };
}

describe("the acknowledgement link", () => {
  it("ends the urgent alert's e-mail, in its text and as a button in its HTML", () => {
    const rendered = renderAlert(sampleAlert({ urgent: true }));

    const asked = withAckLink(rendered, URL);

    expect(asked.subject).toBe(rendered.subject);
    expect(asked.text).toContain(`Confirme que viu este alerta urgente: ${URL}`);
    expect(asked.html).toContain(`<a href="${URL}"`);
    expect(asked.html.indexOf("Confirmar ciência")).toBeLessThan(asked.html.indexOf("</body>"));
  });

  it("is a button in Slack, Teams and Telegram", () => {
    const message = urgentMessage();

    const slack = renderSlack(message);
    const teams = renderTeams(message);
    const telegram = renderTelegram(message, "-100123");

    expect(slack.blocks?.[1]).toEqual({
      type: "actions",
      elements: [
        {
          type: "button",
          text: { type: "plain_text", text: "Confirmar ciência" },
          url: URL,
          style: "primary",
        },
      ],
    });
    expect(teams.attachments[0].content.actions[0]).toEqual({
      type: "Action.OpenUrl",
      title: "Confirmar ciência",
      url: URL,
    });
    expect(telegram.reply_markup).toEqual({
      inline_keyboard: [[{ text: "Confirmar ciência", url: URL }]],
    });
  });

  it("has no button in a message that asks nothing", () => {
    const message = { ...urgentMessage(), ack: null };

    expect(renderSlack(message).blocks).toBeUndefined();
    expect(renderTelegram(message, "-100123").reply_markup).toBeUndefined();
    expect(renderTeams(message).attachments[0].content.actions).toHaveLength(1);
  });

  it("is a WhatsApp ackTemplate's URL button (its token), or the {{3}} of the plain template", () => {
    const message = urgentMessage();
    const template = { name: "alerta_processo", language: "pt_BR" };
    const ackTemplate = { name: "alerta_urgente", language: "pt_BR" };

    const withButton = renderWhatsApp(message, "5511987654321", template, ackTemplate);
    const plain = renderWhatsApp(message, "5511987654321", template, null);

    expect(withButton.template.name).toBe("alerta_urgente");
    expect(withButton.template.components[1]).toEqual({
      type: "button",
      sub_type: "url",
      index: "0",
      parameters: [{ type: "text", text: "17.AbCdEfGhIjKlMnOpQrStUvWxYz012345" }],
    });
    expect(plain.template.name).toBe("alerta_processo");
    expect(plain.template.components).toHaveLength(1);
    expect(plain.template.components[0]?.parameters[2]?.text).toBe(URL);
  });
});

describe("the acknowledgement page", () => {
  const state = {
    subject: 'Urgente <script>alert("x")</script>',
    acknowledged: null,
    expiresAt: "2026-03-09T13:00:00.000Z",
    justRecorded: false,
    expired: false,
  };

  it("shows the alert escaped and a POST button, changing nothing by being read", () => {
    const html = ackPage(state, "America/Sao_Paulo");

    expect(html).toContain('<form method="post">');
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;");
    expect(html).toContain("09/03/2026 10:00");
  });

  it("says who acknowledged and when once it was", () => {
    const html = ackPage(
      { ...state, acknowledged: { at: "2026-03-02T15:00:00.000Z", by: "ana@example.com" } },
      "America/Sao_Paulo",
    );

    expect(html).toContain("já foi confirmado em 02/03/2026 12:00 por ana@example.com");
    expect(html).not.toContain("<form");
  });
});

describe("the alert.acknowledged event", () => {
  it("names the alert, its case, who and when, and passes the committed schema", () => {
    const event = acknowledgedEvent(
      {
        notice: "alert.acknowledged",
        alertKey: "alert:7:2026-03-02T13:00:00.000Z:0713383432025807000|tjdft",
        subject: "⚠ URGENTE Silva x Souza: sentença",
        queuedAt: "2026-03-02T13:00:00.000Z",
        case: { number: "0713383-43.2025.8.07.0006", court: "tjdft", label: "Silva x Souza" },
        acknowledgedAt: "2026-03-02T15:00:00.000Z",
        acknowledgedBy: "whatsapp +5561987654321",
        via: "link",
      },
      { id: ID },
    );

    expect(WebhookEvent.parse(event)).toEqual(event);
    expect(event).toMatchObject({
      type: "alert.acknowledged",
      timestamp: "2026-03-02T15:00:00.000Z",
      data: {
        acknowledgedBy: "whatsapp +5561987654321",
        case: { number: "0713383-43.2025.8.07.0006", court: "tjdft" },
      },
    });
    expect(chatMessage(event).title).toContain("Ciente: ⚠ URGENTE Silva x Souza");
  });
});

describe("an urgent item's link in a digest", () => {
  const other = "https://monitor.example.com/ack/18.ZyXwVuTsRqPoNmLkJiHgFeDcBa987654";

  it("stands under each case's entry, every alert of a case merged into it keeping its own", () => {
    const silva = sampleAlert({ urgent: true });
    const later = sampleAlert({ urgent: true, changeKinds: ["new_movements"] });
    const quiet = sampleAlert({ caseNumber: "1035289-48.2022.8.26.0602", court: "tjsp" });

    const digest = renderDigest([quiet, silva, later], "America/Sao_Paulo", [], [], {
      changes: [null, URL, other],
      publications: [],
    });

    const lines = digest.text.split("\n");
    const first = lines.findIndex((l) => l.includes(URL));
    expect(lines[first]).toBe(`   Alerta urgente: confirme que o viu em ${URL}`);
    expect(lines[first + 1]).toBe(`   Alerta urgente: confirme que o viu em ${other}`);
    // The urgent case is listed first; the quiet one carries no link.
    expect(lines[first - 1]).toContain("0713383-43.2025.8.07.0006");
    expect(digest.text.match(/\/ack\//g)).toHaveLength(2);
    expect(digest.html).toContain(`<a href="${URL}">${URL}</a>`);
  });

  it("stands under a publication's title; none without a link", () => {
    const urgent = samplePublication({ urgent: true });

    const asked = renderDigest([], "America/Sao_Paulo", [urgent], [], {
      changes: [],
      publications: [URL],
    });
    const plain = renderDigest([], "America/Sao_Paulo", [urgent]);

    expect(asked.text).toContain(`Alerta urgente: confirme que o viu em ${URL}`);
    expect(asked.html).toContain(`<a href="${URL}">`);
    expect(plain.text).not.toContain("/ack/");
  });

  it("follows its alert's line in a chat digest, alerts that ask listed first and never cut", () => {
    const events = Array.from({ length: 12 }, (_, i) =>
      movementEvent(sampleAlert({ urgent: i === 11, label: `Caso ${i}` }), {
        id: `evt_${String(i).padStart(32, "0")}`,
      }),
    );
    const acks = events.map((_, i) => (i === 11 ? URL : null));

    const digest = chatDigest(events, acks);
    const telegram = renderTelegram(digest, "-100123");

    expect(digest.lines[0]).toMatchObject({ text: expect.stringContaining("Caso 11") });
    expect(digest.lines[1]).toEqual({
      text: "↳ alerta urgente: confirme que o viu",
      link: { label: "Confirmar ciência", url: URL },
    });
    expect(digest.lines.at(-1)).toBe("+2 alertas: veja o e-mail ou monitor status.");
    expect(telegram.text).toContain(`<a href="${URL}">Confirmar ciência</a>`);
    expect(telegram.reply_markup).toBeUndefined();
  });

  it("keeps WhatsApp's {{3}} link whole: no look-alike for the token's `_`", () => {
    const link = "https://monitor.example.com/ack/6.yyS2RO7fdb1xNHx56aodlfMqkEc5B_Tf";

    const body = renderWhatsApp(
      { ...urgentMessage(), ack: { ...ACK, url: link } },
      "5561987654321",
      {
        name: "alerta_processo",
        language: "pt_BR",
      },
    );

    expect(body.template.components[0]?.parameters[2]?.text).toBe(link);
  });
});
