#!/usr/bin/env bash
# Installs HistLab as a user would and runs the installed programs from an empty folder outside
# the source and build trees:
#   check_install.sh prefix BUILD SOURCE VERSION   cmake --install into an empty prefix
#   check_install.sh deb    BUILD SOURCE VERSION   cpack -G DEB, then dpkg-deb -x the package
# Checks: exactly the files a desktop application installs (programs, desktop entry, hicolor
# icon, AppStream metainfo, man pages, sample, documents); the desktop entry and metainfo pass
# desktop-file-validate and appstreamcli validate; the man pages render; both programs' --version
# names the version and the commit of SOURCE; the installed histlab-cli verifies the histogram of
# the installed sample; the .deb depends on PoCL or any OpenCL driver and on the libraries
# dpkg-shlibdeps found.
set -euo pipefail
kind=$1 build=$2 source=$3 version=$4
work=$(mktemp -d /tmp/histlab-install.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

case $kind in
prefix)
    root=$work/prefix
    cmake --install "$build" --prefix "$root" >/dev/null
    ;;
deb)
    (cd "$work" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/pkg" >/dev/null) ||
        fail "cpack -G DEB failed"
    debs=("$work"/pkg/histlab_"$version"_*.deb)
    [[ -f ${debs[0]} ]] || fail "no histlab_${version}_*.deb in $(ls "$work/pkg")"
    deb=${debs[0]}
    depends=$(dpkg-deb -f "$deb" Depends)
    echo "Depends: $depends"
    [[ $depends == *"pocl-opencl-icd | opencl-icd"* ]] || fail "Depends lacks pocl-opencl-icd | opencl-icd"
    for lib in libqt6widgets6 libopencv-imgcodecs ocl-icd-libopencl1 libqcustomplot; do
        [[ $depends == *"$lib"* ]] || fail "Depends lacks $lib (dpkg-shlibdeps)"
    done
    [[ $(dpkg-deb -f "$deb" Package) == histlab ]] || fail "package name"
    [[ $(dpkg-deb -f "$deb" Version) == "$version" ]] || fail "package version"
    dpkg-deb -x "$deb" "$work/root"
    root=$work/root/usr
    ;;
*) fail "unknown kind $kind" ;;
esac

# Exactly these files, nothing from the tests or benchmarks.
expected="bin/histlab
bin/histlab-cli
share/applications/org.histlab.HistLab.desktop
share/doc/histlab/README.md
share/doc/histlab/changelog.gz
share/doc/histlab/copyright
share/histlab/sample.png
share/icons/hicolor/scalable/apps/org.histlab.HistLab.svg
share/man/man1/histlab-cli.1.gz
share/man/man1/histlab.1.gz
share/metainfo/org.histlab.HistLab.metainfo.xml"
actual=$(cd "$root" && find . -type f -o -type l | sed 's|^\./||' | LC_ALL=C sort)
[[ $actual == "$expected" ]] || fail "installed files differ:
$(diff <(echo "$expected") <(echo "$actual") || true)"

desktop-file-validate "$root/share/applications/org.histlab.HistLab.desktop" ||
    fail "desktop-file-validate"
appstreamcli validate --no-net "$root/share/metainfo/org.histlab.HistLab.metainfo.xml" >/dev/null ||
    fail "appstreamcli validate: $(appstreamcli validate --no-net "$root/share/metainfo/org.histlab.HistLab.metainfo.xml")"
for page in histlab histlab-cli; do
    text=$(MANWIDTH=100 man -l "$root/share/man/man1/$page.1.gz" 2>&1) || fail "man $page: $text"
    [[ $text == *"$page"* && $text == *"SYNOPSIS"* ]] || fail "man $page has no name or synopsis"
done

# The programs, run from an empty folder with nothing but the installed tree on PATH.
commit=$(git -C "$source" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
cd "$work"
mkdir -m 700 "$work/run"
export PATH="$root/bin:/usr/bin:/bin" HOME=$work XDG_RUNTIME_DIR=$work/run QT_QPA_PLATFORM=offscreen
for program in histlab-cli histlab; do
    line=$("$program" --version)
    echo "$line"
    [[ $line == *"$version (git $commit"* ]] || fail "$program --version: '$line' lacks '$version (git $commit'"
done
[[ $(command -v histlab-cli) == "$root/bin/histlab-cli" ]] || fail "not the installed histlab-cli"
out=$(histlab-cli histogram "$root/share/histlab/sample.png" --channel all --verify --repeat 1)
echo "$out" | tail -1
[[ $out == *"verified: yes, bit-exact"* && $out == *"total 135300"* ]] || fail "the installed histlab-cli did not verify the sample:
$out"
echo "ok: $kind"
