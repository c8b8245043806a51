// The C++ op API: every op ember offers, by family. Bindings call these; they validate their
// arguments and raise typed errors (errors.h) naming the op.
#pragma once

#include "ember/ops/complex.h"
#include "ember/ops/composite.h"
#include "ember/ops/construct.h"
#include "ember/ops/conv.h"
#include "ember/ops/copy.h"
#include "ember/ops/elementwise.h"
#include "ember/ops/factory.h"
#include "ember/ops/histogram.h"
#include "ember/ops/index.h"
#include "ember/ops/index_scatter.h"
#include "ember/ops/linalg.h"
#include "ember/ops/optim.h"
#include "ember/ops/pairwise.h"
#include "ember/ops/rearrange.h"
#include "ember/ops/reduce.h"
#include "ember/ops/samplers.h"
#include "ember/ops/scan.h"
#include "ember/ops/select.h"
#include "ember/ops/shape.h"
#include "ember/ops/sort.h"
