#!/usr/bin/env bash
# Rewrites the expected output of every format-generation sample, samples/<engine>/formats/<gen>/.
#
# The samples themselves (server.log, exports, SOURCE.md, scenario.properties) are written by hand
# to the format strings in the engines' format docs; this script never touches them. For each
# sample it runs `tokentrace parse --engine auto` over the sample's files, from inside the sample
# directory so that events name their source relative to it, with the year and zone from
# scenario.properties, and writes:
#   expected/events.jsonl       the events, one JSON object per line
#   expected/parse-summary.txt  standard error: rejected lines, then the lines=/parsed= summary
#   expected/rejects.txt        'path:line: engine: reason' of each rejected line; only for samples
#                               that contain bad lines on purpose (FormatSamplesTest wants none
#                               elsewhere)
# It fails when --engine auto detects another engine than the directory's for any file.
# Deterministic: review a diff after running it like code. Run from anywhere:
#   ./samples/regenerate-formats.sh [samples/<engine>/formats/<gen> ...]
# (regenerate.sh owns the simulated scenarios next to formats/; this script owns only formats/.)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
tt="$root/tokentrace"

if [ "$#" -gt 0 ]; then
  dirs=("$@")
else
  mapfile -t dirs < <(find samples/*/formats -mindepth 1 -maxdepth 1 -type d | LC_ALL=C sort)
fi

# build the jar first, so that the launcher's build messages never land in a parse-summary.txt
"$tt" --version >/dev/null

property() {  # property FILE KEY
  sed -n "s/^$2[[:space:]]*=[[:space:]]*//p" "$1" | tail -1
}

for dir in "${dirs[@]}"; do
  dir="${dir%/}"
  engine="$(basename "$(dirname "$(dirname "$dir")")")"
  generation="$(basename "$dir")"
  props="$dir/scenario.properties"
  [ -f "$props" ] || { echo "$dir: missing scenario.properties" >&2; exit 1; }
  year="$(property "$props" year)"
  zone="$(property "$props" zone)"
  [ -n "$year" ] && [ -n "$zone" ] || { echo "$props: needs year= and zone=" >&2; exit 1; }
  mapfile -t files < <(cd "$dir" && find . -type f ! -name '*.md' ! -name scenario.properties \
      ! -path './expected/*' | sed 's|^\./||' | LC_ALL=C sort)
  mkdir -p "$dir/expected"
  # a sample with bad lines may exceed the default reject tolerance: the ratio check is not the point
  (cd "$dir" && "$tt" parse --engine auto --instance "$engine-$generation" --year "$year" \
      --zone "$zone" --max-reject-ratio 1 "${files[@]}" \
      >expected/events.jsonl 2>expected/parse-summary.txt) || {
    echo "parse failed for $dir:" >&2; cat "$dir/expected/parse-summary.txt" >&2; exit 1; }
  if grep -v "\"engine\":\"$engine\"" "$dir/expected/events.jsonl" | grep -q .; then
    echo "$dir: --engine auto detected another engine than $engine" >&2; exit 1
  fi
  grep -v -e '^lines=' -e '^\.\.\. and ' "$dir/expected/parse-summary.txt" \
      >"$dir/expected/rejects.txt" || true
  [ -s "$dir/expected/rejects.txt" ] || rm -f "$dir/expected/rejects.txt"
  echo "$dir: $(tail -1 "$dir/expected/parse-summary.txt")"
done
