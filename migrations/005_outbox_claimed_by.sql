-- Who claimed a pending outbox row for its send (`pid@host:random`, as the sweep lease names its
-- holder). A row claimed by a process that died on this host is taken over at once instead of
-- waiting for the claim to run out; cleared when the send is marked sent or failed.
ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
