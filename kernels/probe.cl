// Capability probe: built with -cl-std=CL2.0 and launched as 17 items in groups of 16. On a
// device with non-uniform work-groups the last group is one item wide; elsewhere the launch
// fails with CL_INVALID_WORK_GROUP_SIZE.
__kernel void probe_local_size(__global uint* out)
{
    out[get_global_id(0)] = (uint)get_local_size(0);
}
