// Nothing to compile: this target only exports the LLVMFuzzerRunDriver declaration in
// include/LibFuzzerDriver.h to the Swift fuzz harness.
#include "LibFuzzerDriver.h"
