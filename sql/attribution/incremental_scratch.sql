-- attribution/incremental_scratch: creates, empty, the temporary tables one round of incremental attribution fills and reads (Attributor, docs/design.md#incremental-attribution).
-- params:  none
-- returns: nothing. key_digests_now: attribution/key_digests as of now; changed_keys:
--          attribution/changed_keys; clock_offsets_before: clock_offsets before the round
--          recomputes it; offset_runs: attribution/offset_runs; redo_keys: attribution/redo_keys.
--          They live in the round's connection only.
CREATE OR REPLACE TEMP TABLE key_digests_now (
    request_key VARCHAR NOT NULL,
    digest      HUGEINT NOT NULL,
    input_rows  BIGINT  NOT NULL
);
CREATE OR REPLACE TEMP TABLE changed_keys (request_key VARCHAR);
CREATE OR REPLACE TEMP TABLE clock_offsets_before AS FROM clock_offsets LIMIT 0;
CREATE OR REPLACE TEMP TABLE offset_runs (run_id VARCHAR);
CREATE OR REPLACE TEMP TABLE redo_keys (request_key VARCHAR);
