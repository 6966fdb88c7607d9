#!/usr/bin/env bash
# navkit as a game and a tool use it (a ctest, "install"): installs the build into a temporary
# prefix and checks the public face: PREFIX/include holds navkit/{runtime,bake,map2d,crowd}.h and, under
# navkit/detail/, exactly the headers they reach; every installed header compiles alone with
# -I PREFIX/include and no define, and includes only <navkit/...> and the standard library (so
# nothing of nlohmann, oneTBB, assimp, tinygltf, liblz4 or GL); the CMake package and the .pc files
# give PREFIX/include as the one include root. Then builds examples/runtime_path and
# examples/bake_path against it with find_package(navkit) and with plain g++ and pkg-config, runs
# them and checks the paths they print; checks that nothing the runtime brings to a link line is
# oneTBB, JSON, assimp or liblz4 (its pkg-config file, its exported target's interface, and the
# example's real link command).
# usage: check_install.sh BUILD_DIR SOURCE_DIR WORK_DIR NAVBAKE
set -euo pipefail
build="$1" src="$2" work="$3" navbake="$4"
rm -rf "$work"; mkdir -p "$work"
prefix="$work/prefix"
fail() { echo "install: FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; fail "cmake --install"; }
for f in include/navkit/runtime.h include/navkit/bake.h include/navkit/map2d.h include/navkit/crowd.h \
         lib/cmake/navkit/navkitConfig.cmake lib/cmake/navkit/navkitConfigVersion.cmake \
         lib/pkgconfig/navkit.pc lib/pkgconfig/navkit-runtime.pc bin/navbake; do
  [ -e "$prefix/$f" ] || fail "$f not installed"
done
ls "$prefix"/lib/libnavkit_runtime.* "$prefix"/lib/libnavkit_bake.* "$prefix"/lib/libnavkit_map2d.* "$prefix"/lib/libnavkit_crowd.* >/dev/null \
  || fail "the four libraries are not all installed"
if [ -e "$prefix/bin/navdebug" ]; then
  for f in share/navkit/shaders share/navkit/assets/demo.obj; do [ -e "$prefix/$f" ] || fail "$f not installed"; done
fi
echo "install: headers, libraries, CMake package and pkg-config files in $prefix"

# The public face: under PREFIX/include only navkit/, with the four public headers at its top and
# everything else under navkit/detail/.
inc="$prefix/include"
stray=$(find "$inc" ! -type d | sed "s|^$inc/||" | grep -vE '^navkit/(runtime|bake|map2d|crowd)\.h$|^navkit/detail/.+\.h$' || true)
[ -z "$stray" ] || fail "installed in PREFIX/include besides navkit/{runtime,bake,map2d,crowd}.h and navkit/detail/*.h:"$'\n'"$stray"
installed=$(cd "$inc" && find navkit -type f | sort)

# Every include line of an installed header names <navkit/...> (installed) or a standard header.
std_headers=(algorithm any array atomic barrier bit bitset cassert cctype cerrno cfenv cfloat charconv chrono
  cinttypes climits clocale cmath compare complex concepts condition_variable coroutine csetjmp csignal
  cstdarg cstddef cstdint cstdio cstdlib cstring ctime cuchar cwchar cwctype deque exception execution
  filesystem format forward_list fstream functional future initializer_list iomanip ios iosfwd iostream
  istream iterator latch limits list locale map memory memory_resource mutex new numbers numeric optional
  ostream queue random ranges ratio regex scoped_allocator semaphore set shared_mutex source_location span
  sstream stack stdexcept stop_token streambuf string string_view syncstream system_error thread tuple
  type_traits typeindex typeinfo unordered_map unordered_set utility valarray variant vector version)
declare -A is_std; for name in "${std_headers[@]}"; do is_std[$name]=1; done
bad_inc=""
for rel in $installed; do
  while IFS= read -r line; do
    if [[ $line =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\<(navkit/[^>]+)\> ]]; then
      [ -f "$inc/${BASH_REMATCH[1]}" ] || bad_inc+="  $rel: $line (not installed)"$'\n'
    elif [[ $line =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\<([a-z_]+)\>[[:space:]]*(//.*)?$ ]] \
         && [ -n "${is_std[${BASH_REMATCH[1]}]:-}" ]; then
      :
    else
      bad_inc+="  $rel: $line"$'\n'
    fi
  done < <(grep -E '^[[:space:]]*#[[:space:]]*include' "$inc/$rel")
done
[ -z "$bad_inc" ] || fail "installed headers include what is not <navkit/...> (installed) or the standard library:"$'\n'"$bad_inc"

# Each installed header compiles alone, as a game's first include with the project's warnings.
# shellcheck disable=SC2016  # expanded by the inner sh
alone_failed=$(echo "$installed" | xargs -P2 -I{} sh -c '
  log="$3/alone.$(echo "$1" | tr / _).log"
  printf "#include <%s>\n" "$1" | g++ -std=c++20 -x c++ -fsyntax-only -Wall -Wextra -Werror -I "$2" - >"$log" 2>&1 || echo "$1"' \
  _ {} "$inc" "$work")
if [ -n "$alone_failed" ]; then
  for rel in $alone_failed; do echo "--- $rel:"; head -20 "$work/alone.$(echo "$rel" | tr / _).log"; done
  fail "installed headers that do not compile alone with -I PREFIX/include:"$'\n'"$alone_failed"
fi

# Only the public API: what the four public headers reach (the compiler's -M) is exactly what is
# installed, and none of it is another library's header.
deps=$(for h in runtime bake map2d crowd; do
         printf '#include <navkit/%s.h>\n' "$h" | g++ -std=c++20 -x c++ -M -MT x -I "$inc" - || fail "-M navkit/$h.h"
       done | tr -s ' \\' '\n' | grep -v '^$' | sort -u)
foreign=$(echo "$deps" | grep -iE 'nlohmann|tiny_gltf|assimp|/tbb/|oneapi|lz4|/GL/|GLFW|glad|imgui' || true)
[ -z "$foreign" ] || fail "the public headers reach JSON, tinygltf, assimp, oneTBB, LZ4 or GL:"$'\n'"$foreign"
reached=$(echo "$deps" | grep "^$inc/" | sed "s|^$inc/||" | sort -u)
unreached=$(comm -23 <(echo "$installed") <(echo "$reached"))
[ -z "$unreached" ] || fail "installed but reached by no public header:"$'\n'"$unreached"
echo "install: $(echo "$installed" | wc -l) headers under include/navkit (3 public, the rest the detail/ they reach): each compiles alone with -I PREFIX/include and includes only navkit/ and the standard library"

# One include root everywhere: PREFIX/include (never PREFIX/include/navkit).
for pc in navkit-runtime navkit; do
  cflags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags "$pc")
  read -r -a words <<<"$cflags"
  if [ "${#words[@]}" -ne 1 ] || [ "${words[0]#-I}" = "${words[0]}" ] || [ "$(realpath -m "${words[0]#-I}")" != "$(realpath "$inc")" ]; then
    fail "pkg-config --cflags $pc: '$cflags', expected -I PREFIX/include alone"
  fi
done
roots=$(grep -h 'INTERFACE_INCLUDE_DIRECTORIES' "$prefix/lib/cmake/navkit/navkitTargets.cmake" | sort -u)
# shellcheck disable=SC2016  # the literal text of the exported file
[ "${roots#"${roots%%[! ]*}"}" = 'INTERFACE_INCLUDE_DIRECTORIES "${_IMPORT_PREFIX}/include"' ] \
  || fail "the exported targets' include directories are not PREFIX/include alone:"$'\n'"$roots"

# The runtime's link line: no oneTBB, no JSON, from the .pc file and from the exported target.
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
rt_libs=$(pkg-config --libs --static navkit-runtime)
echo "install: pkg-config --libs --static navkit-runtime: $rt_libs"
if echo "$rt_libs" | grep -qiE 'tbb|json|-lassimp|libassimp|assimp::|-llz4|liblz4|PkgConfig::LZ4'; then fail "navkit-runtime.pc brings oneTBB, JSON, assimp or LZ4: $rt_libs"; fi
rt_iface=$(awk '/^set_target_properties\(navkit::runtime /,/^\)/' "$prefix/lib/cmake/navkit/navkitTargets.cmake")
[ -n "$rt_iface" ] || fail "navkit::runtime is not in the exported targets"
if echo "$rt_iface" | grep -qiE 'tbb|json|-lassimp|libassimp|assimp::|-llz4|liblz4|PkgConfig::LZ4'; then fail "navkit::runtime's interface brings oneTBB, JSON, assimp or LZ4: $rt_iface"; fi

# The examples, as separate projects against the installed package.
for ex in runtime_path bake_path; do
  cmake -S "$src/examples/$ex" -B "$work/$ex" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
    >"$work/$ex.configure.log" 2>&1 || { cat "$work/$ex.configure.log"; fail "configure $ex"; }
  cmake --build "$work/$ex" -v >"$work/$ex.build.log" 2>&1 || { cat "$work/$ex.build.log"; fail "build $ex"; }
done
link=$(grep -E -- '-o runtime_path( |$)' "$work/runtime_path.build.log" || true)
[ -n "$link" ] || fail "no link command for runtime_path in its build log"
if echo "$link" | grep -qiE 'tbb|json|-lassimp|libassimp|assimp::|-llz4|liblz4|PkgConfig::LZ4'; then fail "runtime_path links oneTBB, JSON, assimp or LZ4: $link"; fi
echo "install: runtime_path link line: ${link#*-o runtime_path }"

# runtime_path once more without CMake: pkg-config alone.
# shellcheck disable=SC2046
g++ -std=c++20 -O2 "$src/examples/runtime_path/main.cpp" -o "$work/runtime_path_pc" $(pkg-config --cflags --libs navkit-runtime) \
  || fail "runtime_path with pkg-config navkit-runtime"

# A game's own core/common.h (or any core/...) on its include path no longer meets ours.
mkdir -p "$work/game/core/runtime"
for f in core/common.h core/runtime/query.h; do echo "#error \"the game's own $f, not navkit's\"" >"$work/game/$f"; done
# shellcheck disable=SC2046
g++ -std=c++20 -fsyntax-only -I "$work/game" "$src/examples/runtime_path/main.cpp" $(pkg-config --cflags navkit-runtime) \
  || fail "<navkit/runtime.h> picks up a game's own core/ headers"
echo "install: <navkit/runtime.h> compiles beside a game's own core/common.h and core/runtime/query.h"

expect_rt=$'polygons 3, path 3 points, length 19.560\n2.000 0.000 2.000\n10.000 0.000 10.000\n12.000 0.000 18.000'
for exe in "$work/runtime_path/runtime_path" "$work/runtime_path_pc"; do
  got=$(LD_LIBRARY_PATH="$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$exe") || fail "$exe exited non-zero"
  [ "$got" = "$expect_rt" ] || fail "$exe printed:"$'\n'"$got"$'\n'"expected:"$'\n'"$expect_rt"
done
echo "install: runtime_path (find_package and pkg-config) finds the path around the corner: 19.560 m"

# bake_path on the demo level: the same path as navbake's for the same pair and config.
demo="$src/assets/demo.obj" cfg="$src/assets/demo.json"
pair="-12.97 4.2 -11.55 -8.22 0.2 16.2"  # up the ramp to the platform and back down: 6 points
echo "$pair" >"$work/pair.txt"
# shellcheck disable=SC2086
got=$("$work/bake_path/bake_path" "$demo" $pair "$cfg") || fail "bake_path exited non-zero: $got"
want=$("$navbake" "$demo" --config "$cfg" --pairs "$work/pair.txt" --json | python3 -c '
import json, sys
j = json.load(sys.stdin)
it = j["paths"]["items"][0]
assert it["reached"], "navbake did not reach the pair"
print("baked %d polygons" % j["counts"]["polys"])
print("polygons %d, path %d points, length %.3f" % (it["polys"], len(it["points"]), it["length"]))
for p in it["points"]: print("%.3f %.3f %.3f" % tuple(p))')
[ "$got" = "$want" ] || fail "bake_path printed:"$'\n'"$got"$'\n'"navbake says:"$'\n'"$want"
echo "install: bake_path bakes the demo and finds navbake's path: $(echo "$got" | sed -n 2p)"
# bake_path once more without CMake: pkg-config navkit alone (a static bake library needs oneTBB,
# assimp and liblz4 on the link line: `pkg-config --static navkit` must say so).
pc_static=--static
[ -e "$prefix/lib/libnavkit_bake.so" ] && pc_static=""
# shellcheck disable=SC2046,SC2086
g++ -std=c++20 -O1 "$src/examples/bake_path/main.cpp" -o "$work/bake_path_pc" $(pkg-config --cflags --libs $pc_static navkit) \
  || fail "bake_path with pkg-config $pc_static navkit (is -lassimp, -ltbb or -llz4 missing from navkit.pc?)"
printf 'o floor\nv -5 0 -5\nv -5 0 5\nv 5 0 5\nv 5 0 -5\nf 1 2 3\nf 1 3 4\n' >"$work/floor.obj"
got_pc=$(LD_LIBRARY_PATH="$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$work/bake_path_pc" "$work/floor.obj" -4 0 -4 4 0 4) \
  || fail "bake_path_pc exited non-zero: $got_pc"
echo "install: bake_path from pkg-config $pc_static navkit bakes a floor: $(echo "$got_pc" | head -1)"
# The installed debugger renders the installed demo scene with the installed shaders.
if [ -x "$prefix/bin/navdebug" ] && command -v xvfb-run >/dev/null 2>&1; then
  xvfb-run -a "$prefix/bin/navdebug" "$prefix/share/navkit/assets/demo.obj" --config "$prefix/share/navkit/assets/demo.json" \
    --screenshot "$work/installed.png" --size 320x240 >"$work/navdebug.log" 2>&1 || { cat "$work/navdebug.log"; fail "installed navdebug"; }
  [ -s "$work/installed.png" ] || fail "installed navdebug wrote no screenshot"
  echo "install: the installed navdebug renders the installed demo ($work/installed.png)"
fi
echo "install: ok"
