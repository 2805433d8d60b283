# Sourced by the GPU benchmarks (scripts/gpu-frontier.sh, scripts/gpu-blur-shapes.sh and the
# experiments' bench/experiments/*/gpu-*.sh) on the GPU machine (after .device/gpu-env.sh):
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

# peer NAME: builds the CUDA peer bench/peers/NAME.cu through CMake (-DHISTLAB_CUDA_PEERS=ON, in
# its own build folder so that a machine without CUDA still builds HistLab) and prints its path;
# fails, saying why, where nvcc is missing.
peer() {
    if ! command -v nvcc >/dev/null; then
        echo "nvcc not found: no CUDA peer $1 this run" >&2
        return 1
    fi
    cmake -S . -B build-peers -G Ninja -DCMAKE_BUILD_TYPE=Release -DHISTLAB_GUI=OFF \
        -DHISTLAB_OPENCV=OFF -DBUILD_TESTING=OFF -DHISTLAB_CUDA_PEERS=ON >/dev/null &&
        cmake --build build-peers --target "histlab-peer-$1" >/dev/null &&
        echo "build-peers/bench/peers/histlab-peer-$1"
}

# The CUB peer of the large-bin histograms: DeviceHistogram::HistogramEven on $1 16-bit samples
# of each shape (bench/peers/cub_histogram.cu), its CSV into $out/cub.csv; says so without nvcc.
cub_histogram_peer() {
    echo "== peer: CUB DeviceHistogram::HistogramEven, $1 16-bit samples"
    local bin
    bin=$(peer cub_histogram) && "$bin" "$1" | tee "$out/cub.csv"
}

# blur_point ROUND SETTING ARGS...: one tiled 3 x 3 blur on the GPU (ARGS: the image and tuning),
# 10 timed runs verified against the copy kernel; its report's last line is printed and its CSV
# row appended to $csv with ROUND and SETTING as its first columns (the blur experiments' rounds).
blur_point() {
    local round=$1 setting=$2
    shift 2
    echo "-- round $round, $setting: $*"
    $cli blur --device gpu --variant tiled --radius 1 --repeat 10 "$@" --csv "$out/point.csv" |
        tail -1
    append_point "$out/point.csv" "$out/tmp.csv" setting "$setting"
    append_point "$out/tmp.csv" "$csv" round "$round"
}

# append_point FILE CSV [NAME VALUE]: the rows of the CSV file FILE (one run's --csv) appended to
# CSV, its header written once; with NAME, each row gets VALUE in a first column NAME. FILE is
# removed; a run that wrote no FILE adds nothing.
append_point() {
    local file=$1 csv=$2 name=${3:-} value=${4:-}
    [[ -f $file ]] || return 0
    if [[ -n $name ]]; then
        [[ -f $csv ]] || echo "$name,$(head -1 "$file")" > "$csv"
        tail -n +2 "$file" | sed "s/^/$value,/" >> "$csv"
    else
        [[ -f $csv ]] || head -1 "$file" > "$csv"
        tail -n +2 "$file" >> "$csv"
    fi
    rm "$file"
}
