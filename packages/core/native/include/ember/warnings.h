// Python warnings raised from the core: the core never includes Python, so the bindings install
// a handler (UserWarning through PyErr_WarnEx) at module init; without one warnings are dropped.
#pragma once

#include <string>

namespace ember {

using WarningHandler = void (*)(const std::string& message);
void set_warning_handler(WarningHandler handler);
// Issues a UserWarning; the handler throws when the warning filter turns it into an error.
void warn(const std::string& message);

}  // namespace ember
