#!/usr/bin/env bash
# Live tailing benchmark (BENCHMARKS.md, "Live tailing: freshness and shipper cost"):
# line appended -> row queryable in DuckDB, P50/P95/P99, and the shipper's CPU and memory, at
# each rate of --rates (lines/s over --files files; 0 = idle baseline).
#   bench/freshness.sh [--rates 0,1000,20000] [--files 4] [--warmup 10] [--seconds 30] [--store duckdb|lake]
#                      [--shipper-opts -Xmx1g] [--out DIR]
# Results: a Markdown table on stdout and in DIR/results.md (default bench/target/freshness),
# with each rate's shipper log in DIR/rate-N/ship.err.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mvn -B -q -pl bench -am test-compile dependency:build-classpath \
  -Dmdep.outputFile="$PWD/bench/target/classpath.txt" -DincludeScope=runtime
exec java -Xmx1g -cp "bench/target/classes:$(cat bench/target/classpath.txt)" \
  dev.tokentrace.bench.FreshnessBench "$@"
