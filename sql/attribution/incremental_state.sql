-- attribution/incremental_state: creates the two tables in which incremental attribution (`correlate --follow`) remembers its inputs between rounds, if they are not there.
-- params:  none
-- returns: nothing. Run by Attributor's incremental rounds only, in the round's transaction, so
--          that batch commands and read-only readers never see or need them
--          (docs/design.md#incremental-attribution). They hold bookkeeping, not results: dropping
--          them costs one full recompute at the next round.

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
