#ifndef REFUND_COST_CZLIB_SHIM_H
#define REFUND_COST_CZLIB_SHIM_H
#include <zlib.h>
#endif
