#!/usr/bin/env bash
# make example: build everything and run a real example end to end.
set -eu
B=$(cd "${1:-build}" && pwd)
cd "$(dirname "$0")/.."
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
echo "== compile a GOAL schedule and summarise it"
"$B/bin/goalc" tests/goal/cases/example.goal -o "$W/example.bin"
"$B/bin/goalc" --stats "$W/example.bin"
