#include <sqlite3.h>

/// sqlite3_config is variadic, which Swift cannot call. The store turns off SQLite's memory
/// statistics (kept behind a global mutex taken on every allocation) before its first use.
static inline int health_import_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
