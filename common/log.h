/* log.h -- process logging to stderr: "rcssserver[pid] level: message". The level is
 * checked before the message is formatted. Never called from common/ or shm/ code.
 * log_stdout: the reference's stdout lines, which every process of the server shares. */
#ifndef RCSS_LOG_H
#define RCSS_LOG_H

enum { LOG_ERR = 0, LOG_WARN = 1, LOG_INFO = 2, LOG_DEBUG = 3 };

extern int log_level;

void log_init(const char *progname, int level);
void log_write(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* One line of the server's standard output, where only the lines the reference prints go
 * ("A new (v18) player (TEAM 1) connected."): stdio's buffer flushed first, then the line
 * in one write(), so the lines of the processes sharing stdout keep their order. */
void log_stdout(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define LOG(level, ...) do { if ((level) <= log_level) log_write((level), __VA_ARGS__); } while (0)
#define log_err(...)   LOG(LOG_ERR, __VA_ARGS__)
#define log_warn(...)  LOG(LOG_WARN, __VA_ARGS__)
#define log_info(...)  LOG(LOG_INFO, __VA_ARGS__)
#define log_debug(...) LOG(LOG_DEBUG, __VA_ARGS__)

#endif
