"""The hostile cases: what to run, and what the project's rules say must happen.

Each case is a dict made by case():
  name      unique; run.py --only matches it
  cmd       the arguments after the binary; {in} is the corpus folder, {s}
            the case's scratch folder (made empty before the case)
  tags      the review's defect ids (D1..D25) and/or old classes ("old:...")
  exit      the exit code(s) the rules allow: 0 ok, 1 mismatch, 2 usage,
            3 input, 4 device (a tuple where either answer is right, e.g. a
            float range that may be refused or binned correctly)
  names     substrings of which one must be in the error line (the file or
            the option); default: the last path argument's base name
  on_exit0  the class when an error was due and the exit was 0: "wrong-result"
            for a liar whose invented pixels are reported, else
            "silent-failure"
  check     f(ctx) -> None or a reason, run on exit 0: the result must agree
            with what the file holds
  setup     f(ctx) run before (copies, big files made on the fly, baselines)
  env, as_limit (RLIMIT_AS bytes), mem_mb (RSS cap, default 2048),
  fsize (RLIMIT_FSIZE bytes), user ("nobody"), device (add --device cpu),
  not_contains (substrings the error line must not hold: known wrong
  wordings), timeout (seconds, default 20), check_class (the class when
  check fails, default "wrong-result"), log_follows (the error line may be
  followed by more: a kernel's build log, which is the diagnosis)

The expectations come from docs/cli-usage.md, docs/images.md, docs/batch.md,
docs/bow.md and the exit-code table of --help, not from what the binary did.
"""

import csv
import json
import os
import shutil
import subprocess

import make_corpus as mc

CASES = []

# Commands that take --device: the runner adds "--device cpu" so that every
# run uses PoCL's CPU device, as the review did.
DEVICE_CMDS = {"histogram", "blur", "scan", "equalize", "largebin", "joint", "reverse",
               "batch", "dashboard", "sweep", "memory"}
BOW_DEVICE = {"histograms", "build-codebook", "bench"}


def case(name, cmd, tags=(), exit=3, **kw):
    assert not any(c["name"] == name for c in CASES), name
    d = dict(name=name, cmd=cmd, tags=list(tags), exit=exit if isinstance(exit, tuple) else (exit,))
    d.update(kw)
    CASES.append(d)


# ---------------------------------------------------------------- checks


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def hist_total(rel, total, col=-1):
    """The histogram CSV's column (default the last: gray) adds up to the
    pixels the file really holds."""
    def chk(ctx):
        rows = read_csv(ctx.path(rel))
        got = sum(int(float(r[col])) for r in rows[1:] if r)
        return None if got == total else "counted %d pixels, the file holds %d" % (got, total)
    return chk


def bins_within(rel, lo, hi, count_col=-1):
    """Every non-empty bin (bin,lo,hi,...,count) overlaps [lo, hi], the
    range the samples really lie in."""
    def chk(ctx):
        for r in read_csv(ctx.path(rel))[1:]:
            if r and int(float(r[count_col])) > 0 and not (float(r[1]) <= hi and float(r[2]) > lo):
                return "bin %s [%s, %s) holds %s samples of [%g, %g]" % (r[0], r[1], r[2], r[count_col], lo, hi)
        return None
    return chk


def joint_cell(rel, a, b):
    """Only cell (a, b) of the joint table is non-empty."""
    def chk(ctx):
        rows = read_csv(ctx.path(rel))
        for i, r in enumerate(rows[1:]):
            for jx, v in enumerate(r[1:]):
                if int(v) and (i, jx) != (a, b):
                    return "cell (%d, %d) holds %s; the samples all belong in (%d, %d)" % (i, jx, v, a, b)
        return None
    return chk


def row_status(rel, fname, ok_words=("ok", "verified"), want_ok=False):
    """The table's row for fname says it failed (want_ok False) or was
    counted (want_ok True)."""
    def chk(ctx):
        rows = read_csv(ctx.path(rel))
        head = rows[0]
        st = head.index("status")
        for r in rows[1:]:
            if r and os.path.basename(r[0]) == fname:
                ok = r[st] in ok_words
                if ok != want_ok:
                    return "row %s: status %r" % (fname, r[st])
                return None
        return "no row for %s" % fname
    return chk


def row_field(rel, fname, field, want):
    def chk(ctx):
        rows = read_csv(ctx.path(rel))
        i = rows[0].index(field)
        for r in rows[1:]:
            if r and os.path.basename(r[0]) == fname:
                return None if r[i] == str(want) else "%s %s: %r, want %r" % (fname, field, r[i], want)
        return "no row for %s" % fname
    return chk


def reason_not(rel, fname, bad):
    """The row's reason is not a C++ library's internal text."""
    def chk(ctx):
        for r in read_csv(ctx.path(rel))[1:]:
            if r and os.path.basename(r[0]) == fname:
                return ("row reason %r" % r[2]) if bad in ",".join(r) else None
        return None
    return chk


def first_cell(rel, want):
    """bin 0's count in a merged histogram CSV."""
    def chk(ctx):
        rows = read_csv(ctx.path(rel))
        return None if rows[1][1] == want else "bin 0 = %s, want %s" % (rows[1][1], want)
    return chk


def exists(rel):
    def chk(ctx):
        return None if os.path.exists(ctx.path(rel)) else "%s was not written" % rel
    return chk


def stdout_lacks(text):
    def chk(ctx):
        flat = " ".join(ctx.stdout.split())  # --help wraps its lines anywhere
        return ("stdout says %r" % text) if text in flat else None
    return chk


def all_of(*checks):
    def chk(ctx):
        for c in checks:
            r = c(ctx)
            if r:
                return r
        return None
    return chk


# ---------------------------------------------------------------- setups


def copy(src, dst):
    """Copy a corpus file or folder into the scratch folder, so that a case
    that may overwrite its inputs damages only its own copy."""
    def st(ctx):
        s, d = ctx.path(src), ctx.path(dst)
        if os.path.isdir(s):
            shutil.copytree(s, d, symlinks=True)
        else:
            os.makedirs(os.path.dirname(d), exist_ok=True)
            shutil.copy(s, d)
    return st


def chain(*steps):
    def st(ctx):
        for s in steps:
            s(ctx)
    return st


def run_cli(*args):
    """Run the binary itself to make an input (a baseline run)."""
    def st(ctx):
        subprocess.run([ctx.cli] + [a.format(**ctx.fmt) for a in args], check=True,
                       capture_output=True, env=ctx.env, timeout=60)
    return st


def big(fn, rel, *a):
    def st(ctx):
        fn(ctx.path(rel), *a)
    return st


def patch_json_status(rel, length):
    """A baseline whose first result's status is `length` characters."""
    def st(ctx):
        p = ctx.path(rel)
        d = json.load(open(p))
        d["results"][0]["status"] = "x" * length
        json.dump(d, open(p, "w"))
    return st


def chmod(rel, mode):
    def st(ctx):
        os.chmod(ctx.path(rel), mode)
    return st


# ---------------------------------------------------------------- D1 nested FileStorage

for ext in ("yml", "json", "xml"):
    case("bow_cb_nested_" + ext, ["bow", "histograms", "{in}/bow/good", "--descriptor-files",
                                  "--codebook", "{in}/bow/cb_nested." + ext, "--quiet"],
         ["D1"], 3, names=["cb_nested." + ext])
    case("bowcbk_nested_desc_" + ext, ["bow", "build-codebook", "{in}/bow/mixed_nested" +
                                       ("" if ext == "yml" else "_" + ext), "--descriptor-files",
                                       "--k", "4", "--out", "{s}/cb.yml", "--quiet"], ["D1"], 0)
for sub, bad in (("mixed_nested", "e.yml"), ("mixed_nested_json", "e.json"), ("mixed_nested_xml", "e.xml")):
    case("bowdesc_" + sub, ["bow", "histograms", "{in}/bow/" + sub, "--descriptor-files", "--codebook",
                            "{in}/bow/cb8.yml", "--csv", "{s}/h.csv", "--quiet"], ["D1"], 0,
         check=all_of(row_status("h.csv", bad), row_status("h.csv", "d0.csv", want_ok=True)))
case("bowdesc_only_nested", ["bow", "histograms", "{in}/bow/only_nested", "--descriptor-files",
                             "--codebook", "{in}/bow/cb8.yml", "--csv", "{s}/h.csv", "--quiet"],
     ["D1", "D18"], 3, names=["could be counted"], table_kept=True)
case("bow_cb_nested_10k", ["bow", "histograms", "{in}/bow/good", "--descriptor-files", "--codebook",
                           "{in}/bow/cb_nested_10k.yml", "--quiet"], ["D1"], 3, names=["cb_nested_10k.yml"])
case("dash_baseline_nested_json", ["dashboard", "--pipeline", "read-only", "--size", "64K", "--repeat", "1",
                                   "--quiet", "--baseline", "{in}/tables/baseline_nested.json"],
     ["D1"], 3, names=["baseline_nested.json"])

# ---------------------------------------------------------------- D2, D3 big tables

case("bowmerge_20k_similarity", ["bow", "merge", "{s}/wm_20k.csv", "--similarity", "{s}/sim.csv",
                                 "--nearest", "5", "--quiet"], ["D2"], (0, 2, 3),
     setup=big(mc.big_bow_shard, "wm_20k.csv"), names=["sim.csv", "--similarity", "wm_20k.csv"],
     timeout=60)
case("merge_big_110MB", ["merge", "{s}/m_big.csv", "--csv", "{s}/m.csv", "--quiet"], ["D3"], (0, 3),
     setup=big(mc.big_merge_table, "m_big.csv"), names=["m_big.csv"], timeout=60)

# ---------------------------------------------------------------- D4 uncaught exceptions

case("merge_joint_mi_huge", ["merge", "{in}/tables/j_mi_huge.csv", "{in}/tables/j1.csv", "--csv", "{s}/m.csv"],
     ["D4"], 3, names=["j_mi_huge.csv"])
case("merge_joint_mi_nan", ["merge", "{in}/tables/j_mi_nan.csv", "{in}/tables/j1.csv", "--csv", "{s}/m.csv"],
     ["D4"], (0, 3), names=["j_mi_nan.csv"])
case("merge_joint_ok", ["merge", "{in}/tables/j0.csv", "{in}/tables/j1.csv", "--csv", "{s}/m.csv"],
     ["D4"], 0, check=exists("m.csv"))
# An address-space limit (ulimit -v, Slurm) below the 2 GiB RSS cap, so that
# the allocation fails before the runner would kill the run: the failure
# must be a message, not an uncaught bad_alloc.
case("batch_images_1e8_as1500M", ["batch", "--synthetic", "random", "--images", "100000000", "--width", "1",
                                  "--height", "1", "--quiet"], ["D4"], (0, 2, 3), as_limit=1500 << 20,
     names=["--images"], timeout=20)
case("batch_images_4294967296", ["batch", "--synthetic", "random", "--images", "4294967296", "--width", "1",
                                 "--height", "1", "--quiet"], ["D4"], (0, 2, 3), names=["--images"])
case("liar_gif32767_as1500M", ["histogram", "{in}/liar/gif_screen_32767.gif", "--quiet"], ["D4", "D6"], (0, 3),
     as_limit=1500 << 20)

# ---------------------------------------------------------------- D5 outputs over inputs

G = "{s}/g"
case("batch_csv_is_input", ["batch", G, "--quiet", "--csv", G + "/full.png"], ["D5"], (2, 3),
     setup=copy("{in}/batch/good", G), names=["full.png", "--csv"])
case("batch_json_is_input", ["batch", G, "--quiet", "--json", G + "/full.png"], ["D5"], (2, 3),
     setup=copy("{in}/batch/good", G), names=["full.png", "--json"])
case("batch_out_csv_is_input", ["batch", G, "--pipeline", "blur", "--out", "{s}/o", "--quiet", "--csv",
                                G + "/gray.png"], ["D5"], (2, 3), setup=copy("{in}/batch/good", G),
     names=["gray.png", "--csv"])
case("batch_csv_in_folder_recursive_sub", ["batch", G, "--recursive", "--quiet", "--csv", G + "/sub/a.png"],
     ["D5"], (2, 3), setup=copy("{in}/batch/good", G), names=["a.png", "--csv"])
case("batch_csv_new_file_in_folder", ["batch", G, "--quiet", "--csv", G + "/table.csv"], ["D5"], (0, 2),
     setup=copy("{in}/batch/good", G), names=["table.csv", "--csv"])
case("batch_out_is_input_folder", ["batch", G, "--pipeline", "blur", "--out", G, "--quiet"], ["D5", "old:out-in"], (2, 3),
     setup=copy("{in}/batch/good", G), names=["--out", "g"])
case("bowhist_images_csv_in_folder", ["bow", "histograms", G, "--codebook", "{s}/cb64.yml", "--quiet",
                                      "--csv", G + "/full.png"], ["D5"], (2, 3),
     setup=chain(copy("{in}/batch/good", G),
                 run_cli("bow", "build-codebook", "--synthetic", "--count", "2000", "--dim", "64", "--k", "8",
                         "--device", "cpu", "--quiet", "--out", "{s}/cb64.yml")), names=["full.png", "--csv"])
D = "{s}/d"
case("bowhist_csv_is_desc", ["bow", "histograms", D, "--descriptor-files", "--codebook", "{in}/bow/cb8.yml",
                             "--quiet", "--csv", D + "/d0.csv"], ["D5"], (2, 3), setup=copy("{in}/bow/good", D),
     names=["d0.csv", "--csv"])
case("bowhist_similarity_is_desc", ["bow", "histograms", D, "--descriptor-files", "--codebook",
                                    "{in}/bow/cb8.yml", "--quiet", "--similarity", D + "/d1.csv"], ["D5"], (2, 3),
     setup=copy("{in}/bow/good", D), names=["d1.csv", "--similarity"])
case("bowcbk_out_is_desc", ["bow", "build-codebook", D, "--descriptor-files", "--k", "4", "--quiet",
                            "--out", D + "/d0.csv"], ["D5"], (2, 3), setup=copy("{in}/bow/good", D),
     names=["d0.csv", "--out"])
case("bowhist_codebook_is_csv", ["bow", "histograms", D, "--descriptor-files", "--codebook", "{s}/cb.yml",
                                 "--quiet", "--csv", "{s}/cb.yml"], ["D5", "old:out-in"], (2, 3),
     setup=chain(copy("{in}/bow/good", D), copy("{in}/bow/cb8.yml", "{s}/cb.yml")), names=["cb.yml", "--csv"])
BASE = ["--pipeline", "read-only", "--size", "64K", "--repeat", "1", "--quiet"]
mk_base = run_cli("dashboard", "--device", "cpu", *BASE, "--json", "{s}/b.json")
case("dash_out_is_baseline", ["dashboard"] + BASE + ["--baseline", "{s}/b.json", "--json", "{s}/b.json"],
     ["D5"], (2, 3), setup=mk_base, names=["b.json", "--json"])
case("dash_csv_is_baseline", ["dashboard"] + BASE + ["--baseline", "{s}/b.json", "--csv", "{s}/b.json"],
     ["D5"], (2, 3), setup=mk_base, names=["b.json", "--csv"])
SW = ["sweep", "atomics", "--size", "1", "--repeat", "1", "--max-repeat", "1", "--dist", "random", "--quiet"]
mk_sweep = run_cli("sweep", "atomics", "--size", "1", "--repeat", "1", "--max-repeat", "1", "--dist", "random",
                   "--device", "cpu", "--quiet", "--json", "{s}/b.json")
case("sweep_out_is_baseline", SW + ["--baseline", "{s}/b.json", "--json", "{s}/b.json"], ["D5"], (2, 3),
     setup=mk_sweep, names=["b.json", "--json"], timeout=60)
case("merge_csv_is_input", ["merge", "{s}/h1.csv", "{s}/h2.csv", "--csv", "{s}/h2.csv"], ["D5", "old:out-in"], (2, 3),
     setup=chain(copy("{in}/tables/h1.csv", "{s}/h1.csv"), copy("{in}/tables/h2.csv", "{s}/h2.csv")),
     names=["h2.csv", "--csv"])
case("bowmerge_csv_is_input", ["bow", "merge", "{s}/s0.csv", "{s}/s1.csv", "--csv", "{s}/s0.csv"],
     ["D5", "old:out-in"], (2, 3),
     setup=chain(copy("{in}/tables/s0.csv", "{s}/s0.csv"), copy("{in}/tables/s1.csv", "{s}/s1.csv")),
     names=["s0.csv", "--csv"])
for cmd in ("histogram", "blur", "equalize", "largebin", "joint"):
    opt = "--out" if cmd in ("blur", "equalize") else "--csv"
    extra = ["{s}/x.png", "{s}/x.png"] if cmd == "joint" else ["{s}/x.png"]
    case("%s_%s_is_input" % (cmd, opt[2:]), [cmd] + extra + ["--quiet", "--repeat", "1", opt, "{s}/x.png"]
         if cmd != "histogram" else [cmd, "{s}/x.png", "--quiet", opt, "{s}/x.png"],
         ["old:out-in"], 2, setup=copy("{in}/fmt/gray.png", "{s}/x.png"), names=["x.png", opt])
case("histogram_csv_json_same", ["histogram", "{in}/fmt/gray.png", "--quiet", "--csv", "{s}/o", "--json", "{s}/o"],
     ["old:out-in"], 2, names=["--json", "--csv"])
case("histogram_csv_via_symlink", ["histogram", "{s}/x.png", "--quiet", "--csv", "{s}/link.png"],
     ["old:out-in"], 2, setup=chain(copy("{in}/fmt/gray.png", "{s}/x.png"),
                                     lambda ctx: os.symlink("x.png", ctx.path("{s}/link.png"))),
     names=["link.png", "x.png", "--csv"])
case("reverse_csv_is_input", ["reverse", "--input", "{s}/x.png", "--repeat", "1", "--quiet", "--csv", "{s}/x.png"],
     ["old:out-in"], 2, setup=copy("{in}/fmt/gray.png", "{s}/x.png"), names=["x.png", "--csv"])

# ---------------------------------------------------------------- D6 lying GIF screens

# Either answer keeps to the file: the 1 x 1 frame counted as the image (1 pixel), or a refusal.
case("gif_screen_20000", ["histogram", "{in}/liar/gif_screen_20000.gif", "--quiet", "--csv", "{s}/h.csv"],
     ["D6"], (0, 3), check=hist_total("{s}/h.csv", 1), mem_mb=1024)
case("gif_screen_20000_eq", ["equalize", "{in}/liar/gif_screen_20000.gif", "--repeat", "1", "--quiet",
                             "--out", "{s}/e.png"], ["D6"], (0, 3), mem_mb=1024)
case("gif_screen_32767", ["histogram", "{in}/liar/gif_screen_32767.gif", "--quiet"], ["D6"], (0, 3),
     mem_mb=1024)
case("gif_screen_4000", ["histogram", "{in}/liar/gif_screen_4000.gif", "--quiet", "--csv", "{s}/h.csv"],
     ["D6"], (0, 3), check=hist_total("{s}/h.csv", 1), mem_mb=1024)
case("gif_big_frame_short", ["histogram", "{in}/liar/gif_big_frame_short.gif", "--quiet"], ["D6"], 3,
     mem_mb=512)

# ---------------------------------------------------------------- D7 huge counts

case("scan_count_2p31", ["scan", "--repeat", "1", "--quiet", "--count", "2147483648"], ["D7"], (2, 4),
     names=["--count"])
case("scan_count_1p5G", ["scan", "--repeat", "1", "--quiet", "--count", "1500000000"], ["D7"], (2, 4),
     names=["--count"])
case("reverse_size_2p31", ["reverse", "--repeat", "1", "--quiet", "--size", "2147483648"], ["D7"], (2, 4),
     names=["--size"])
case("largebin_u8_count_2p31", ["largebin", "--type", "u8", "--repeat", "1", "--quiet", "--count", "2147483648"],
     ["D7"], (2, 4), names=["--count"])

# ---------------------------------------------------------------- D8 PNG bombs

for cmd in ("histogram", "blur", "equalize"):
    case("png_30k_short_" + cmd, [cmd, "{in}/liar/png_30k_rgba_short.png", "--quiet"] +
         ([] if cmd == "histogram" else ["--repeat", "1"]), ["D8"], 3, mem_mb=1024)
case("png_8k_short", ["histogram", "{in}/liar/png_8k_gray_short.png", "--quiet"], ["D8"], 3, mem_mb=512)
case("png_bombs_batch", ["batch", "{in}/batch/png_bombs", "--quiet", "--jobs", "1", "--csv", "{s}/b.csv"],
     ["D8"], 0, mem_mb=1024, check=all_of(row_status("b.csv", "bomb0.png"), row_status("b.csv", "ok.png", want_ok=True)))

# ---------------------------------------------------------------- D9 endless inputs

if os.access("/proc/kmsg", os.R_OK):
    case("histogram_kmsg", ["histogram", "/proc/kmsg", "--quiet"], ["D9"], 3, names=["kmsg"])
    case("merge_kmsg", ["merge", "/proc/kmsg", "--quiet"], ["D9"], 3, names=["kmsg"])
case("histogram_proc_self_mem", ["histogram", "/proc/self/mem", "--quiet"], ["D9"], 3, names=["mem"])
case("merge_dev_zero", ["merge", "/dev/zero", "--quiet"], ["D9"], 3, names=["zero"], mem_mb=512)
case("histogram_dev_zero", ["histogram", "/dev/zero", "--quiet"], ["D9"], 3, names=["zero"], mem_mb=512)
case("merge_sparse_10G", ["merge", "{s}/s.csv", "--quiet"], ["D9"], 3, setup=big(mc.sparse, "{s}/s.csv", 10 << 30),
     names=["s.csv"], mem_mb=1024)
case("dash_baseline_sparse_20G", ["dashboard"] + BASE + ["--baseline", "{s}/s.json"], ["D9"], 3,
     setup=big(mc.sparse, "{s}/s.json", 20 << 30), names=["s.json"], mem_mb=1024)
case("bow_codebook_sparse_4G", ["bow", "histograms", "{in}/bow/good", "--descriptor-files", "--codebook",
                                "{s}/s.yml", "--quiet"], ["D9"], 3, setup=big(mc.sparse, "{s}/s.yml", 4 << 30),
     names=["s.yml"], mem_mb=1024)

# ---------------------------------------------------------------- D10 blur radius

case("blur_direct_r1024", ["blur", "{in}/fmt/rgb.png", "--repeat", "1", "--quiet", "--variant", "direct",
                           "--radius", "1024"], ["D10"], (0, 2), names=["--radius", "--variant"])
case("blur_all_r1024", ["blur", "{in}/fmt/rgb.png", "--repeat", "1", "--quiet", "--variant", "all",
                        "--radius", "1024"], ["D10"], (0, 2), names=["--radius", "--variant"])
case("blur_sliding_r1024", ["blur", "{in}/fmt/rgb.png", "--repeat", "1", "--quiet", "--variant", "sliding",
                            "--radius", "1024"], ["D10"], 0)

# ---------------------------------------------------------------- D11-D14 lying codecs

LIARS = [("g4_lie_10k.tif", "D11", 1024), ("g4_lie_30k.tif", "D11", 1024), ("jpeg_lie_tall.tif", "D12", 1024),
         ("jpeg_lie_30k.tif", "D12", 1024), ("jpeg_lie_tall.jpg", "old:jpeg-grey-fill", 1024),
         ("rle8_eob_10k_gray.bmp", "D13", 1024), ("rle8_eob_10k_color.bmp", "D13", 1024),
         ("rle8_eob_30k_gray.bmp", "D13", 1024), ("rle8_delta_10k.bmp", "D13", 1024),
         ("rle4_eob_10k.bmp", "D13", 1024), ("j2k_one_tile.j2k", "D14", 1024),
         ("j2k_siz_lie_4k.j2k", "D14", 1024), ("j2k_siz_lie_16k.j2k", "D14", 1024)]
for f, tag, mem in LIARS:
    case("liar_hist_" + f, ["histogram", "{in}/liar/" + f, "--quiet", "--csv", "{s}/h.csv"], [tag], 3,
         on_exit0="wrong-result", mem_mb=mem)
for f, tag in (("g4_lie_10k.tif", "D11"), ("jpeg_lie_tall.tif", "D12"), ("rle8_eob_10k_gray.bmp", "D13"),
               ("j2k_one_tile.j2k", "D14")):
    case("liar_eq_" + f, ["equalize", "{in}/liar/" + f, "--repeat", "1", "--quiet", "--out", "{s}/e.png"],
         [tag], 3, on_exit0="wrong-result", mem_mb=1024)
    case("liar_lb_" + f, ["largebin", "{in}/liar/" + f, "--repeat", "1", "--quiet", "--counts", "{s}/c.csv"],
         [tag], 3, on_exit0="wrong-result", mem_mb=1024)
    case("liar_joint_" + f, ["joint", "{in}/liar/" + f, "{in}/liar/" + f, "--repeat", "1", "--quiet"],
         [tag], 3, on_exit0="wrong-result", mem_mb=1024)
    case("liar_blur_" + f, ["blur", "{in}/liar/" + f, "--repeat", "1", "--quiet"], [tag], 3,
         on_exit0="wrong-result", mem_mb=1024)
case("liar_batch", ["batch", "{in}/batch/liars", "--quiet", "--jobs", "1", "--csv", "{s}/b.csv"],
     ["D11", "D12", "D13", "D14"], 0, on_exit0="wrong-result", mem_mb=1536,
     check=all_of(*[row_status("b.csv", f) for f in ("g4.tif", "rle.bmp", "jpeg.tif", "tile.j2k")],
                  row_status("b.csv", "ok.png", want_ok=True)))
case("liar_bow_folder", ["bow", "histograms", "{in}/batch/liars", "--codebook", "{s}/cb64.yml", "--quiet",
                         "--csv", "{s}/h.csv"], ["D11", "D12", "D13", "D14"], 0, mem_mb=1536, timeout=60,
     setup=run_cli("bow", "build-codebook", "--synthetic", "--count", "2000", "--dim", "64", "--k", "8",
                   "--device", "cpu", "--quiet", "--out", "{s}/cb64.yml"),
     check=all_of(*[row_status("h.csv", f) for f in ("g4.tif", "rle.bmp", "jpeg.tif", "tile.j2k")]))

# ---------------------------------------------------------------- D15 float range spans

case("lb_range_huge_span", ["largebin", "--type", "f32", "--count", "10000", "--repeat", "1", "--quiet",
                            "--range=-1.8e38,1.8e38", "--counts", "{s}/c.csv"], ["D15"], (0, 2),
     names=["--range"], on_exit0="wrong-result", check=bins_within("{s}/c.csv", 0.0, 1.0))
case("lb_range_17e37_ok", ["largebin", "--type", "f32", "--count", "10000", "--repeat", "1", "--quiet",
                           "--range=-1.7e38,1.7e38", "--counts", "{s}/c.csv"], ["D15"], 0,
     check=bins_within("{s}/c.csv", 0.0, 1.0))
case("hist_float_img_huge_range", ["histogram", "{in}/num/pfm_small.pfm", "--quiet", "--range=-3e38,3e38",
                                   "--bins", "4", "--csv", "{s}/h.csv"], ["D15"], (0, 2), names=["--range"],
     on_exit0="wrong-result", check=bins_within("{s}/h.csv", 0.0, 1.0))
case("joint_range_span", ["joint", "--synthetic", "random", "--type", "f32", "--count", "1000", "--repeat", "1",
                          "--quiet", "--range-a=-3e38,3e38", "--range-b=-3e38,3e38", "--bins", "4,4",
                          "--csv", "{s}/j.csv"], ["D15"], (0, 2), names=["--range-a", "--range-b"],
     on_exit0="wrong-result", check=joint_cell("{s}/j.csv", 2, 2))

# ---------------------------------------------------------------- D16 NaN descriptors and codebooks

case("bow_cb_all_nan", ["bow", "histograms", "{in}/bow/good", "--descriptor-files", "--codebook",
                        "{in}/bow/cb_all_nan.yml", "--quiet", "--csv", "{s}/h.csv"], ["D16"], 3,
     on_exit0="wrong-result")
case("bow_cb_all_nan_kall", ["bow", "histograms", "{in}/bow/good", "--descriptor-files", "--codebook",
                             "{in}/bow/cb_all_nan.yml", "--kernel", "all", "--quiet"], ["D16"], 3,
     on_exit0="wrong-result", names=["cb_all_nan.yml"])
case("bow_cb_one_inf", ["bow", "histograms", "{in}/bow/good", "--descriptor-files", "--codebook",
                        "{in}/bow/cb_one_inf.yml", "--quiet"], ["D16"], 3, on_exit0="wrong-result")
case("bowdesc_nan", ["bow", "histograms", "{in}/bow/mixed_nan", "--descriptor-files", "--codebook",
                     "{in}/bow/cb8.yml", "--quiet", "--csv", "{s}/h.csv"], ["D16"], 0,
     on_exit0="wrong-result", check=all_of(row_status("h.csv", "e.csv"), row_status("h.csv", "d0.csv", want_ok=True)))
case("bowdesc_inf", ["bow", "histograms", "{in}/bow/mixed_inf", "--descriptor-files", "--codebook",
                     "{in}/bow/cb8.yml", "--quiet", "--csv", "{s}/h.csv"], ["D16"], 0,
     check=row_status("h.csv", "e.csv"))
case("bowcbk_nan", ["bow", "build-codebook", "{in}/bow/only_nan", "--descriptor-files", "--k", "4", "--quiet",
                    "--out", "{s}/cb.yml"], ["D16"], 3, on_exit0="wrong-result", names=["e.csv", "only_nan"])
case("bowcbk_mixed_nan", ["bow", "build-codebook", "{in}/bow/mixed_nan", "--descriptor-files", "--k", "4",
                          "--quiet", "--out", "{s}/cb.yml"], ["D16"], (0, 3), names=["e.csv"],
     check=lambda ctx: "the codebook holds NaN" if "nan" in open(ctx.path("{s}/cb.yml")).read().lower() else None)

# ---------------------------------------------------------------- D17 counts modulo 2^64

case("merge_hist_max_two", ["merge", "{in}/tables/h_max.csv", "{in}/tables/h_max_b.csv", "--csv", "{s}/m.csv",
                            "--quiet"], ["D17"], 3, on_exit0="wrong-result", names=["h_max_b.csv", "h_max.csv"])
# The largest count plus 0 in that bin is exact: no wrap, so exit 0.
case("merge_hist_max_plus", ["merge", "{in}/tables/h_max.csv", "{in}/tables/h1.csv", "--csv", "{s}/m.csv",
                             "--quiet"], ["D17"], (0, 3), names=["h1.csv", "h_max.csv"])
case("merge_hist_over_2p64", ["merge", "{in}/tables/h_over.csv", "{in}/tables/h1.csv", "--quiet"], ["D17"], 3,
     names=["h_over.csv"])
case("merge_batch_max_two", ["merge", "{in}/tables/b_max.csv", "{in}/tables/b_max2.csv", "--json", "{s}/m.json",
                             "--quiet"], ["D17"], 3, on_exit0="wrong-result", names=["b_max2.csv", "b_max.csv"])
case("bowmerge_wrap", ["bow", "merge", "{in}/tables/s_wrap.csv", "{in}/tables/s0.csv", "--csv", "{s}/m.csv",
                       "--quiet"], ["D17"], 3, on_exit0="wrong-result", names=["s_wrap.csv"])
case("merge_width_huge", ["merge", "{in}/tables/b_width_huge.csv", "{in}/tables/b0.csv", "--csv", "{s}/m.csv",
                          "--quiet"], ["D17"], (0, 3), on_exit0="wrong-result", names=["b_width_huge.csv"],
     check=row_field("{s}/m.csv", "w.png", "width", 99999999999))

# ---------------------------------------------------------------- D18 silent failures

# Results that cannot be written: the review used a full tmpfs and a
# read-only mount; without mounting anything, a regular file stands where
# a result's subfolder must be made (RLIMIT_FSIZE would be simpler, but
# PoCL writes its compiled kernels under the same limit and fails first).
case("batch_out_write_fails", ["batch", "{in}/batch/good", "--recursive", "--pipeline", "blur", "--quiet",
                               "--out", "{s}/o"], ["D18"], 3, names=["results not written"],
     setup=lambda ctx: (os.makedirs(ctx.path("{s}/o")), open(ctx.path("{s}/o/sub"), "w").close()))
case("batch_out_dir_file_clash", ["batch", "{in}/batch/clash", "--recursive", "--pipeline", "blur", "--quiet",
                                  "--out", "{s}/o"], ["D18"], 3,
     setup=lambda ctx: os.makedirs(ctx.path("{s}/o/x.png"), exist_ok=True), names=["results not written"])
case("bow_cb_dim_mismatch_all_fail", ["bow", "histograms", "{in}/bow/good", "--descriptor-files", "--codebook",
                                      "{in}/bow/cb_dim1.yml", "--quiet", "--csv", "{s}/h.csv"], ["D18"], 3,
     names=["could be counted"], table_kept=True)
case("bow_cb_d128_all_fail", ["bow", "histograms", "{in}/bow/good", "--descriptor-files", "--codebook",
                              "{in}/bow/cb_d128.yml", "--quiet"], ["D18"], 3, names=["could be counted"])
case("batch_some_broken", ["batch", "{in}/batch/broken", "--quiet", "--csv", "{s}/b.csv"], ["D18"], 0,
     check=all_of(row_status("b.csv", "half.png"), row_status("b.csv", "ok.png", want_ok=True)))

# ---------------------------------------------------------------- D19 two outputs on stdout

case("hist_csv_json_both_stdout", ["histogram", "{in}/fmt/gray.png", "--quiet", "--csv", "-", "--json", "-"],
     ["D19"], 2, names=["--json", "--csv"])
case("blur_out_csv_both_stdout", ["blur", "{in}/fmt/gray.png", "--repeat", "1", "--quiet", "--out", "-",
                                  "--csv", "-"], ["D19"], 2, names=["--out", "--csv"])
case("batch_csv_json_both_stdout", ["batch", "{in}/batch/good", "--quiet", "--csv", "-", "--json", "-"],
     ["D19"], 2, names=["--json", "--csv"])
case("largebin_csv_counts_both_stdout", ["largebin", "--type", "u8", "--count", "1000", "--repeat", "1", "--quiet",
                                         "--csv", "-", "--counts", "-"], ["D19"], (0, 2), names=["--counts", "--csv"])

# ---------------------------------------------------------------- D20 wide PNG

for cmd in ("blur", "equalize"):
    case(cmd + "_wide2M", [cmd, "{in}/fmt/wide_2M.png", "--repeat", "1", "--quiet", "--out", "{s}/o.png"] +
         (["--csv", "{s}/e.csv"] if cmd == "equalize" else []), ["D20"], (0, 3), names=["o.png"],
         check=exists("{s}/o.png"))
case("histogram_wide2M", ["histogram", "{in}/fmt/wide_2M.png", "--quiet", "--csv", "{s}/h.csv"], ["D20"], 0,
     check=hist_total("{s}/h.csv", 2000000))

# ---------------------------------------------------------------- D21 unwritable PoCL cache

for nm, env in (("xdgcache_proc", {"XDG_CACHE_HOME": "/proc/nope"}), ("home_proc", {"HOME": "/proc", "XDG_CACHE_HOME": ""})):
    case("env_" + nm, ["histogram", "{in}/fmt/gray.png", "--quiet", "--csv", "{s}/h.csv"], ["D21"], (0, 4),
         env=env, names=["cache", "/proc"],
         check=hist_total("{s}/h.csv", 3072))

# ---------------------------------------------------------------- D22 float images at +-FLT_MAX

case("pfm_huge_values", ["histogram", "{in}/num/pfm_huge_values.pfm", "--quiet", "--csv", "{s}/h.csv"], ["D22"], (0, 3),
     check=hist_total("{s}/h.csv", 8))
case("lb_pfm_huge_values", ["largebin", "{in}/num/pfm_huge_values.pfm", "--repeat", "1", "--quiet",
                            "--counts", "{s}/c.csv"], ["D22"], (0, 3), check=hist_total("{s}/c.csv", 8))
case("joint_pfm_huge_values", ["joint", "{in}/num/pfm_huge_values.pfm", "{in}/num/pfm_huge_values.pfm",
                               "--repeat", "1", "--quiet", "--bins", "4,4"], ["D22"], (0, 3))

# ---------------------------------------------------------------- D23 foreign lines first

case("kdir_broken_hist", ["--kernel-dir", "{in}/special/kernels_broken", "histogram", "{in}/fmt/gray.png",
                          "--quiet"], ["D23"], 4, names=["kernel", ".cl"], log_follows=True)
case("kdir_broken_batch", ["--kernel-dir", "{in}/special/kernels_broken", "batch", "{in}/batch/good", "--quiet"],
     ["D23"], 4, names=["kernel", ".cl"], log_follows=True)

# ---------------------------------------------------------------- D24 smaller items

case("newline_name", ["histogram", "{in}/special/new\nline.png", "--quiet"], ["D24", "old:newline"], 3,
     names=["line.png", "new"])
case("newline_name_batch", ["batch", "{in}/special/newline_dir", "--quiet", "--csv", "{s}/b.csv"],
     ["D24", "old:newline"], 0, check=row_status("b.csv", "bad\nname.png"))
case("chunk_1e99", ["histogram", "--synthetic", "random", "--size", "1", "--end-to-end", "--chunk", "1e99",
                    "--repeat", "1", "--quiet"], ["D24", "old:numbers"], 2, names=["--chunk"],
     not_contains=["at least 48 bytes"])
case("batch_folder_symlink_loop", ["batch", "{in}/special/dirloop2", "--quiet"], ["D24", "old:symlink"], 3,
     names=["dirloop2"], not_contains=["no such folder"])
case("batch_recursive_self_link", ["batch", "{in}/special/dirloop", "--recursive", "--quiet"], ["D24"], 3,
     names=["dirloop"])
case("batch_recursive_unreadable_sub", ["batch", "{s}/u", "--recursive", "--quiet", "--csv", "{s}/b.csv"], ["D24"],
     (0, 3), user="nobody", names=["locked"], not_contains=["no image files"],
     # nobody cannot write root's PoCL cache (that is D21's case, not this one)
     env={"HOME": "/tmp", "XDG_CACHE_HOME": "/tmp/histlab-hostile-nobody-cache"},
     setup=chain(copy("{in}/batch/unreadable", "{s}/u"), chmod("{s}/u/locked", 0)),
     check=row_status("{s}/b.csv", "locked"), check_class="silent-failure")
case("bow_sift_1x1", ["bow", "histograms", "{in}/batch/one_px", "--detector", "sift", "--codebook", "{s}/cb.yml",
                      "--quiet", "--csv", "{s}/h.csv"], ["D24"], 0, timeout=60,
     setup=run_cli("bow", "build-codebook", "--synthetic", "--count", "2000", "--dim", "128", "--k", "8",
                   "--device", "cpu", "--quiet", "--out", "{s}/cb.yml"),
     check=reason_not("{s}/h.csv", "tiny.png", "_M_default_append"), check_class="unclear-message")
case("bowdesc_first_row_plus", ["bow", "histograms", "{in}/bow/mixed_plus", "--descriptor-files", "--codebook",
                                "{in}/bow/cb8.yml", "--quiet", "--csv", "{s}/h.csv"], ["D24"], 0,
     check=lambda ctx: plus_row(ctx))


def plus_row(ctx):
    """strtod reads "+1" and "0x1p3": the row is data (2 descriptors), or the
    file is refused for what it is, not as "no descriptors"."""
    if row_field("{s}/h.csv", "e.csv", "descriptors", 2)(ctx) is None:
        return None
    for r in read_csv(ctx.path("{s}/h.csv"))[1:]:
        if r and r[0] == "e.csv":
            return "row e.csv: %r" % r[2] if ("no descriptors" in r[2] or r[2] == "ok") else None
    return "no row for e.csv"


# A UTF-8 BOM (what a spreadsheet saves): read past it, or refuse the file
# saying that it is the BOM, not "neither a batch table nor a histogram CSV".
BOM_WORDS = ["BOM", "byte order", "byte-order"]
case("merge_hist_bom", ["merge", "{in}/tables/h_bom.csv", "{in}/tables/h2.csv", "--csv", "{s}/m.csv", "--quiet"],
     ["D24"], (0, 3), names=BOM_WORDS, check=exists("{s}/m.csv"))
case("merge_batch_bom", ["merge", "{in}/tables/b_bom.csv", "{in}/tables/b0.csv", "--csv", "{s}/m.csv", "--quiet"],
     ["D24"], (0, 3), names=BOM_WORDS, check=exists("{s}/m.csv"))
case("bowmerge_bom", ["bow", "merge", "{in}/tables/s_bom.csv", "{in}/tables/s0.csv", "--csv", "{s}/m.csv",
                      "--quiet"], ["D24"], (0, 3), names=BOM_WORDS, check=exists("{s}/m.csv"))
case("dash_baseline_status_100k", ["dashboard"] + BASE + ["--baseline", "{s}/b.json"], ["D24"], (0, 3),
     setup=chain(mk_base, patch_json_status("{s}/b.json", 100000)), names=["b.json"], max_line=2000)
case("pam_maxval0", ["histogram", "{in}/num/pam_maxval0.pam", "--quiet"], ["D24"], 3, on_exit0="wrong-result")
case("pgm_maxval0", ["histogram", "{in}/num/pgm_maxval0.pgm", "--quiet"], ["D24"], 3)
case("exr_half_grammar", ["histogram", "{in}/fmt/rgb.half.exr", "--quiet"], ["D24", "D23"], 3,
     not_contains=["a OpenEXR"], needs="{in}/fmt/rgb.half.exr")

# ---------------------------------------------------------------- D25

case("dashboard_list_no_icd", ["dashboard", "--list"], ["D25"], 0, device=False,
     env={"OCL_ICD_VENDORS": "/nonexistent", "OPENCL_VENDOR_PATH": "/nonexistent"})
for cmd in ("histogram", "batch", "merge"):
    case("help_exit_table_" + cmd, [cmd, "--help"], ["D25"], 0, device=False,
         check=stdout_lacks("a folder, a size of 0"), check_class="unclear-message")

# ---------------------------------------------------------------- old classes: every format cut, empty, head

FORMATS = ["gray.png", "rgb.png", "rgba.png", "gray16.png", "gray.pgm", "rgb.ppm", "gray.pam", "rgb.bmp",
           "rgb.tga", "gray.gif", "gray.tif", "gray.jpg", "gray.j2k", "rgb.hdr", "gray.pfm", "gray.webp", "rgb.exr"]
for f in FORMATS:
    stem, ext = f.rsplit(".", 1)
    for kind in ("half", "head", "empty"):
        if kind == "empty" and ext in ("webp", "exr"):
            continue
        g = "%s.%s.%s" % (stem, kind, ext)
        case("cut_%s_%s" % (kind, f), ["histogram", "{in}/fmt/" + g, "--quiet", "--csv", "{s}/h.csv"],
             ["old:truncated" if kind != "empty" else "old:empty"] + (["D23"] if ext in (
                 "bmp", "pam", "pfm", "hdr", "exr", "j2k") else []), 3, on_exit0="wrong-result",
             needs="{in}/fmt/" + g)
    total = {"rgba.png": 768, "gray16.png": 1200, "rgb.hdr": 30, "gray.pfm": 192, "gray.j2k": 65536}.get(f, 3072)
    case("ok_" + f, ["histogram", "{in}/fmt/" + f, "--quiet", "--csv", "{s}/h.csv"], ["ok"], 0,
         check=hist_total("{s}/h.csv", total), needs="{in}/fmt/" + f)
# the other image commands on a cut file and on a good one
for cmd in ("blur", "equalize", "largebin", "joint"):
    two = ["{in}/fmt/gray.half.png"] * (2 if cmd == "joint" else 1)
    case(cmd + "_cut_png", [cmd] + two + ["--repeat", "1", "--quiet"], ["old:truncated"], 3, on_exit0="wrong-result")
    two = ["{in}/fmt/gray.png"] * (2 if cmd == "joint" else 1)
    case(cmd + "_ok_png", [cmd] + two + ["--repeat", "1", "--quiet"], ["ok"], 0)
case("ok_g4_tiff", ["histogram", "{in}/fmt/g4_ok.tif", "--quiet", "--csv", "{s}/h.csv"], ["ok"], 0,
     check=hist_total("{s}/h.csv", 3072))
case("ok_jpeg_tiff", ["histogram", "{in}/fmt/jpeg_ok.tif", "--quiet", "--csv", "{s}/h.csv"], ["ok"], 0,
     check=hist_total("{s}/h.csv", 3072))
case("ok_batch_good", ["batch", "{in}/batch/good", "--recursive", "--quiet", "--csv", "{s}/b.csv"], ["ok"], 0,
     check=row_status("{s}/b.csv", "full.png", want_ok=True))
case("ok_bow_good", ["bow", "histograms", "{in}/bow/good", "--descriptor-files", "--codebook", "{in}/bow/cb8.yml",
                     "--quiet", "--csv", "{s}/h.csv"], ["ok"], 0, check=row_status("{s}/h.csv", "d3.csv", want_ok=True))
case("ok_bowcbk_good", ["bow", "build-codebook", "{in}/bow/good", "--descriptor-files", "--k", "4", "--quiet",
                        "--out", "{s}/cb.yml"], ["ok"], 0, check=exists("{s}/cb.yml"))
case("ok_merge_hist", ["merge", "{in}/tables/h1.csv", "{in}/tables/h2.csv", "--csv", "{s}/m.csv", "--quiet"],
     ["ok"], 0, check=first_cell("{s}/m.csv", "0"))
case("ok_merge_batch", ["merge", "{in}/tables/b0.csv", "{in}/tables/b1.csv", "--csv", "{s}/m.csv", "--quiet"],
     ["ok"], 0, check=exists("{s}/m.csv"))
case("ok_bowmerge", ["bow", "merge", "{in}/tables/s0.csv", "{in}/tables/s1.csv", "--csv", "{s}/m.csv", "--quiet"],
     ["ok"], 0, check=exists("{s}/m.csv"))
case("ok_scan", ["scan", "--count", "100000", "--repeat", "1", "--quiet"], ["ok"], 0)
case("ok_reverse", ["reverse", "--size", "4099", "--repeat", "1", "--quiet"], ["ok"], 0)
case("ok_dash_baseline", ["dashboard"] + BASE + ["--baseline", "{s}/b.json", "--json", "{s}/c.json"], ["ok"], 0,
     setup=mk_base, check=exists("{s}/c.json"))
case("ok_sweep_baseline", SW + ["--baseline", "{s}/b.json", "--json", "{s}/c.json"], ["ok"], 0,
     setup=mk_sweep, check=exists("{s}/c.json"), timeout=60)

# ---------------------------------------------------------------- old classes: table files cut or wrong

TABLES = [("h_neg.csv", "merge"), ("h_nan.csv", "merge"), ("h_bins255.csv", "merge"), ("h_header_only.csv", "merge"),
          ("b_dup.csv", "merge"), ("b_counts_wrong.csv", "merge"), ("s_k4.csv", "bow merge")]
for f, cmd in TABLES:
    other = "{in}/tables/" + ("s0.csv" if cmd == "bow merge" else ("b0.csv" if f.startswith("b_") else "h1.csv"))
    # a batch row whose counts do not add up to width x height: nothing
    # documented says merge checks it (bow merge does check its sums)
    case("table_" + f, cmd.split() + ["{in}/tables/" + f, other, "--csv", "{s}/m.csv", "--quiet"],
         ["old:tables"], (0, 3) if f == "b_counts_wrong.csv" else 3, names=[f, "b0.csv", "s0.csv", "h1.csv"])
for cmd in ("merge", "bow merge"):
    tag = cmd.replace(" ", "")
    case(tag + "_cut_table", cmd.split() + ["{s}/t.csv", "--quiet"], ["old:truncated"], 3,
         setup=lambda ctx, c=cmd: open(ctx.path("{s}/t.csv"), "w").write(
             (lambda t: t[:len(t) - 10])(open(ctx.path("{in}/tables/" + ("s0.csv" if c == "bow merge" else "b0.csv"))).read())),
         names=["t.csv"])
for cb in ("cb_empty.yml", "cb_not_storage.yml", "cb_rows_lie.yml"):
    case("bow_" + cb, ["bow", "histograms", "{in}/bow/good", "--descriptor-files", "--codebook", "{in}/bow/" + cb,
                       "--quiet"], ["old:codebook"], 3)
for sub, bad in (("mixed_dim", "e.csv"), ("mixed_empty", "e.csv"), ("mixed_text", "e.csv")):
    case("bowdesc_" + sub, ["bow", "histograms", "{in}/bow/" + sub, "--descriptor-files", "--codebook",
                            "{in}/bow/cb8.yml", "--quiet", "--csv", "{s}/h.csv"], ["old:descriptors"], 0,
         check=row_status("{s}/h.csv", bad))
for f in ("baseline_not_json.json",):
    case("dash_" + f, ["dashboard"] + BASE + ["--baseline", "{in}/tables/" + f], ["old:baseline"], 3)
    case("sweep_" + f, SW + ["--baseline", "{in}/tables/" + f], ["old:baseline"], 3)

# ---------------------------------------------------------------- old classes: special files as inputs

SPECIAL = ["fifo.png", "loop_a.png", "dangling.png", "dir.png", "missing.png"]
for f in SPECIAL:
    for cmd in ("histogram", "blur", "equalize", "largebin"):
        case("special_%s_%s" % (cmd, f), [cmd, "{in}/special/" + f, "--quiet"] +
             ([] if cmd == "histogram" else ["--repeat", "1"]), ["old:special"], 3)
    case("special_joint_" + f, ["joint", "{in}/fmt/gray.png", "{in}/special/" + f, "--repeat", "1", "--quiet"],
         ["old:special"], 3)
for f in ("fifo.csv", "dir.csv", "loop_a.png", "missing.csv"):
    case("special_merge_" + f, ["merge", "{in}/special/" + f, "--quiet"], ["old:special"], 3)
    case("special_bowmerge_" + f, ["bow", "merge", "{in}/special/" + f, "--quiet"], ["old:special"], 3)
    case("special_baseline_" + f, ["dashboard"] + BASE + ["--baseline", "{in}/special/" + f], ["old:special"], 3)
for f in ("fifo.png", "dir.yml", "loop_a.png", "missing.yml"):
    case("special_codebook_" + f, ["bow", "histograms", "{in}/bow/good", "--descriptor-files", "--codebook",
                                   "{in}/special/" + f, "--quiet"], ["old:special"], 3)
case("special_reverse_fifo", ["reverse", "--input", "{in}/special/fifo.png", "--repeat", "1", "--quiet"],
     ["old:special"], 3, names=["fifo.png"])
case("special_reverse_dir", ["reverse", "--input", "{in}/special/dir.png", "--repeat", "1", "--quiet"],
     ["old:special"], 3, names=["dir.png"])
case("special_sweep_image_fifo", ["sweep", "banks", "--image", "{in}/special/fifo.png", "--size", "1",
                                  "--repeat", "1", "--quiet"], ["old:special"], 3, names=["fifo.png"])
for cmd in ("batch", "bow histograms", "bow build-codebook"):
    tag = cmd.replace(" ", "")
    extra = (["--codebook", "{in}/bow/cb8.yml"] if cmd == "bow histograms" else []) + \
            (["--descriptor-files"] if cmd.startswith("bow") else [])
    case(tag + "_folder_is_file", cmd.split() + ["{in}/fmt/gray.png", "--quiet"] + extra, ["old:special"], 3,
         names=["gray.png"])
    case(tag + "_folder_missing", cmd.split() + ["{in}/nowhere", "--quiet"] + extra, ["old:special"], 3,
         names=["nowhere"])
    case(tag + "_folder_fifo", cmd.split() + ["{in}/special/fifo.png", "--quiet"] + extra, ["old:special"], 3,
         names=["fifo.png"])
case("histogram_png_named_jpg", ["histogram", "{in}/special/png_named.jpg", "--quiet", "--csv", "{s}/h.csv"],
     ["ok"], 0, check=hist_total("{s}/h.csv", 64))
case("histogram_no_extension", ["histogram", "{in}/special/noext", "--quiet", "--csv", "{s}/h.csv"], ["ok"], 0,
     check=hist_total("{s}/h.csv", 64))
case("output_in_missing_dir", ["histogram", "{in}/fmt/gray.png", "--quiet", "--csv", "{s}/no/such/dir/h.csv"],
     ["old:output"], 3, names=["h.csv"])
case("output_is_dir", ["histogram", "{in}/fmt/gray.png", "--quiet", "--csv", "{in}/special/dir.csv"],
     ["old:output"], 3, names=["dir.csv"])
case("output_in_proc", ["histogram", "{in}/fmt/gray.png", "--quiet", "--csv", "/proc/nope.csv"],
     ["old:output"], 3, names=["nope.csv"])

# ---------------------------------------------------------------- old classes: absurd numbers for every option

ABSURD = ["-1", "1e99", "nan", "99999999999999999999", ""]
NUMOPTS = {
    "histogram": (["{in}/fmt/gray.png", "--quiet"], ["--bins", "--banks", "--groups-per-cu", "--wg", "--unroll",
                                                     "--repeat", "--page"]),
    "histogram ": (["--synthetic", "random", "--quiet"], ["--size", "--bytes", "--channels"]),
    "largebin": (["--type", "u8", "--count", "1000", "--quiet"], ["--bins", "--repeat", "--size", "--count"]),
    "joint": (["--synthetic", "random", "--count", "1000", "--quiet"], ["--bins", "--count", "--repeat"]),
    "blur": (["{in}/fmt/gray.png", "--quiet"], ["--radius", "--rows", "--wg", "--repeat", "--vectors"]),
    "blur ": (["--synthetic", "random", "--height", "8", "--quiet"], ["--width"]),
    "equalize": (["{in}/fmt/gray.png", "--quiet"], ["--wg", "--unroll", "--groups-per-cu", "--repeat"]),
    "scan": (["--quiet"], ["--wg", "--vpt", "--size", "--count", "--repeat"]),
    "reverse": (["--quiet"], ["--size", "--wg", "--repeat"]),
    "batch": (["{in}/batch/good", "--quiet"], ["--jobs", "--radius", "--bins", "--shard"]),
    "batch ": (["--synthetic", "random", "--width", "4", "--height", "4", "--quiet"], ["--images"]),
    "bow histograms": (["{in}/bow/good", "--descriptor-files", "--codebook", "{in}/bow/cb8.yml", "--quiet"],
                       ["--max-side", "--max-features", "--nearest", "--shard"]),
    "bow build-codebook": (["--synthetic", "--quiet"], ["--count", "--dim", "--k", "--iterations", "--seed",
                                                         "--max-per-centroid", "--tolerance"]),
    "bow merge": (["{in}/tables/s0.csv", "--quiet"], ["--nearest"]),
    "dashboard": (["--pipeline", "read-only", "--quiet"], ["--size", "--repeat"]),
    "sweep": (["atomics", "--quiet"], ["--size", "--repeat", "--max-repeat"]),
}
# Values that are legal for an option (so not a usage error) are left out:
# 0 means "all"/"full size"/"an empty scan" for some, and a seed or a
# tolerance may be any number.
LEGAL = {("--max-side", "0"), ("--max-features", "0"), ("--count", "0"), ("--max-per-centroid", "0"),
         ("--seed", "0"), ("--seed", "4294967297"), ("--tolerance", "0"), ("--tolerance", "1e99"),
         ("--seed", "99999999999999999999"), ("--nearest", "0"), ("--registers", "0"), ("--chunk", "4294967297"),
         ("--size", "4294967297"), ("--bytes", "4294967297"), ("--count", "4294967297"),
         ("--images", "4294967297"), ("--width", "4294967297"), ("--repeat", "4294967297"),
         ("--max-repeat", "4294967297"), ("--k", "4294967297"), ("--dim", "4294967297"),
         ("--iterations", "4294967297"), ("--seed", "1e99"),
         ("--tolerance", "99999999999999999999"), ("--tolerance", "4294967297")}
for cmd, (base, opts) in NUMOPTS.items():
    for opt in opts:
        for v in ABSURD:
            if (opt, v) in LEGAL:
                continue
            if opt == "--shard" and v not in ("abc", "-1", ""):
                v = {"0": "0/0", "1e99": "5/2", "nan": "1/nan"}.get(v, v + "/" + v)
            nm = "num_%s_%s_%s" % (cmd.strip().replace(" ", "_"), opt[2:], v or "empty")
            if any(c["name"] == nm for c in CASES):
                continue
            case(nm, cmd.split() + base + ["%s=%s" % (opt, v)], ["old:numbers"], 2, names=[opt], timeout=20)

# ---------------------------------------------------------------- the quick subset

# One or two cases per defect that cost well under a second on a fixed
# binary and never need gigabytes: run.py --quick runs them with the RSS cap
# at 512 MiB and the wall limit at 10 s, so even the old binary's blow-ups
# (a 20000^2 GIF screen, a 2^31 scan) are stopped in about a second.
QUICK = {
    "bow_cb_nested_yml", "bowdesc_mixed_nested", "merge_joint_mi_huge", "batch_csv_is_input",
    "bowhist_csv_is_desc", "dash_out_is_baseline", "merge_csv_is_input", "gif_screen_20000", "gif_screen_4000",
    "scan_count_2p31", "png_30k_short_histogram", "png_8k_short", "histogram_proc_self_mem", "merge_dev_zero",
    "liar_hist_g4_lie_10k.tif", "liar_hist_jpeg_lie_tall.tif", "liar_hist_rle8_eob_10k_gray.bmp",
    "liar_hist_j2k_one_tile.j2k", "lb_range_huge_span", "hist_float_img_huge_range", "joint_range_span",
    "bow_cb_all_nan", "bowdesc_nan", "bowcbk_nan", "merge_hist_max_two", "bowmerge_wrap", "merge_width_huge",
    "batch_out_dir_file_clash", "hist_csv_json_both_stdout", "blur_out_csv_both_stdout", "blur_wide2M",
    "equalize_wide2M", "env_xdgcache_proc", "pfm_huge_values", "kdir_broken_hist", "newline_name", "chunk_1e99",
    "batch_folder_symlink_loop", "merge_hist_bom", "dash_baseline_status_100k", "pam_maxval0",
    "dashboard_list_no_icd", "help_exit_table_histogram", "ok_gray.png", "ok_g4_tiff", "ok_jpeg_tiff",
    "special_histogram_fifo.png", "special_histogram_loop_a.png", "special_histogram_dir.png",
    "special_merge_fifo.csv", "num_histogram_bins_1e99", "num_scan_count_-1",
} | {"cut_half_" + f for f in FORMATS}
for c in CASES:
    c["quick"] = c["name"] in QUICK
assert all(any(c["name"] == q for c in CASES) for q in QUICK), [q for q in QUICK if not any(c["name"] == q for c in CASES)]
