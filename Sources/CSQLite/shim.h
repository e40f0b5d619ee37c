#include <sqlite3.h>

/// Turns off SQLite's memory statistics, which nothing here reads: with them on, every allocation SQLite makes (a
/// copy of each text bound, for one) takes a process-wide mutex. Must run before SQLite initialises; later it returns
/// SQLITE_MISUSE and changes nothing. (`sqlite3_config` is variadic, which Swift cannot call.)
static inline int oncue_sqlite3_disable_memory_statistics(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }
