/* SPDX-License-Identifier: Apache-2.0 */
/* RL_VERBOSE logging: 1 = primitive creation and execution, one line each on stderr. */
#ifndef RL_VERBOSE_H
#define RL_VERBOSE_H

int rl_verbose_level(void);
double rl_now_ms(void);
/* Prints "rl_verbose,<what>,<kind>,<impl>,<mds>,<info>,<ms>ms". */
void rl_verbose_print(const char *what, const char *kind, const char *impl, const char *mds,
                      const char *info, double ms);

#endif
