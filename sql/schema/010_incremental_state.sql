-- schema/010_incremental_state: the bookkeeping tables of incremental attribution (`correlate --follow`), version 6 of the schema (sql/schema/INDEX).
-- A database of version 5 gets them, empty, on its next open; nothing else changes. Before this
-- version the first incremental round created them (CREATE TABLE IF NOT EXISTS, the same columns),
-- so a file that already has them keeps them and their rows (docs/design.md#incremental-attribution).
-- They hold bookkeeping, not results: emptied, they cost one full recompute at the next round.

-- attribution_key_digests: per request_key, a digest of every input row with that key
-- (client_timing, request_timing, request_arrived, request_aborted, see attribution/key_digests), as
-- of the attribution of attribution_digest_run. A round re-attributes the keys whose digest
-- changed (new, late, replaced or removed rows on either side).
CREATE TABLE IF NOT EXISTS attribution_key_digests (
    request_key VARCHAR NOT NULL,
    digest      HUGEINT NOT NULL,
    input_rows  BIGINT  NOT NULL
);

-- attribution_digest_run: the run_id (attribution_state) the digests describe, one row at most.
-- A batch `correlate` or `report` recomputes without digests, so its run_id differs and the next
-- round recomputes everything once.
CREATE TABLE IF NOT EXISTS attribution_digest_run (
    run_id VARCHAR NOT NULL
);
