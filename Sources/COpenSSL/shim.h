#ifndef REFUND_COST_COPENSSL_SHIM_H
#define REFUND_COST_COPENSSL_SHIM_H
#include <openssl/evp.h>
#endif
