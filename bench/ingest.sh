#!/usr/bin/env bash
# Ingest throughput benchmark (BENCHMARKS.md, "Ingest end to end"): simulated vLLM logs through
# parse / ship / sink / ingest, each its own JVM, against DuckDB's read_json of the same events.
#   bench/ingest.sh [--events 1000000] [--dir /tmp/tt-bench-ingest] [--heap 512m] [--repeats 1]
#                   [--stages parse,read_json,ship,sink,ingest] [--jfr false]
# --stages runs only those stages (read_json always; parse only when listed or its NDJSON is missing);
# --jfr true records a JFR profile of each tokentrace stage into DIR/run-N/<stage>.jfr.
# Simulated logs are written once per size under DIR/sim-N (about 260 bytes of log per event:
# 10 M events need ~2.7 GB, plus ~2.5 GB of NDJSON, Kafka and DuckDB files under DIR/run-N).
# Results: a Markdown table on stdout and in DIR/results-N.md.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mvn -B -q -pl bench -am test-compile dependency:build-classpath \
  -Dmdep.outputFile="$PWD/bench/target/classpath.txt" -DincludeScope=runtime
exec java -Xmx256m -cp "bench/target/classes:$(cat bench/target/classpath.txt)" \
  dev.tokentrace.bench.ingest.IngestBench "$@"
