/* The ceiling: libcsv alone counting fields and records of a file, 1 MiB blocks. */
#include <csv.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static size_t fields, records;
static void on_field(void *s, size_t n, void *d) { (void)s; (void)n; (void)d; fields++; }
static void on_record(int c, void *d) { (void)c; (void)d; records++; }

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: libcsv_count FILE\n"); return 2; }
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) { perror(argv[1]); return 1; }
    struct csv_parser p;
    csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_REPALL_NL);
    static char block[1 << 20];
    size_t bytes = 0;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    ssize_t n;
    while ((n = read(fd, block, sizeof block)) > 0) {
        csv_parse(&p, block, (size_t)n, on_field, on_record, NULL);
        bytes += (size_t)n;
    }
    csv_fini(&p, on_field, on_record, NULL);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
    printf("libcsv alone: %zu records, %zu fields, %.2f s, %.0f rows/s, %.1f MB/s\n",
           records, fields, s, records / s, bytes / 1e6 / s);
    csv_free(&p);
    return 0;
}
