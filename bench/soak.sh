#!/usr/bin/env bash
# Soak test of live tailing (BENCHMARKS.md, "Soak: faults while tailing"): a vLLM log written at
# 200 lines/s for MINUTES, rotated by rename every minute, the shipper killed with kill -9 every
# 3 minutes, the sink every 7, the broker stopped and started again every 10; lines written and
# rows stored are compared as sets. CI runs the same test for 75 s with a compressed schedule
# (SoakIT). Each process is a JVM of its own (shipper, sink, broker) started from the test
# classpath, so this takes MINUTES plus a build.
#   bench/soak.sh [MINUTES]     (default 30)
# Result: one line in cli/target/soak-result.txt (printed at the end)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
minutes="${1:-30}"
mvn -B -q -o -pl cli -am verify -Dtest=NONE -Dit.test=SoakIT -Dsoak.minutes="$minutes" \
  -Dsurefire.failIfNoSpecifiedTests=false -Dit.failIfNoSpecifiedTests=false \
  -Dspotless.check.skip=true -Dfailsafe.timeout=0
cat cli/target/soak-result.txt
