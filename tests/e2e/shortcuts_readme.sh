#!/usr/bin/env bash
# docs/navdebug.md's key map (between its shortcut markers) is what `navdebug --print-shortcuts`
# prints from the table the key handling reads (app/navdebug/shortcuts.cpp): fails when they differ.
# (The name is the ctest's, kept from when the key map was in the README.)
# usage: shortcuts_readme.sh NAVDEBUG SRC_DIR
set -euo pipefail
exe=$1 src=$2
doc=docs/navdebug.md
want=$(mktemp)
have=$(mktemp)
trap 'rm -f "$want" "$have"' EXIT
"$exe" --print-shortcuts > "$want"
sed -n '/^<!-- shortcuts:begin -->$/,/^<!-- shortcuts:end -->$/p' "$src/$doc" | sed '1d;$d' > "$have"
if [ ! -s "$have" ]; then
  echo "shortcuts_readme: FAIL: $doc has no <!-- shortcuts:begin --> ... <!-- shortcuts:end --> block"
  exit 1
fi
if ! diff -u "$have" "$want"; then
  echo "shortcuts_readme: FAIL: $doc's key map differs from navdebug --print-shortcuts (- $doc, + the table)"
  exit 1
fi
echo "shortcuts_readme: ok: $doc's key map is the table's ($(grep -c '^| ' "$want") rows)"
