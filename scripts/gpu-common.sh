# Sourced by the scripts/gpu-*.sh benchmarks on the GPU machine (after .device/gpu-env.sh):
# makes the output folder $1, builds the Qt-free core + CLI as GPU machines can (no Qt, no
# OpenCV), sets $cli and $out, and records the devices (histlab-cli's JSON and nvidia-smi's
# names and driver) beside the figures.
out=${1:?usage: $(basename "$0") OUTDIR}
mkdir -p "$out"
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DHISTLAB_GUI=OFF -DHISTLAB_OPENCV=OFF \
    -DBUILD_TESTING=OFF >/dev/null && cmake --build build-gpu >/dev/null || exit 1
cli=./build-gpu/app/histlab-cli
$cli devices --json > "$out/devices.json"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$out/nvidia-smi.csv" 2>/dev/null
