-- schema/006_server_config: the server_config event table, version 2 of the schema (sql/schema/INDEX).
-- A database of version 1 gets it on its next open; nothing else changes.

-- server_config: one row per configuration fact a server printed at startup (version, launch
-- arguments, engine settings, KV-cache size, GPUs), with the line it came from. Several rows share
-- a source line. section: the kind of line (args = launch arguments as given, possibly unresolved;
-- engine_config, limits, kv_cache, gpu, version, ...: what the engine resolved or measured); key:
-- the engine's own name where it prints one. Secret values are redacted before they leave the
-- parser. Keys and sections per engine: docs/formats/*.md, "Startup configuration lines".
CREATE TABLE IF NOT EXISTS server_config (
    engine          VARCHAR   NOT NULL,
    instance        VARCHAR   NOT NULL,
    ts              TIMESTAMP,
    source_path     VARCHAR   NOT NULL,
    source_line     BIGINT    NOT NULL,
    source_offset   BIGINT    NOT NULL,
    section         VARCHAR   NOT NULL,
    key             VARCHAR   NOT NULL,
    value           VARCHAR   NOT NULL
);
