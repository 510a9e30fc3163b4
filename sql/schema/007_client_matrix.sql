-- schema/007_client_matrix: the cell of a loadgen --matrix sweep, version 3 of the schema
-- (sql/schema/INDEX). A database of an older version gets the two columns, NULL in its rows.

-- client_timing.max_tokens: the output length the request asked for; client_timing.cell: the label
-- of its cell (e.g. prompt=512 output=64 concurrency=4). Both NULL outside a sweep
-- (docs/formats/client-files.md#matrix-columns).
ALTER TABLE client_timing ADD COLUMN IF NOT EXISTS max_tokens INTEGER;
ALTER TABLE client_timing ADD COLUMN IF NOT EXISTS cell VARCHAR;
