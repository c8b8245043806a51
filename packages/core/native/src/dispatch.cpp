// Picks the best kernel set the CPU supports, once, at first use.
#include <cstdlib>
#include <cstring>

#include "ember/errors.h"
#include "ember/kernels.h"

#define EMBER_DECLARE_FILLERS(isa)         \
  namespace ember::cpu::isa_##isa {        \
    void fill_unary(KernelTable&);         \
    void fill_binary(KernelTable&);        \
    void fill_reduce(KernelTable&);        \
    void fill_cast(KernelTable&);          \
    void fill_optim(KernelTable&);         \
    inline void fill_all(KernelTable& t) { \
      fill_unary(t);                       \
      fill_binary(t);                      \
      fill_reduce(t);                      \
      fill_cast(t);                        \
      fill_optim(t);                       \
    }                                      \
  }
EMBER_DECLARE_FILLERS(baseline)
// Complex kernels exist for the baseline ISA only (kernels/cpu/complex.cpp).
namespace ember::cpu::isa_baseline {
void fill_complex(KernelTable&);
}
// The per-ISA copies exist where CMake defines EMBER_HAVE_AVX2 / EMBER_HAVE_AVX512: x86-64, and
// not the sanitizer build (EMBER_SANITIZE compiles the baseline copy only), which runs baseline.
#ifdef EMBER_HAVE_AVX2
EMBER_DECLARE_FILLERS(avx2)
#endif
#ifdef EMBER_HAVE_AVX512
EMBER_DECLARE_FILLERS(avx512)
#endif

namespace ember {
namespace {

enum class Capability { Baseline, Avx2, Avx512 };

Capability detect() {
  __builtin_cpu_init();
  Capability best = Capability::Baseline;
#ifdef EMBER_HAVE_AVX2
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) best = Capability::Avx2;
#endif
#ifdef EMBER_HAVE_AVX512
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq"))
    best = Capability::Avx512;
#endif
  // An explicit request can only lower the level: it must still run on this CPU.
  if (const char* forced = std::getenv("EMBER_CPU_CAPABILITY")) {
    if (std::strcmp(forced, "baseline") == 0)
      best = Capability::Baseline;
    else if (std::strcmp(forced, "avx2") == 0 && best > Capability::Avx2)
      best = Capability::Avx2;
  }
  return best;
}

struct Selected {
  KernelTable table;
  Capability capability;
  Selected() : capability(detect()) {
    cpu::isa_baseline::fill_all(table);
    cpu::isa_baseline::fill_complex(table);
#ifdef EMBER_HAVE_AVX2
    if (capability == Capability::Avx2) cpu::isa_avx2::fill_all(table);
#endif
#ifdef EMBER_HAVE_AVX512
    if (capability == Capability::Avx512) cpu::isa_avx512::fill_all(table);
#endif
  }
};

const Selected& selected() {
  static const Selected s;
  return s;
}

}  // namespace

const KernelTable& cpu_kernels() { return selected().table; }

const char* cpu_capability() {
  switch (selected().capability) {
    case Capability::Avx512:
      return "avx512";
    case Capability::Avx2:
      return "avx2";
    case Capability::Baseline:
      break;
  }
  return "baseline";
}

}  // namespace ember
