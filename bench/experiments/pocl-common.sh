# Sourced by the experiments' bench-*-pocl.sh benchmarks (bench/experiments/*/) on this machine's
# CPU device: cd to the checkout (three folders above the sourcing script), set $cli (from the build folder $1, default build) and $out
# (bench/results/$2-DATE, made), and record the machine (date, load, CPU) and the devices beside
# the figures; call pocl_done at the end to add the load after.
cd "$(dirname "$0")/../../.."
build=${1:-build}
cli=$build/app/histlab-cli
out=bench/results/${2:?the results folder name}-$(date -u +%F)
mkdir -p "$out"
{ echo "date: $(date -u +%FT%TZ)"; echo "load before: $(cat /proc/loadavg)"; lscpu | grep -E "Model name|^CPU\(s\)"; } > "$out/machine.txt"
$cli devices --json > "$out/devices.json"
pocl_done() { echo "load after: $(cat /proc/loadavg)" >> "$out/machine.txt"; }
