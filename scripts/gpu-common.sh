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

# The CUB peer of the large-bin histograms: DeviceHistogram::HistogramEven on $1 16-bit samples
# of each shape (bench/peers/cub_histogram.cu), its CSV into $out/cub.csv; says so without nvcc.
cub_histogram_peer() {
    if command -v nvcc >/dev/null; then
        echo "== peer: CUB DeviceHistogram::HistogramEven, $1 16-bit samples"
        nvcc -O3 -std=c++17 -arch=native bench/peers/cub_histogram.cu -o build-gpu/cub_histogram &&
            ./build-gpu/cub_histogram "$1" | tee "$out/cub.csv"
    else
        echo "nvcc not found: no CUB peer this run"
    fi
}
