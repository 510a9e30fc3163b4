-- attribution/changed_keys: the request keys whose input rows changed since the attribution the stored digests describe (incremental attribution).
-- params:  none; reads the temporary table key_digests_now (attribution/key_digests as of now)
-- returns: request_key: a key with a new, changed or vanished digest (new or late rows on either
--          side, rows replaced by `clients --replace`, or every row of the key gone)
SELECT coalesce(n.request_key, o.request_key) AS request_key
FROM key_digests_now n
FULL JOIN attribution_key_digests o ON o.request_key = n.request_key
WHERE n.digest IS DISTINCT FROM o.digest OR n.input_rows IS DISTINCT FROM o.input_rows
