// Kernel launch latency (the memory lab): a kernel that does nothing, launched as one
// work-item. Metric: milliseconds per launch, from event profiling (start to end on the device)
// and from the host's wall clock (enqueue + finish): the launch's own cost, and what a host
// waits for.

__kernel void do_nothing(void)
{
}
