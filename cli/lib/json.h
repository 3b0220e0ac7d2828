/* SPDX-License-Identifier: GPL-2.0 */
/* JSON text for the reports (report.c): what every object is made of. */
#ifndef HIB_JSON_H
#define HIB_JSON_H

#include <stdio.h>

/* S as a JSON string, valid UTF-8 whatever S holds. */
void json_string(FILE *out, const char *s);
/* The pieces of LIST between SEPS, as a JSON array of strings. */
void json_words(FILE *out, const char *list, const char *seps);

#endif
