#!/usr/bin/env bash
# No function over 150 lines outside the tests (a ctest, "function_length"): lists every function
# definition in core/, render/, app/ and tools/ (not tests/) longer than that, as
#   file:line: name N lines
# and exits 1 when there is one. Lengths come from universal-ctags' line and end fields (the
# Debian package universal-ctags), so free functions, member functions defined in the class or
# out of line, templates and lambdas are all seen; a lambda is part of the function it is written
# in, and is listed on its own only when that function is not (a long lambda at namespace scope).
# Before the real check the script checks itself on a generated tree (a 151-line free function, a
# 151-line member defined in its class, a 151-line out-of-line member made mostly of lambdas, a
# 151-line lambda at namespace scope, and a 150-line function and tests/ that must pass), so a
# ctags that stops reporting ends cannot make it pass.
# Usage: check_function_length.sh [ROOT]         self-test, then check ROOT (default: the repo)
#        check_function_length.sh --self-test    the self-test only
set -uo pipefail
MAX_LINES=150

if ! ctags --version 2>/dev/null | grep -q 'Universal Ctags'; then
  echo "function_length: universal-ctags is required (Debian package universal-ctags, scripts/setup.sh)" >&2
  exit 1
fi

# check ROOT DIR...: prints the offenders under ROOT/DIR..., returns 1 when there is one
check() {
  local root="$1"; shift
  (cd "$root" && ctags --output-format=json --fields=+neKZ --kinds-c++=f --languages=C++ -R -f - "$@") |
  python3 -c '
import json, sys
limit = int(sys.argv[1])
tags = []
for line in sys.stdin:
    t = json.loads(line)
    if t.get("_type") != "tag" or t.get("kind") != "function":
        continue
    if "end" not in t:
        print("%s:%d: %s: ctags gave no end line" % (t["path"], t["line"], t["name"]), file=sys.stderr)
        sys.exit(2)
    tags.append(t)

def is_anon(part):
    return part.startswith("__anon")

def qualified(t):
    scope = t.get("scope", "")
    parts = [p for p in scope.split("::") if p and not is_anon(p)] if scope else []
    return "::".join(parts + [t["name"]])

def length(t):
    return t["end"] - t["line"] + 1

long_ones = [t for t in tags if length(t) > limit]
# the functions (by file and full scope name) already listed: a long lambda inside one of them is
# part of it and not listed again
listed = {(t["path"], (t["scope"] + "::" if t.get("scope") else "") + t["name"])
          for t in long_ones if not is_anon(t["name"])}
out = []
for t in long_ones:
    if is_anon(t["name"]):
        if t.get("scopeKind") == "function" and (t["path"], t["scope"]) in listed:
            continue
        scope = qualified(dict(t, name="")).rstrip(":")
        name = "lambda in " + (scope if scope else "namespace scope")
    else:
        name = qualified(t)
    out.append((t["path"], t["line"], "%s:%d: %s %d lines" % (t["path"], t["line"], name, length(t))))
for _, _, text in sorted(out):
    print(text)
sys.exit(1 if out else 0)
' "$MAX_LINES"
}

# a function of exactly N lines (signature line to closing brace), with BODY_LINE as its body
emit_function() {  # emit_function SIGNATURE N BODY_LINE
  echo "$1 {"
  for ((i = 0; i < $2 - 2; ++i)); do echo "$3"; done
  echo "}"
}

self_test() {
  local dir
  dir=$(mktemp -d) || return 1
  mkdir -p "$dir/core" "$dir/tests"
  {
    echo 'namespace nav {'
    emit_function 'int long_free(int x)' 151 '  x += 1;'
    emit_function 'int fits(int x)' 150 '  x += 1;'
    echo 'struct Widget {'
    echo '  int run(int x);'
    emit_function '  int in_class(int x)' 151 '    x += 1;'
    echo '};'
    # an out-of-line member made of lambdas: each one opens and closes braces on its own lines
    echo 'int Widget::run(int x) {'
    for ((i = 0; i < 37; ++i)); do
      echo '  auto f = [&](int y) {'
      echo '    return y + x;'
      echo '  };'
      echo '  x = f(x);'
    done
    echo '  return x;'
    echo '}'
    echo 'namespace {'
    echo 'auto long_lambda = [](int x) {'
    for ((i = 0; i < 149; ++i)); do echo '  x += 1;'; done
    echo '  return x; };'
    echo '}'
    echo '}'
  } >"$dir/core/sample.cpp"
  # tests/ is not checked
  emit_function 'int long_test(int x)' 200 '  x += 1;' >"$dir/tests/test_sample.cpp"
  local got want
  got=$(check "$dir" core 2>&1)
  want="core/sample.cpp:2: nav::long_free 151 lines
core/sample.cpp:305: nav::Widget::in_class 151 lines
core/sample.cpp:457: nav::Widget::run 151 lines
core/sample.cpp:609: lambda in nav 151 lines"
  rm -rf "$dir"
  if [ "$got" != "$want" ]; then
    echo "function_length: self-test failed; expected:"
    echo "$want" | sed 's/^/  /'
    echo "got:"
    echo "$got" | sed 's/^/  /'
    return 1
  fi
  echo "function_length: self-test passed (151-line free, in-class, out-of-line lambda-made member and lambda caught; 150 lines and tests/ passed)"
}

if [ "${1:-}" = "--self-test" ]; then
  self_test
  exit $?
fi
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
self_test || exit 1
dirs=()
for d in core render app tools; do [ -d "$root/$d" ] && dirs+=("$d"); done
if ! check "$root" "${dirs[@]}"; then
  echo "function_length: the functions above are over $MAX_LINES lines; split them into their steps"
  exit 1
fi
echo "function_length: no function over $MAX_LINES lines in ${dirs[*]}"
