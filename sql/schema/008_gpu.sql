-- schema/008_gpu: the GPU telemetry event tables, version 4 of the schema (sql/schema/INDEX).
-- A database of version 3 gets them on its next open; nothing else changes.

-- gpu_sample: one GPU's telemetry at one time (nvidia-smi --query-gpu, dmon, DCGM exporter),
-- stamped with the engine instance the GPU serves. engine is 'gpu'; tool: query-gpu, dmon or dcgm.
-- Metrics are NULL where the tool was not asked for them or the GPU could not give them; then
-- unavailable lists 'field=placeholder' ([N/A], [Not Supported], -). Units are in the column names
-- (percent, MiB, W, MHz, degrees C). docs/formats/gpu.md#gpu_sample
CREATE TABLE IF NOT EXISTS gpu_sample (
    engine VARCHAR NOT NULL,
    instance VARCHAR NOT NULL,
    ts TIMESTAMP,
    source_path VARCHAR NOT NULL,
    source_line BIGINT NOT NULL,
    source_offset BIGINT NOT NULL,
    tool VARCHAR NOT NULL,
    host VARCHAR,
    gpu_index INTEGER,
    gpu_uuid VARCHAR,
    util_gpu_pct DOUBLE,
    util_mem_pct DOUBLE,
    mem_used_mib DOUBLE,
    mem_total_mib DOUBLE,
    power_w DOUBLE,
    sm_clock_mhz DOUBLE,
    temp_c DOUBLE,
    sm_active_pct DOUBLE,
    unavailable VARCHAR
);

-- gpu_process: a process on a GPU at one time (nvidia-smi --query-compute-apps, pmon): the engine
-- itself or another job sharing its GPU. tool: compute-apps (used_mem_mib) or pmon (sm_pct,
-- mem_pct, and used_mem_mib with -s m). docs/formats/gpu.md#gpu_process
CREATE TABLE IF NOT EXISTS gpu_process (
    engine VARCHAR NOT NULL,
    instance VARCHAR NOT NULL,
    ts TIMESTAMP,
    source_path VARCHAR NOT NULL,
    source_line BIGINT NOT NULL,
    source_offset BIGINT NOT NULL,
    tool VARCHAR NOT NULL,
    gpu_index INTEGER,
    gpu_uuid VARCHAR,
    pid BIGINT NOT NULL,
    process_name VARCHAR,
    process_type VARCHAR,
    used_mem_mib DOUBLE,
    sm_pct DOUBLE,
    mem_pct DOUBLE
);
