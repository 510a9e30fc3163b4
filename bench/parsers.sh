#!/usr/bin/env bash
# Parser throughput (BENCHMARKS.md, "Parser throughput (JMH)"): lines/s of one thread per engine
# and line kind, against splitting the same bytes into lines (the I/O-free limit).
#   bench/parsers.sh                     # about 7 min: -wi 10 -i 5 -f 1, 1 s iterations (JIT warm-up
#                                        # takes several seconds of CPU on a loaded machine)
#   bench/parsers.sh -p kind=VLLM_STATS -wi 10 -w 1s -i 5 -r 1s -f 1
#                                        # any JMH options; they replace the defaults below entirely,
#                                        # so give the iteration options too (-p alone runs JMH's own
#                                        # defaults: 5 forks x 5 x 10 s, over an hour)
#   PROF=jfr bench/parsers.sh ...        # adds -prof jfr (recordings under bench/target/jmh-jfr)
# Prints JMH's table (also bench/target/parsers.json), then a Markdown table of parse / split per
# kind with the targets, and the load average before and after.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mvn -B -q -o -pl bench -am test-compile dependency:build-classpath \
  -Dmdep.outputFile="$PWD/bench/target/classpath.txt" -DincludeScope=runtime
args=("$@")
if [ ${#args[@]} -eq 0 ]; then
  args=(-wi 10 -w 1s -i 5 -r 1s -f 1)
fi
prof=()
if [ -n "${PROF:-}" ]; then
  prof=(-prof "jfr:dir=bench/target/jmh-jfr")
fi
echo "machine: nproc=$(nproc), $(free -g | awk '/Mem:/{print $2" GiB"}'); $(uptime)"
java -cp "bench/target/classes:$(cat bench/target/classpath.txt)" \
  dev.tokentrace.bench.jmh.ParserBenchMain \
  'dev.tokentrace.bench.jmh.ParserBench.(parse|split)$' -rf json -rff bench/target/parsers.json \
  "${prof[@]}" "${args[@]}"
echo "after: $(uptime)"
