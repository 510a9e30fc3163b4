#!/usr/bin/env bash
# Live attribution benchmark (BENCHMARKS.md, "Live attribution"): CPU of `correlate --follow --lake`
# per attributed request against batch `correlate --lake` on the same data, each in its own JVM.
#   bench/live.sh                                   # 5000 requests, 10 lake commits
#   bench/live.sh --requests 20000 --commits 20
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mvn -B -q -o -pl bench -am test-compile dependency:build-classpath -Dspotless.check.skip=true \
  -Dmdep.outputFile="$PWD/bench/target/classpath.txt" -DincludeScope=runtime
echo "machine: nproc=$(nproc), $(free -g | awk '/Mem:/{print $2" GiB"}'); $(uptime)"
java -Xmx512m -cp "bench/target/classes:$(cat bench/target/classpath.txt)" \
  dev.tokentrace.bench.LiveCorrelateBench "$@"
echo "after: $(uptime)"
