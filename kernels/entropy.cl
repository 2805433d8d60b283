// What the families that sum entropies on the device share, in double precision: c log2 c and
// a work-group's sum. Not a family of its own: a family's source names it with
// #include "entropy.cl", and the kernel loader puts it there (loadKernelSource).
#if defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

inline double cLog2c(ulong c) {
    return c ? (double)c * log2((double)c) : 0.0;
}

// A work-group's sum of v (the local size a power of two), in every work-item.
inline double groupSum(double v, __local double* scratch) {
    const uint lid = get_local_id(0);
    scratch[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint step = get_local_size(0) / 2; step > 0; step /= 2) {
        if (lid < step)
            scratch[lid] += scratch[lid + step];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const double sum = scratch[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return sum;
}
#endif
