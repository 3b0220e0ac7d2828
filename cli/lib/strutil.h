/* SPDX-License-Identifier: GPL-2.0 */
/* Small string helpers shared by the parser, configfs and report code. */
#ifndef HIB_STRUTIL_H
#define HIB_STRUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

char *str_trim(char *s);
void str_chomp(char *s);
void str_unoctal(char *s);
int parse_u64(const char *s, uint64_t *out);
int parse_size(const char *s, uint64_t *out);
int parse_location(const char *val, char *dev, size_t devlen,
		   uint64_t *page);
size_t edit_distance(const char *a, const char *b);
bool utf8_valid(const char *s, size_t len);
size_t utf8_char_len(const char *s, size_t len);
void utf8_cut_partial(char *s);
bool str_is_word(const char *s);
bool word_in_list(const char *word, const char *list);
bool str_has_control(const char *s);
const char *str_escape(const char *s, char *buf, size_t len);
void str_put_escaped(FILE *f, const char *s, const char *keep);

#endif
