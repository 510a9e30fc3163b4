#!/usr/bin/env bash
# Scale benchmark (BENCHMARKS.md, "Spark against DuckDB"; docs/scale.md): the attribution of one lake
# by `tokentrace correlate --lake` (DuckDB, one JVM) and by `tokentrace spark-correlate --master
# local[2]` (Spark, one JVM), each in its own process under /usr/bin/time: wall, CPU (user + sys) and
# peak RSS. The lake holds N generated requests (bench/generate_requests.sql through ScaleLake),
# kept in DIR between runs.
#   bench/spark.sh [--sizes 100000,1000000] [--repeat 1] [--dir bench/target/spark]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
sizes=100000
repeat=1
dir=bench/target/spark
while [ $# -gt 0 ]; do
  case "$1" in
    --sizes) sizes="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
mvn -B -q -o -pl bench -am test-compile dependency:build-classpath -Dspotless.check.skip=true \
  -Dmdep.outputFile="$PWD/bench/target/classpath.txt" -DincludeScope=runtime
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
    rm -f "$dir/duck-$n.duckdb" "$dir/duck-$n.duckdb.wal"
    measure "$n duckdb correlate --lake #$r" ./tokentrace correlate --lake "$lake" --db "$dir/duck-$n.duckdb"
    measure "$n spark local[2] #$r" ./tokentrace spark-correlate --lake "$lake" --master 'local[2]'
    grep -h "written to the lake" "$dir/$n spark local[2] #$r.err" || true
  done
done
echo "after: $(uptime)"
