/* SPDX-License-Identifier: GPL-2.0 */
/* Loading and unloading suspend2.ko and mounting configfs. */
#ifndef HIB_MODULE_H
#define HIB_MODULE_H

#include <stdbool.h>

#include "conf/step.h"

#define MODULE_NAME	"suspend2"

int run_program(const char *const argv[]);
void module_command(const char *spec, const char **argv, int n);
int module_load(const char *spec);
int module_unload(void);
bool configfs_mounted(const char *dir);
int configfs_mount(const char *dir);

/* The steps of an action that load and ask the module. */
int check_module_file(struct run *r);
int setup_module(struct run *r);
int check_words(struct run *r);
int check_module(struct run *r);
void read_caps(struct run *r);
void unload(struct run *r);

#endif
