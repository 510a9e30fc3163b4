#!/usr/bin/env bash
# Scale benchmark (BENCHMARKS.md, "Spark against DuckDB"; docs/scale.md): the attribution of one lake
# by `tokentrace correlate --lake` (DuckDB, one JVM) and by `tokentrace spark-correlate --master
# local[2]` (Spark, one JVM), each in its own process under /usr/bin/time: wall, CPU (user + sys) and
# peak RSS. The lake holds N generated requests (bench/generate_requests.sql through ScaleLake),
# kept in DIR between runs.
# Both also store the report's results with the attribution (spark-correlate in the lake,
# docs/scale.md#stored-results; correlate in its DuckDB file).
#   bench/spark.sh [--sizes 100000,1000000] [--repeat 1] [--dir bench/target/spark]
#                  [--engines duckdb,spark] [--duckdb-memory-limit 1GB] [--built]
# DuckDB needs --duckdb-memory-limit 3GB at 10 M requests (1GB, the default, runs out of memory).
# --built: the class path and both launchers' jars are up to date (skips the Maven step).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
sizes=100000
repeat=1
dir=bench/target/spark
engines=duckdb,spark
memory=1GB
built=false
while [ $# -gt 0 ]; do
  case "$1" in
    --sizes) sizes="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --engines) engines="$2"; shift 2 ;;
    --duckdb-memory-limit) memory="$2"; shift 2 ;;
    --built) built=true; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
if [ "$built" != true ] || [ ! -f bench/target/classpath.txt ]; then
  mvn -B -q -o -pl bench -am test-compile dependency:build-classpath -Dspotless.check.skip=true \
    -Dmdep.outputFile="$PWD/bench/target/classpath.txt" -DincludeScope=runtime
fi
mkdir -p "$dir"
# both launchers build their jars on first use: build them now, outside the measurements
./tokentrace --version >/dev/null
./tokentrace spark-correlate --help >/dev/null
echo "machine: nproc=$(nproc), $(free -g | awk '/Mem:/{print $2" GiB"}'); $(uptime)"
measure() { # label, command...
  local label="$1"; shift
  /usr/bin/time -f "%e %U %S %M" -o "$dir/time.txt" "$@" >"$dir/$label.out" 2>"$dir/$label.err" \
    || { echo "$label failed:"; tail -n 20 "$dir/$label.err"; exit 1; }
  read -r wall user sys rss <"$dir/time.txt"
  printf '%-34s wall %7.1f s  cpu %7.1f s  peak RSS %6.0f MiB\n' "$label" "$wall" \
    "$(echo "$user + $sys" | bc)" "$(echo "$rss / 1024" | bc)"
}
IFS=, read -r -a list <<<"$sizes"
for n in "${list[@]}"; do
  java -Xmx1g -cp "bench/target/classes:$(cat bench/target/classpath.txt)" \
    dev.tokentrace.bench.spark.ScaleLake "$n" "$dir" 2>"$dir/generate-$n.err"
  lake="$dir/lake-$n"
  for r in $(seq 1 "$repeat"); do
    if [[ ",$engines," == *,duckdb,* ]]; then
      rm -f "$dir/duck-$n.duckdb" "$dir/duck-$n.duckdb.wal"
      measure "$n duckdb correlate --lake #$r" ./tokentrace correlate --lake "$lake" \
        --db "$dir/duck-$n.duckdb" --duckdb-memory-limit "$memory"
    fi
    if [[ ",$engines," == *,spark,* ]]; then
      measure "$n spark local[2] #$r" ./tokentrace spark-correlate --lake "$lake" --master 'local[2]'
      grep -h "written to the lake\|report result" "$dir/$n spark local[2] #$r.err" || true
    fi
  done
done
echo "after: $(uptime)"
