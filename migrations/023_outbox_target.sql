-- A row of a per-watcher endpoint (a whatsapp endpoint without a `to` of its own) goes to one
-- watcher's number, from the watchlist's `whatsapp:`: the row keeps it, so a resend goes where the
-- first attempt went even after the watchlist changes. Null for every other row: an e-mail row's
-- recipient is its address, an endpoint row's the endpoint's configured name.
ALTER TABLE outbox ADD COLUMN target TEXT;
