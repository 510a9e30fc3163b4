-- schema/004_bookkeeping: Kafka offsets committed in the same DuckDB transaction as the rows they
-- produced (docs/design.md#appender-and-transactions), so a sink restart neither loses nor duplicates a row; and what each run
-- loaded, with file hashes and parameters, for the report's reproducibility appendix.

-- topic_id is Kafka's id of the topic the offsets belong to: a topic deleted and created again, or
-- the same name on another (e.g. a new embedded) broker, starts at offset 0 again, and its old
-- offsets must not be reused.
CREATE TABLE IF NOT EXISTS kafka_offsets (
    topic        VARCHAR  NOT NULL,
    part         INTEGER  NOT NULL,
    next_offset  BIGINT   NOT NULL,
    topic_id     VARCHAR  NOT NULL,
    PRIMARY KEY (topic, part)
);

CREATE TABLE IF NOT EXISTS runs (
    run_id       VARCHAR   NOT NULL PRIMARY KEY,
    kind         VARCHAR   NOT NULL,
    started_ts   TIMESTAMP NOT NULL,
    command      VARCHAR   NOT NULL,
    params       VARCHAR
);

CREATE TABLE IF NOT EXISTS run_files (
    run_id       VARCHAR   NOT NULL,
    path         VARCHAR   NOT NULL,
    kind         VARCHAR   NOT NULL,
    engine       VARCHAR,
    bytes        BIGINT    NOT NULL,
    sha256       VARCHAR   NOT NULL
);

-- What batch `ingest` loaded, per file and instance, so that a second run skips a file already
-- loaded (same instance, same SHA-256) and a run killed half-way is made whole on the next one:
-- state 'loading' is committed before the first line is shipped and becomes 'loaded' once the
-- sink holds every record of the file; a file still 'loading' with the same SHA-256 is resumed after
-- the records the killed run stored (docs/follow.md#batch-resume), one whose content changed has its
-- rows removed and is loaded again.
CREATE TABLE IF NOT EXISTS ingest_files (
    source_path  VARCHAR   NOT NULL,
    instance     VARCHAR   NOT NULL,
    sha256       VARCHAR   NOT NULL,
    bytes        BIGINT    NOT NULL,
    state        VARCHAR   NOT NULL,
    loaded_ts    TIMESTAMP NOT NULL,
    PRIMARY KEY (source_path, instance)
);
