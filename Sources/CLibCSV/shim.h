#ifndef REFUND_COST_CLIBCSV_SHIM_H
#define REFUND_COST_CLIBCSV_SHIM_H
#include <csv.h>
#endif
