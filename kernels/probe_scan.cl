// Capability probe: work_group_scan_exclusive_add over ones must give each item its local id.
// Kept apart from probe.cl because a compiler without work-group collectives rejects the file.
__kernel void probe_scan(__global uint* out)
{
    out[get_global_id(0)] = work_group_scan_exclusive_add(1u);
}
