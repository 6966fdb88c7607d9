// navdebug's session reader (app/navdebug/session.cpp, compiled in: it needs no GL) on arbitrary
// text: any input is a Status, never an exception or a sanitizer report; an accepted session
// writes back to JSON that reads again to the same session.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "app/navdebug/session.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    navdebug::Session s;
    if (!navdebug::parse_session(text, "session.json", s)) return 0;
    // what the debugger saves from it reads back
    navdebug::Session again;
    const std::string saved = navdebug::session_to_json(s);
    if (!navdebug::parse_session(saved, "saved.json", again)) std::abort();
    if (navdebug::session_to_json(again) != saved) std::abort();
    return 0;
}
