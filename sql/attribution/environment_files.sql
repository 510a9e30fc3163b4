-- attribution/environment_files: which files each run loaded, with sizes and SHA-256 hashes, for the reproducibility appendix.
-- params:  none
-- returns: run_id, run_kind, started_ts, command, path, file_kind, engine, bytes, sha256
SELECT r.run_id, r.kind AS run_kind, r.started_ts, r.command, f.path, f.kind AS file_kind, f.engine,
       f.bytes, f.sha256
FROM runs r
JOIN run_files f ON f.run_id = r.run_id
ORDER BY r.started_ts, r.run_id, f.path
