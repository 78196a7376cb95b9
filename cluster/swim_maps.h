/*
 * swim_maps.h — how many maps a SWIM job derives (workload_swim.c, and the
 * swim-synth family that derives its jobs the same way).
 *
 * HDFS splits: m = max(1, ceil(input / block)). SWIM's own replay (its
 * WorkGen jobs) runs a map-only job's whole output through those maps, so a
 * job with kilobytes of input and terabytes of output writes it all from one
 * map (FB-2010 job22447: one task of about 254,000 s for 5.33 TB). With
 * out_cap > 0 (option `map_output_mib`) a map-only job gets at least
 * ceil(output / out_cap) maps, as the job would be configured on a real
 * cluster to spread its write (the input then split evenly over them, see
 * so_cl_swim_even_split); out_cap 0 keeps SWIM's rule.
 */
#ifndef SO_CL_SWIM_MAPS_H
#define SO_CL_SWIM_MAPS_H

#include <math.h>

static inline double so_cl_swim_maps(double input, double shuffle,
                                     double output, double block,
                                     double out_cap)
{
    double maps = fmax(1.0, ceil(input / block));
    if (shuffle <= 0 && out_cap > 0)
        maps = fmax(maps, ceil(output / out_cap));
    return maps;
}

/* Whether the output cap, not the input's blocks, set the job's map count:
 * then every map reads input / maps (and writes output / maps). */
static inline int so_cl_swim_even_split(double input, double block,
                                        double maps)
{
    return maps > fmax(1.0, ceil(input / block));
}

#endif
