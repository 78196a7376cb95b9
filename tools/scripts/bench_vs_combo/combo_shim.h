/* combo_shim.h — interface of combo_shim.c.in and of its stand-in
 * combo_none.c.in (see there). */
#ifndef COMBO_SHIM_H
#define COMBO_SHIM_H

/* Solves max sum p x, sum w x <= c, x binary, with combo. The objective
 * and the weight of combo's solution vector (recomputed from its x flags)
 * go to z_out and w_out, the optimum combo returns to z_claimed (the two
 * objectives differ when its vector is not rebuilt right). Returns 0, -1
 * when out of memory, -2 when combo stopped with an error of its own. */
int combo_shim_solve(long n, const long long *p, const long long *w,
                     long long c, long long *z_out, long long *w_out,
                     long long *z_claimed);

/* 1 when combo.c was supplied (combo_shim.c.in), 0 for the stand-in
 * (combo_none.c.in: kp-dp runs alone). */
int combo_shim_available(void);

#endif
