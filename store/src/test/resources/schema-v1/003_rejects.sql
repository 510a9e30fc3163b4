-- schema/003_rejects: every line or row that could not be used, with where and why (docs/design.md#bad-input).
-- excerpt is capped at 512 characters; the whole raw line is on the rejects topic.

CREATE TABLE IF NOT EXISTS rejects (
    source_path   VARCHAR   NOT NULL,
    line_no       BIGINT    NOT NULL,
    byte_offset   BIGINT    NOT NULL,
    engine        VARCHAR,
    reason        VARCHAR   NOT NULL,
    excerpt       VARCHAR   NOT NULL,
    ingested_ts   TIMESTAMP NOT NULL
);
