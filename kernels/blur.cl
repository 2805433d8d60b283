// Box blur of 8-bit gray images, after "Working groups in OpenCL 2.0": the interior range
// (width - 2R) x (height - 2R) launched as is, so it rarely divides by a work-group size. One
// work-item per interior pixel: the mean of its (2R + 1)^2 window, (sum + n / 2) / n, exactly
// as core/blur.cpp computes it. The frame of width R is copied by the host beforehand.
//
// Build options:
//   PADDED   1: the range is rounded up to whole work-groups and items outside the interior
//            return at once (what a device without non-uniform work-groups needs).
// Under OpenCL C 2.0 (-cl-std=CL2.0) the corners also record get_enqueued_local_size.

__kernel void blur_interior(__global const uchar* in, __global uchar* out, int width,
                            int height, int radius, __global int* corners)
{
    const int gx = (int)get_global_id(0), gy = (int)get_global_id(1);
    const int iw = width - 2 * radius, ih = height - 2 * radius;
#if PADDED
    if (gx >= iw || gy >= ih)
        return;
#endif
    // The four corners of the interior range record what the work-item saw: global id, local
    // size, and (OpenCL C 2.0) the enqueued local size, 6 ints each. A range one item wide or
    // high has one item at two corners.
    for (int k = 0; k < 4; ++k) {
        if (gx != ((k & 1) ? iw - 1 : 0) || gy != ((k & 2) ? ih - 1 : 0))
            continue;
        __global int* c = corners + 6 * k;
        c[0] = gx;
        c[1] = gy;
        c[2] = (int)get_local_size(0);
        c[3] = (int)get_local_size(1);
#if __OPENCL_C_VERSION__ >= 200
        c[4] = (int)get_enqueued_local_size(0);
        c[5] = (int)get_enqueued_local_size(1);
#else
        c[4] = -1;
        c[5] = -1;
#endif
    }
    const int x = gx + radius, y = gy + radius;
    uint sum = 0;
    for (int dy = -radius; dy <= radius; ++dy) {
        __global const uchar* row = in + (size_t)(y + dy) * (size_t)width;
        for (int dx = -radius; dx <= radius; ++dx)
            sum += row[x + dx];
    }
    const uint n = (uint)((2 * radius + 1) * (2 * radius + 1));
    out[(size_t)y * (size_t)width + x] = (uchar)((sum + n / 2u) / n);
}

// ---------------------------------------------------------------------------------------------
// The whole image with a border mode, any channel count and 8- or 16-bit values: one work-item
// per pixel (the range padded to whole groups), every channel of it. Build options:
//   BORDER   0 interior (frame pixels copied), 1 replicate, 2 reflect-101
//   NCHAN    1, 3 or 4 interleaved channels
//   DEPTH16  1: 16-bit values (sums in 64 bits), 0: 8-bit
#ifdef BORDER
#if DEPTH16
typedef ushort value_t;
typedef ulong sum_t;
#else
typedef uchar value_t;
typedef uint sum_t;
#endif

inline int border_index(int i, int n)
{
    if (n == 1)
        return 0;
#if BORDER == 2
    const int period = 2 * (n - 1);
    i %= period;
    if (i < 0)
        i += period;
    return i < n ? i : period - i;
#else
    return clamp(i, 0, n - 1);
#endif
}

__kernel void blur_full(__global const value_t* in, __global value_t* out, int width, int height,
                        int radius)
{
    const int x = (int)get_global_id(0), y = (int)get_global_id(1);
    if (x >= width || y >= height)
        return;
    const size_t at = ((size_t)y * (size_t)width + (size_t)x) * NCHAN;
#if BORDER == 0
    if (x < radius || y < radius || x >= width - radius || y >= height - radius) {
        for (int c = 0; c < NCHAN; ++c)
            out[at + c] = in[at + c];
        return;
    }
#endif
    sum_t sum[NCHAN];
    for (int c = 0; c < NCHAN; ++c)
        sum[c] = 0;
    for (int dy = -radius; dy <= radius; ++dy) {
#if BORDER == 0
        const int sy = y + dy;
#else
        const int sy = border_index(y + dy, height);
#endif
        __global const value_t* row = in + (size_t)sy * (size_t)width * NCHAN;
        for (int dx = -radius; dx <= radius; ++dx) {
#if BORDER == 0
            const int sx = x + dx;
#else
            const int sx = border_index(x + dx, width);
#endif
            for (int c = 0; c < NCHAN; ++c)
                sum[c] += row[(size_t)sx * NCHAN + c];
        }
    }
    const sum_t n = (sum_t)(2 * radius + 1) * (sum_t)(2 * radius + 1);
    for (int c = 0; c < NCHAN; ++c)
        out[at + c] = (value_t)((sum[c] + n / 2) / n);
}
#endif
