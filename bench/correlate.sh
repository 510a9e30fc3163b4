#!/usr/bin/env bash
# Correlation benchmark (BENCHMARKS.md, "Correlation and report at 1 M / 10 M requests"):
# `tokentrace correlate` and `tokentrace report` on generated tables of N joined requests against a
# bare DuckDB join computing the same percentiles; each step in its own JVM (--child-opts, default
# -Xmx512m), repeated, with wall and CPU time, peak heap and peak RSS.
#   bench/correlate.sh                                        # short: 100 k requests, 3 runs
#   bench/correlate.sh --sizes 1000000,10000000 --repeat 3    # the BENCHMARKS.md figures
# Databases are generated once into bench/target/correlate/requests-N.duckdb and kept.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mvn -B -q -o -pl bench -am test-compile dependency:build-classpath -Dspotless.check.skip=true \
  -Dmdep.outputFile="$PWD/bench/target/classpath.txt" -DincludeScope=runtime
echo "machine: nproc=$(nproc), $(free -g | awk '/Mem:/{print $2" GiB"}'); $(uptime)"
java -Xmx256m -cp "bench/target/classes:$(cat bench/target/classpath.txt)" \
  dev.tokentrace.bench.correlate.CorrelateBench "$@"
echo "after: $(uptime)"
