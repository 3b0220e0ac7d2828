/* SPDX-License-Identifier: GPL-2.0 */
/* Loading and unloading suspend2.ko and mounting configfs. */
#ifndef HIB_MODULE_H
#define HIB_MODULE_H

#include <stdbool.h>

#define MODULE_NAME	"suspend2"

int run_program(const char *const argv[]);
void module_command(const char *spec, const char **argv, int n);
int module_load(const char *spec);
int module_unload(void);
bool configfs_mounted(const char *dir);
int configfs_mount(const char *dir);

#endif
