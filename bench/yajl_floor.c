/*
 * yajl_floor.c — the C floor for reading a Health Auto Export (HAE) JSON file.
 *
 * Parses the file with yajl 2 (Debian libyajl-dev) in 256 KiB chunks with callbacks that
 * do nothing (every callback returns 1), then yajl_complete_parse. Default options
 * (UTF-8 validation on, no comments, single value). Prints the bytes parsed.
 *
 * Build: cc -O2 -o bench/bin/yajl_floor bench/yajl_floor.c -lyajl
 * Usage: bench/bin/yajl_floor hae.json
 */
#include <stdio.h>
#include <stdlib.h>
#include <yajl/yajl_parse.h>

#define CHUNK (256 * 1024)

static int on_null(void *c) { (void)c; return 1; }
static int on_boolean(void *c, int b) { (void)c; (void)b; return 1; }
static int on_number(void *c, const char *s, size_t l) { (void)c; (void)s; (void)l; return 1; }
static int on_string(void *c, const unsigned char *s, size_t l) { (void)c; (void)s; (void)l; return 1; }
static int on_start_map(void *c) { (void)c; return 1; }
static int on_map_key(void *c, const unsigned char *s, size_t l) { (void)c; (void)s; (void)l; return 1; }
static int on_end_map(void *c) { (void)c; return 1; }
static int on_start_array(void *c) { (void)c; return 1; }
static int on_end_array(void *c) { (void)c; return 1; }

static const yajl_callbacks callbacks = {
    on_null, on_boolean,
    NULL, NULL,     /* yajl_integer / yajl_double: unused when yajl_number is set */
    on_number, on_string,
    on_start_map, on_map_key, on_end_map,
    on_start_array, on_end_array,
};

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s file.json\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 2; }
    yajl_handle h = yajl_alloc(&callbacks, NULL, NULL);
    unsigned char *buf = malloc(CHUNK);
    unsigned long long total = 0;
    yajl_status st = yajl_status_ok;
    size_t n;
    while (st == yajl_status_ok && (n = fread(buf, 1, CHUNK, f)) > 0) {
        st = yajl_parse(h, buf, n);
        if (st == yajl_status_ok) total += n;
        else {
            unsigned char *e = yajl_get_error(h, 1, buf, n);
            fprintf(stderr, "%s", (const char *)e);
            yajl_free_error(h, e);
        }
    }
    if (st == yajl_status_ok) {
        st = yajl_complete_parse(h);
        if (st != yajl_status_ok) {
            unsigned char *e = yajl_get_error(h, 0, NULL, 0);
            fprintf(stderr, "%s", (const char *)e);
            yajl_free_error(h, e);
        }
    }
    yajl_free(h);
    free(buf);
    fclose(f);
    printf("bytes=%llu\n", total);
    return st == yajl_status_ok ? 0 : 1;
}
