# Installs the public API, run by `cmake --install` (install(CODE) in core/CMakeLists.txt):
#   PREFIX/include/navkit/{runtime,bake,map2d,crowd}.h   the four public headers
#   PREFIX/include/navkit/detail/core/...          exactly the core headers they reach, no other
# with every `#include "core/X"` rewritten to `#include <navkit/detail/core/X>`, so PREFIX/include
# is the one include root a game needs and a game's own core/... headers cannot collide with ours.
# The closure is followed from the sources at install time: a header that starts or stops being
# reached needs no list edited. A quoted include that is not core/... stops the install (it could
# not be rewritten); what the headers may include besides navkit/ is checked by the install test.
# In: NAV_SOURCE_DIR (the source tree), NAV_STAGE_DIR (a scratch directory in the build tree),
#     NAV_INCLUDE_DEST (CMAKE_INSTALL_INCLUDEDIR, relative to the prefix or absolute).
cmake_policy(VERSION 3.25)  # cmake_install.cmake runs with no policies set; include() scopes this
foreach(var NAV_SOURCE_DIR NAV_STAGE_DIR NAV_INCLUDE_DEST)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "navkit_public_headers.cmake: ${var} is not set")
  endif()
endforeach()

set(quoted_include "^[ \t]*#[ \t]*include[ \t]*\"([^\"]*)\"")
set(public_include "^[ \t]*#[ \t]*include[ \t]*<(navkit/[^>]*)>")

# The closure, as paths relative to the source tree: include/navkit/*.h and core/...
set(queue include/navkit/runtime.h include/navkit/bake.h include/navkit/map2d.h include/navkit/crowd.h)
set(reached "")
while(queue)
  list(POP_FRONT queue rel)
  if(rel IN_LIST reached)
    continue()
  endif()
  if(NOT EXISTS "${NAV_SOURCE_DIR}/${rel}")
    message(FATAL_ERROR "navkit install: ${rel} is included by an installed header but does not exist")
  endif()
  list(APPEND reached "${rel}")
  file(STRINGS "${NAV_SOURCE_DIR}/${rel}" lines REGEX "^[ \t]*#[ \t]*include")
  foreach(line IN LISTS lines)
    if(line MATCHES "${quoted_include}")
      set(path "${CMAKE_MATCH_1}")
      if(NOT path MATCHES "^core/")
        message(FATAL_ERROR "navkit install: ${rel}: `${line}`: an installed header includes a quoted path "
                            "outside core/ (write core/... or <navkit/...>)")
      endif()
      list(APPEND queue "${path}")
    elseif(line MATCHES "${public_include}")
      list(APPEND queue "include/${CMAKE_MATCH_1}")
    endif()
  endforeach()
endwhile()

# Staged with the includes rewritten, then installed as one tree (file(INSTALL) honours DESTDIR and
# writes install_manifest.txt, as install(DIRECTORY) would).
file(REMOVE_RECURSE "${NAV_STAGE_DIR}")
foreach(rel IN LISTS reached)
  if(rel MATCHES "^include/(navkit/.*)$")
    set(dest "${NAV_STAGE_DIR}/${CMAKE_MATCH_1}")
  else()
    set(dest "${NAV_STAGE_DIR}/navkit/detail/${rel}")
  endif()
  file(READ "${NAV_SOURCE_DIR}/${rel}" text)
  string(REGEX REPLACE "(#[ \t]*include[ \t]*)\"(core/[^\"]*)\"" "\\1<navkit/detail/\\2>" text "${text}")
  file(WRITE "${dest}" "${text}")
endforeach()

if(IS_ABSOLUTE "${NAV_INCLUDE_DEST}")
  set(include_dir "${NAV_INCLUDE_DEST}")
else()
  set(include_dir "${CMAKE_INSTALL_PREFIX}/${NAV_INCLUDE_DEST}")
endif()
file(INSTALL DESTINATION "${include_dir}" TYPE DIRECTORY FILES "${NAV_STAGE_DIR}/navkit")
