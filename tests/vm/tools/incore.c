/*
 * incore - how much of a set of files is in the page cache, and how long
 * reading them takes.
 *
 *   incore FILE...          print "R of N pages resident" over all files
 *                           (mincore() on a shared read-only mapping,
 *                           which does not read anything in)
 *   incore --read FILE...   read every byte of them and print
 *                           "read B bytes in MS ms"
 *
 * The tests compare the first after a resume with the count before it
 * (was the page cache kept in the image?); the benchmark times the second
 * (how warm is the system?).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define READ_CHUNK	(1 << 20)

static int resident(const char *path, uint64_t *res, uint64_t *all)
{
	long psz = sysconf(_SC_PAGESIZE);
	unsigned char *vec;
	struct stat st;
	size_t pages, i;
	void *map;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "incore: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (st.st_size == 0) {
		close(fd);
		return 0;
	}
	pages = (st.st_size + psz - 1) / psz;
	map = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	vec = malloc(pages);
	if (map == MAP_FAILED || !vec || mincore(map, st.st_size, vec)) {
		fprintf(stderr, "incore: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (i = 0; i < pages; i++)
		*res += vec[i] & 1;
	*all += pages;
	free(vec);
	munmap(map, st.st_size);
	return 0;
}

static int read_all(const char *path, uint64_t *bytes, char *buf)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "incore: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((n = read(fd, buf, READ_CHUNK)) > 0)
		*bytes += n;
	if (n < 0)
		fprintf(stderr, "incore: %s: %s\n", path, strerror(errno));
	close(fd);
	return n < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	int reading = argc > 1 && !strcmp(argv[1], "--read");
	uint64_t res = 0, all = 0, bytes = 0;
	struct timespec t0, t1;
	char *buf = NULL;
	int i, bad = 0;

	if (argc < 2 + reading) {
		fprintf(stderr, "usage: incore [--read] FILE...\n");
		return 2;
	}
	if (reading && !(buf = malloc(READ_CHUNK)))
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 1 + reading; i < argc; i++)
		bad |= reading ? read_all(argv[i], &bytes, buf) :
				 resident(argv[i], &res, &all);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (bad)
		return 1;
	if (reading)
		printf("read %llu bytes in %lld ms\n", (unsigned long long)bytes,
		       (long long)(t1.tv_sec - t0.tv_sec) * 1000 +
		       (t1.tv_nsec - t0.tv_nsec) / 1000000);
	else
		printf("%llu of %llu pages resident\n",
		       (unsigned long long)res, (unsigned long long)all);
	return 0;
}
