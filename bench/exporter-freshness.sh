#!/usr/bin/env bash
# Line written -> visible in the exporter (BENCHMARKS.md, "Live metrics: line written to /metrics"):
# ship --follow -> Kafka -> sink --follow --lake -> serve --lake, each its own process; this
# process writes the lines and scrapes serve's /metrics every 50 ms. P50/P95/P99 per rate of --rates
# (lines/s over --files files), beside the same run's lake-reader freshness when --baseline yes.
#   bench/exporter-freshness.sh [--rates 1000,20000] [--files 4] [--warmup 10] [--seconds 30]
#                               [--exporter-poll 1s] [--baseline yes|no] [--out DIR]
# Results: Markdown tables on stdout and in DIR/{exporter,lake}/results.md
# (default bench/target/exporter-freshness).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
rates=1000,20000 files=4 warmup=10 seconds=30 poll=1s baseline=yes out=bench/target/exporter-freshness
while [[ $# -gt 0 ]]; do
  case "$1" in
    --rates) rates=$2 ;; --files) files=$2 ;; --warmup) warmup=$2 ;; --seconds) seconds=$2 ;;
    --exporter-poll) poll=$2 ;; --baseline) baseline=$2 ;; --out) out=$2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift 2
done
# package (tests not run): correlate needs the store test-jar from the reactor
mvn -B -q -pl bench -am package -DskipTests -Dspotless.check.skip=true dependency:build-classpath \
  -Dmdep.outputFile="$PWD/bench/target/classpath.txt" -DincludeScope=runtime
cp="bench/target/classes:$(cat bench/target/classpath.txt)"
common=(--rates "$rates" --files "$files" --warmup "$warmup" --seconds "$seconds")
echo "## exporter (serve --poll-interval $poll), load before: $(cut -d' ' -f1-3 /proc/loadavg)"
java -Xmx1g -cp "$cp" dev.tokentrace.bench.FreshnessBench "${common[@]}" --reader exporter \
  --exporter-poll "$poll" --out "$out/exporter"
if [[ $baseline == yes ]]; then
  echo "## baseline: a lake reader in another process (same run), load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  java -Xmx1g -cp "$cp" dev.tokentrace.bench.FreshnessBench "${common[@]}" --store lake \
    --out "$out/lake"
fi
