// The warning hook (see warnings.h).
#include "ember/warnings.h"

#include <atomic>

namespace ember {

namespace {
std::atomic<WarningHandler> g_handler{nullptr};
}  // namespace

void set_warning_handler(WarningHandler handler) { g_handler.store(handler); }

void warn(const std::string& message) {
  if (const WarningHandler handler = g_handler.load()) handler(message);
}

}  // namespace ember
