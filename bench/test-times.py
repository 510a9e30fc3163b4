#!/usr/bin/env python3
"""Per-class test times of a finished `mvn verify` (BENCHMARKS.md, "Test suite time").

Reads every module's target/surefire-reports and target/failsafe-reports (TEST-*.xml), prints the
slowest classes, the sum per module and kind (UT = surefire, IT = failsafe), and each phase's wall
span (first class start to last class end, from the report files' times), which shows what the
two test JVMs per module overlap.

    bench/test-times.py [ROOT] [TOP]      (defaults: . and 15)
"""
import glob
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "."
top = int(sys.argv[2]) if len(sys.argv) > 2 else 15
rows, sums, spans = [], {}, {}
for path in glob.glob(os.path.join(root, "*", "target", "*-reports", "TEST-*.xml")):
    with open(path, errors="replace") as f:
        head = f.read(4000)
    suite = re.search(r'<testsuite[^>]*\bname="([^"]+)"[^>]*\btime="([0-9.,]+)"', head)
    if not suite:
        continue
    module = os.path.relpath(path, root).split(os.sep)[0]
    kind = "IT" if "failsafe-reports" in path else "UT"
    seconds = float(suite.group(2).replace(",", ""))
    rows.append((seconds, module, kind, suite.group(1).rsplit(".", 1)[-1]))
    sums[(module, kind)] = sums.get((module, kind), 0.0) + seconds
    end = os.path.getmtime(path)
    first, last = spans.get((module, kind), (float("inf"), 0.0))
    spans[(module, kind)] = (min(first, end - seconds), max(last, end))
rows.sort(reverse=True)
print("slowest classes (s):")
for seconds, module, kind, name in rows[:top]:
    print(f"{seconds:8.1f}  {module:<10} {kind} {name}")
print("per module and kind: sum of class times / wall span (s):")
for (module, kind), (first, last) in sorted(spans.items(), key=lambda item: item[1][0]):
    print(f"{sums[(module, kind)]:8.1f} / {last - first:7.1f}  {module} {kind}")
print(f"all classes: {sum(sums.values()):.1f} s; spans added up: "
      f"{sum(last - first for first, last in spans.values()):.1f} s")
