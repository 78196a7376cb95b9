/* status.c — names of status codes. */
#include "slotopt.h"

const char *so_status_str(int status)
{
    switch (status) {
    case SO_OK: return "ok";
    case SO_EINVAL: return "invalid input";
    case SO_ENOMEM: return "out of memory";
    case SO_EIO: return "input/output error";
    case SO_EBACKEND: return "backend failure";
    case SO_EUNSUPPORTED: return "unsupported";
    case SO_OPTIMAL: return "optimal";
    case SO_FEASIBLE: return "feasible";
    case SO_INFEASIBLE: return "infeasible";
    case SO_TIMELIMIT: return "time limit";
    case SO_UNBOUNDED: return "unbounded";
    default: return "unknown";
    }
}
