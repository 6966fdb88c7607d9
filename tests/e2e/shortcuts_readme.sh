#!/usr/bin/env bash
# README.md's key map (between its shortcut markers) is what `navdebug --print-shortcuts` prints
# from the table the key handling reads (app/navdebug/shortcuts.cpp): fails when they differ.
# usage: shortcuts_readme.sh NAVDEBUG SRC_DIR
set -euo pipefail
exe=$1 src=$2
want=$(mktemp)
have=$(mktemp)
trap 'rm -f "$want" "$have"' EXIT
"$exe" --print-shortcuts > "$want"
sed -n '/^<!-- shortcuts:begin -->$/,/^<!-- shortcuts:end -->$/p' "$src/README.md" | sed '1d;$d' > "$have"
if [ ! -s "$have" ]; then
  echo "shortcuts_readme: FAIL: README.md has no <!-- shortcuts:begin --> ... <!-- shortcuts:end --> block"
  exit 1
fi
if ! diff -u "$have" "$want"; then
  echo "shortcuts_readme: FAIL: README.md's key map differs from navdebug --print-shortcuts (- README, + the table)"
  exit 1
fi
echo "shortcuts_readme: ok: README.md's key map is the table's ($(grep -c '^| ' "$want") rows)"
