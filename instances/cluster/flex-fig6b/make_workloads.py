#!/usr/bin/env python3
"""Writes the workloads of the FLEX Fig. 6(b) scenario (see ORIGIN.md):
lambda-L.json for L in 0, 0.5, 1, 1.5, 2 (mean inter-arrival minutes).
Deterministic: python3 make_workloads.py (same bytes every run)."""
import json, random

# 10 Jaql-like jobs of varied sizes: (maps, reduces); map 60 s, reduce
# copy 20 s + sort 10 s + reduce 60 s on a speed-1 node.
SIZES = [(40, 8), (80, 8), (120, 12), (160, 12), (240, 16),
         (320, 16), (400, 20), (480, 20), (560, 24), (640, 24)]
# 26 hosts: 13 4-core blades and 13 8-core blades, one slot per core for
# maps and half as many for reduces (the paper gives cores, not slots).
CLUSTER = {"nodes": [{"count": 13, "map_slots": 4, "reduce_slots": 2},
                     {"count": 13, "map_slots": 8, "reduce_slots": 4}],
           "heartbeat": 3, "heartbeat_phase": "random"}
# one pool for every job with a minimum share of 55% of the slots (the
# paper's middle slack, 1 - 0.45), as the paper configured its pool
POOL = {"name": "jaql", "weight": 1, "min_maps": 86, "min_reduces": 43, "mode": "fair"}

for lam in (0, 0.5, 1, 1.5, 2):
    rng = random.Random(6)  # the same job order for every lambda
    order = list(range(10))
    rng.shuffle(order)
    t, jobs = 0.0, []
    for k, j in enumerate(order):
        if k and lam > 0:
            t += rng.expovariate(1 / (lam * 60))
        m, r = SIZES[j]
        jobs.append({"name": "jaql-%d" % j, "pool": "jaql", "submit": round(t, 3),
                     "maps": {"count": m, "duration": 60},
                     "reduces": {"count": r, "copy": 20, "sort": 10, "reduce": 60}})
    w = {"problem": "cluster", "version": 1, "cluster": CLUSTER, "pools": [POOL],
         "jobs": jobs, "meta": {"family": "flex-fig6b", "params": {"lambda": lam}}}
    name = "lambda-%s.json" % ("%g" % lam)
    with open(name, "w") as f:
        json.dump(w, f, indent=1)
        f.write("\n")
