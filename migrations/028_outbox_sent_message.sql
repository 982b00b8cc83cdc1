-- The id the chat platform gave the message a row went out as (issue 40): Telegram's
-- "<chat id>:<message id>" (a message id is only unique within its chat), WhatsApp's wamid.
-- A reply "ciente" names the message it answers by that id; the rows it finds (a digest's are
-- several, one message) say which alerts it acknowledges. Null: e-mail, webhooks, a row not sent
-- yet, or a platform whose answer carried no id.
ALTER TABLE outbox ADD COLUMN provider_message_id TEXT;
CREATE INDEX outbox_provider_message ON outbox (channel, provider_message_id)
  WHERE provider_message_id IS NOT NULL;
