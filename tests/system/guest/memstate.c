// SPDX-License-Identifier: GPL-2.0
/*
 * memstate - a tiny TCP server on 127.0.0.1 whose state lives only in its
 * memory: a random token drawn at start, a request counter, and a buffer
 * of SIZE MiB filled from the token.  Each connection gets one line
 *
 *     token=HEX pid=PID hits=N mem=ok|bad
 *
 * (hits counts this request; mem says whether the buffer still holds
 * what the token filled it with).  The system test asks before and after
 * a hibernate cycle: the same token and pid, hits one more and mem=ok
 * mean the process and its memory came through.
 *
 *   memstate [PORT [SIZE_MIB]]      defaults 7070 and 32
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

static uint64_t next(uint64_t *s)
{
	/* xorshift64* */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static void fill(uint64_t *buf, size_t n, uint64_t token)
{
	uint64_t s = token | 1;
	size_t i;

	for (i = 0; i < n; i++)
		buf[i] = next(&s);
}

static int intact(const uint64_t *buf, size_t n, uint64_t token)
{
	uint64_t s = token | 1;
	size_t i;

	for (i = 0; i < n; i++)
		if (buf[i] != next(&s))
			return 0;
	return 1;
}

int main(int argc, char **argv)
{
	int port = argc > 1 ? atoi(argv[1]) : 7070;
	size_t mib = argc > 2 ? strtoul(argv[2], NULL, 10) : 32;
	size_t n = mib * 1024 * 1024 / sizeof(uint64_t);
	struct sockaddr_in a = { .sin_family = AF_INET };
	unsigned long hits = 0;
	uint64_t token, *buf;
	int one = 1, s;

	signal(SIGPIPE, SIG_IGN);
	if (getrandom(&token, sizeof(token), 0) != sizeof(token)) {
		perror("memstate: getrandom");
		return 1;
	}
	buf = malloc(n * sizeof(*buf));
	if (!buf) {
		perror("memstate: malloc");
		return 1;
	}
	fill(buf, n, token);

	s = socket(AF_INET, SOCK_STREAM, 0);
	a.sin_port = htons(port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (s < 0 || setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(s, (struct sockaddr *)&a, sizeof(a)) || listen(s, 8)) {
		perror("memstate: socket");
		return 1;
	}
	printf("memstate: pid %d listening on 127.0.0.1:%d, %zu MiB, token %016llx\n",
	       (int)getpid(), port, mib, (unsigned long long)token);
	fflush(stdout);

	for (;;) {
		char line[128];
		int c = accept(s, NULL, NULL);
		int len;

		if (c < 0)
			continue;
		hits++;
		len = snprintf(line, sizeof(line), "token=%016llx pid=%d hits=%lu mem=%s\n",
			       (unsigned long long)token, (int)getpid(), hits,
			       intact(buf, n, token) ? "ok" : "bad");
		if (write(c, line, len) != len)
			perror("memstate: write");
		close(c);
	}
}
