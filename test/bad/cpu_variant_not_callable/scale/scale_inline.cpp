#include "scale_inline.h"
