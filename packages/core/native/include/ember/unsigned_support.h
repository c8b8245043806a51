// torch's limited support for uint16/uint32/uint64: the data-movement ops torch refuses on them
// (flip, gather, masked_fill, nonzero...) raise its NotImplementedError here too.
#pragma once

#include "ember/dtype.h"

namespace ember {

// Raises NotImplementedError "[op] not implemented for 'UInt32'" for a uint16/32/64 `t`.
void reject_limited_unsigned(ScalarType t, const char* op);

}  // namespace ember
