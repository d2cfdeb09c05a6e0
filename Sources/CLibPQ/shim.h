#ifndef REFUND_COST_CLIBPQ_SHIM_H
#define REFUND_COST_CLIBPQ_SHIM_H
// Debian's libpq-dev puts the header under postgresql/.
#include <postgresql/libpq-fe.h>

// libpq prints a server's NOTICE (such as "relation already exists, skipping") on stderr unless
// told otherwise; publish reports what it did itself.
static void refund_cost_pq_ignore_notice(void *context, const char *message) {
    (void)context;
    (void)message;
}
static inline void refund_cost_pq_quiet(PGconn *connection) {
    PQsetNoticeProcessor(connection, refund_cost_pq_ignore_notice, 0);
}
#endif
