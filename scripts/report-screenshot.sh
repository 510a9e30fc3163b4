#!/usr/bin/env bash
# Renders an HTML report in headless Chromium and writes a PNG screenshot, to check that the page
# renders (charts, tables) without any network access. Needs Debian's chromium package
# (apt-get install -y chromium); CI does not run this.
#
#   scripts/report-screenshot.sh [REPORT.html] [OUT.png] [WIDTHxHEIGHT]
#
# Defaults: the demo's report (tokentrace-demo/report.html, written by ./tokentrace demo), the
# committed docs/screenshots/report-1400.png, 1400x1700 (docs/screenshots/report-800.png is the
# same page at 800x2000). The browser gets a fresh profile directory, no GPU, no
# sandbox (containers), and its background networking, updates and sync switched off; the page's
# own Content-Security-Policy forbids every fetch anyway.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
report="${1:-$root/tokentrace-demo/report.html}"
out="${2:-$root/docs/screenshots/report-1400.png}"
size="${3:-1400x1700}"
browser="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
if [ -z "$browser" ]; then
  echo "report-screenshot: chromium not found (apt-get install -y chromium, or set CHROMIUM)" >&2
  exit 2
fi
if [ ! -f "$report" ]; then
  echo "report-screenshot: $report not found (run ./tokentrace demo first)" >&2
  exit 2
fi
profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
mkdir -p "$(dirname "$out")"
"$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --hide-scrollbars --user-data-dir="$profile" --window-size="${size/x/,}" \
  --screenshot="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")" \
  "file://$(cd "$(dirname "$report")" && pwd)/$(basename "$report")" 2>"$profile/chromium.log" || {
    echo "report-screenshot: chromium failed:" >&2
    cat "$profile/chromium.log" >&2
    exit 1
  }
echo "report-screenshot: $out"
