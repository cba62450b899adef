/*
 * sax_floor.c — the C floor for reading an Apple Health export.xml.
 *
 * Drives libxml2's SAX2 push parser (xmlCreatePushParserCtxt + xmlParseChunk, 256 KiB
 * chunks, XML_PARSE_HUGE | XML_PARSE_NONET) with a zero-initialised xmlSAXHandler
 * (initialized = XML_SAX2_MAGIC) that sets only startElementNs. For every <Record> start
 * tag it touches the bytes of the type, value and startDate attributes (xor into a
 * checksum) and counts the record; nothing else. Nested Records (inside Correlation) are
 * counted too.
 *
 * The inline DTD subset is skipped exactly as health-import's reader does: find
 * "<!DOCTYPE HealthData [" near the start, skip to the terminating "]>", feed the bytes
 * before the DOCTYPE (the XML declaration) and then everything after "]>".
 *
 * Build: cc -O2 -o bench/bin/sax_floor bench/sax_floor.c $(pkg-config --cflags --libs libxml-2.0)
 * Usage: bench/bin/sax_floor export.xml
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>

#define CHUNK (256 * 1024)
#define HEAD (4 * 1024 * 1024) /* the DTD must end within the first 4 MiB */

struct state {
    unsigned long long records;
    unsigned char checksum;
};

static void start_ns(void *ctx, const xmlChar *localname, const xmlChar *prefix,
                     const xmlChar *uri, int nb_namespaces, const xmlChar **namespaces,
                     int nb_attributes, int nb_defaulted, const xmlChar **attrs) {
    (void)prefix; (void)uri; (void)nb_namespaces; (void)namespaces; (void)nb_defaulted;
    struct state *st = ctx;
    if (strcmp((const char *)localname, "Record") != 0) return;
    st->records++;
    unsigned char x = st->checksum;
    for (int i = 0; i < nb_attributes; i++) {
        const char *name = (const char *)attrs[5 * i];
        if (strcmp(name, "type") == 0 || strcmp(name, "value") == 0 ||
            strcmp(name, "startDate") == 0) {
            const xmlChar *p = attrs[5 * i + 3], *end = attrs[5 * i + 4];
            for (; p < end; p++) x ^= *p;
        }
    }
    st->checksum = x;
}

static const char *find(const char *hay, size_t n, const char *needle) {
    size_t m = strlen(needle);
    if (n < m) return NULL;
    for (size_t i = 0; i + m <= n; i++)
        if (hay[i] == needle[0] && memcmp(hay + i, needle, m) == 0) return hay + i;
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s export.xml\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 2; }

    struct state st = {0, 0};
    xmlSAXHandler sax;
    memset(&sax, 0, sizeof sax);
    sax.initialized = XML_SAX2_MAGIC;
    sax.startElementNs = start_ns;

    xmlParserCtxtPtr ctxt = xmlCreatePushParserCtxt(&sax, &st, NULL, 0, argv[1]);
    if (!ctxt) { fprintf(stderr, "cannot create parser\n"); return 1; }
    xmlCtxtUseOptions(ctxt, XML_PARSE_HUGE | XML_PARSE_NONET);

    char *buf = malloc(HEAD > CHUNK ? HEAD : CHUNK);
    unsigned long long fed = 0, skipped = 0;
    int rc = 0;

    /* head: skip the inline DTD subset */
    size_t n = fread(buf, 1, HEAD, f);
    const char *dt = find(buf, n < 4096 ? n : 4096, "<!DOCTYPE HealthData [");
    const char *end = dt ? find(dt, n - (size_t)(dt - buf), "]>") : NULL;
    if (dt && end) {
        size_t pre = (size_t)(dt - buf);
        size_t post = (size_t)(end + 2 - buf);
        rc = xmlParseChunk(ctxt, buf, (int)pre, 0);
        fed += pre;
        skipped = post - pre;
        for (size_t off = post; rc == 0 && off < n; off += CHUNK) {
            size_t len = n - off < CHUNK ? n - off : CHUNK;
            rc = xmlParseChunk(ctxt, buf + off, (int)len, 0);
            fed += len;
        }
    } else {
        for (size_t off = 0; rc == 0 && off < n; off += CHUNK) {
            size_t len = n - off < CHUNK ? n - off : CHUNK;
            rc = xmlParseChunk(ctxt, buf + off, (int)len, 0);
            fed += len;
        }
    }
    while (rc == 0 && (n = fread(buf, 1, CHUNK, f)) > 0) {
        rc = xmlParseChunk(ctxt, buf, (int)n, 0);
        fed += n;
    }
    if (rc == 0) rc = xmlParseChunk(ctxt, NULL, 0, 1);
    int wf = ctxt->wellFormed;
    xmlFreeParserCtxt(ctxt);
    fclose(f);
    free(buf);
    printf("records=%llu bytes_fed=%llu dtd_skipped=%llu checksum=%02x\n", st.records, fed,
           skipped, st.checksum);
    if (rc != 0 || !wf) {
        fprintf(stderr, "parse error %d\n", rc);
        return 1;
    }
    return 0;
}
