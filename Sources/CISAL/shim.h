#ifndef REFUND_COST_CISAL_SHIM_H
#define REFUND_COST_CISAL_SHIM_H
#include <isa-l/crc.h>
#include <isa-l/crc64.h>
#include <isa-l/igzip_lib.h>
#endif
