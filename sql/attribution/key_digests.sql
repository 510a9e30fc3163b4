-- attribution/key_digests: per request_key, a digest of every row the attribution reads with that key, so that incremental attribution can tell which keys changed since its last round.
-- params:  none
-- returns: request_key, digest (HUGEINT: the sum of the rows' 64-bit hashes, each salted with its
--          table's name), input_rows (BIGINT)
--
-- Every column of a row is hashed, so a row added, removed or changed in any column changes its
-- key's digest (docs/design.md#incremental-attribution). Two different row sets of one key with
-- equal sums and counts would be missed: with 64-bit hashes that is a chance of about 2^-64 per
-- changed key. The attribution of a key reads only rows with that key (per_request.sql: every
-- window, aggregate and join is per key), except the clock offsets and the warm-up order, which
-- Attributor handles per run.
SELECT request_key, sum(h) AS digest, count(*) AS input_rows
FROM (
    SELECT c.request_key, hash('client_timing', c) AS h FROM client_timing c
    UNION ALL
    SELECT t.request_key, hash('request_timing', t) AS h FROM request_timing t
    UNION ALL
    SELECT a.request_key, hash('request_arrived', a) AS h FROM request_arrived a
    UNION ALL
    SELECT b.request_key, hash('request_aborted', b) AS h FROM request_aborted b
)
GROUP BY request_key
