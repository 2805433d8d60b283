# Sourced by the benchmarks over real photos (bench-batch.sh, bench-batch-pipelines.sh) once $cli
# and $out are set: sets $photos (PHOTOS, or the sample images of Debian's opencv-doc, fetched
# with apt-get download into /tmp/histlab-photos when missing) and $python (Debian's python3,
# with python3-opencv installed when cv2 is missing: the OpenCV loops the figures are compared
# with), makes $out and records the machine, the photos and the devices there.
photos=${PHOTOS:-/tmp/histlab-photos}
python=/usr/bin/python3 # Debian's, where python3-opencv installs cv2
if ! $python -c "import cv2" 2>/dev/null; then
    $([[ $(id -u) == 0 ]] || echo sudo) apt-get install -y -qq --no-install-recommends python3-opencv
fi
if [[ ! -d $photos ]]; then
    tmp=$(mktemp -d)
    (cd "$tmp" && apt-get download -qq opencv-doc && dpkg -x opencv-doc_*.deb x)
    mkdir -p "$photos"
    cp "$tmp"/x/usr/share/doc/opencv-doc/examples/data/*.{jpg,png} "$photos"/
    rm -rf "$tmp"
fi
mkdir -p "$out"
{
    echo "date: $(date -u +%FT%TZ)"
    echo "load before: $(cat /proc/loadavg)"
    lscpu | grep -E "Model name|^CPU\(s\)"
    echo "photos: $photos ($(ls "$photos" | wc -l) files, $(du -sh "$photos" | cut -f1))"
} > "$out/machine.txt"
$cli devices > "$out/devices.txt"
