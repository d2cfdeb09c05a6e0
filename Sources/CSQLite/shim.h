#ifndef REFUND_COST_CSQLITE_SHIM_H
#define REFUND_COST_CSQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import:
// binding text with it makes SQLite copy the bytes before the call returns.
static inline int refund_cost_sqlite_bind_text(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}
#endif
