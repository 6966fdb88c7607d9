#!/usr/bin/env bash
# navkit as a game and a tool use it (a ctest, "install"): installs the build into a temporary
# prefix, builds examples/runtime_path and examples/bake_path against it with find_package(navkit),
# runtime_path once more with plain g++ and `pkg-config navkit-runtime`, runs them and checks the
# paths they print; checks that nothing the runtime brings to a link line is oneTBB, JSON, assimp or
# liblz4 (its pkg-config file, its exported target's interface, and the example's real link command).
# usage: check_install.sh BUILD_DIR SOURCE_DIR WORK_DIR NAVBAKE
set -euo pipefail
build="$1" src="$2" work="$3" navbake="$4"
rm -rf "$work"; mkdir -p "$work"
prefix="$work/prefix"
fail() { echo "install: FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; fail "cmake --install"; }
for f in include/navkit/runtime.h include/navkit/bake.h include/navkit/map2d.h \
         lib/cmake/navkit/navkitConfig.cmake lib/cmake/navkit/navkitConfigVersion.cmake \
         lib/pkgconfig/navkit.pc lib/pkgconfig/navkit-runtime.pc bin/navbake; do
  [ -e "$prefix/$f" ] || fail "$f not installed"
done
ls "$prefix"/lib/libnavkit_runtime.* "$prefix"/lib/libnavkit_bake.* "$prefix"/lib/libnavkit_map2d.* >/dev/null \
  || fail "the three libraries are not all installed"
if [ -e "$prefix/bin/navdebug" ]; then
  for f in share/navkit/shaders share/navkit/assets/demo.obj; do [ -e "$prefix/$f" ] || fail "$f not installed"; done
fi
echo "install: headers, libraries, CMake package and pkg-config files in $prefix"

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

expect_rt=$'polygons 3, path 3 points, length 19.560\n2.000 0.000 2.000\n10.000 0.000 10.000\n12.000 0.000 18.000'
for exe in "$work/runtime_path/runtime_path" "$work/runtime_path_pc"; do
  got=$("$exe") || fail "$exe exited non-zero"
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
# bake_path once more without CMake: pkg-config navkit alone (a static bake library needs oneTBB
# assimp and liblz4 on the link line: the .pc file must say so).
if [ ! -e "$prefix/lib/libnavkit_bake.so" ]; then
  # shellcheck disable=SC2046
  g++ -std=c++20 -O1 "$src/examples/bake_path/main.cpp" -o "$work/bake_path_pc" $(pkg-config --cflags --libs --static navkit) \
    || fail "bake_path with pkg-config --static navkit (is -lassimp, -ltbb or -llz4 missing from navkit.pc?)"
  printf 'o floor\nv -5 0 -5\nv -5 0 5\nv 5 0 5\nv 5 0 -5\nf 1 2 3\nf 1 3 4\n' >"$work/floor.obj"
  got_pc=$("$work/bake_path_pc" "$work/floor.obj" -4 0 -4 4 0 4) || fail "bake_path_pc exited non-zero: $got_pc"
  echo "install: bake_path from pkg-config --static navkit bakes a floor: $(echo "$got_pc" | head -1)"
fi
# The installed debugger renders the installed demo scene with the installed shaders.
if [ -x "$prefix/bin/navdebug" ] && command -v xvfb-run >/dev/null 2>&1; then
  xvfb-run -a "$prefix/bin/navdebug" "$prefix/share/navkit/assets/demo.obj" --config "$prefix/share/navkit/assets/demo.json" \
    --screenshot "$work/installed.png" --size 320x240 >"$work/navdebug.log" 2>&1 || { cat "$work/navdebug.log"; fail "installed navdebug"; }
  [ -s "$work/installed.png" ] || fail "installed navdebug wrote no screenshot"
  echo "install: the installed navdebug renders the installed demo ($work/installed.png)"
fi
echo "install: ok"
