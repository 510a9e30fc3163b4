#!/usr/bin/env bash
# Parquet lake benchmark (BENCHMARKS.md, "Parquet lake"): sink --lake throughput against DuckDB's
# own COPY (FROM read_json(...)) TO ... (FORMAT parquet) of the same events, and a reader's queries
# over a lake of small files before and after compaction.
#   bench/lake.sh [--events 1000000] [--dir /tmp/tt-bench-lake] [--small-flush-rows 5000] [--heap 512m]
#                 [--readers-only true]   (only the small-file lake and its readers: the 10 M run)
# Freshness of the lake (line written -> row returned by a reader in another process):
#   bench/freshness.sh --store lake --rates 1000,20000 --files 4
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mvn -B -q -pl bench -am test-compile dependency:build-classpath \
  -Dmdep.outputFile="$PWD/bench/target/classpath.txt" -DincludeScope=runtime
exec java -Xmx1g -cp "bench/target/classes:$(cat bench/target/classpath.txt)" \
  dev.tokentrace.bench.lake.LakeBench "$@"
