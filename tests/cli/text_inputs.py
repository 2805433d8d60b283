#!/usr/bin/env python3
"""Hostile text inputs for the CLI cases (tests/cli/cases/textinputs.cmake), made at test time:
   text_inputs.py KIND OUT [ARG...]
   nested-yml|nested-json|nested-xml|nested-block OUT LEVELS   a FileStorage file nested LEVELS deep
   codebook OUT K DIM [VALUE]      a YAML codebook of K words of DIM floats (VALUE: each, e.g. .Nan)
   histogram-table OUT ROWS [WIDTH [COUNT]]   a histogram batch table of ROWS verified images
   joint-table OUT MI              a joint batch table of one image whose mi cell is MI
   words OUT IMAGES                a bow histograms table (raw counts, K 2) of IMAGES images
"""
import sys

kind, out = sys.argv[1], sys.argv[2]
args = sys.argv[3:]
HEAD = ["file", "status", "detail", "width", "height", "channels", "depth"]


def write(text, mode="w"):
    with open(out, mode) as f:
        f.write(text)


if kind == "nested-yml":
    n = int(args[0])
    write("%YAML:1.0\n---\nvocabulary: " + "[" * n + "]" * n + "\n")
elif kind == "nested-json":
    n = int(args[0])
    write('{"vocabulary": ' + '{"a": ' * n + "1" + "}" * n + "}\n")
elif kind == "nested-xml":
    n = int(args[0])
    write('<?xml version="1.0"?>\n<opencv_storage>' + "<a>" * n + "</a>" * n
          + "</opencv_storage>\n")
elif kind == "nested-block":
    n = int(args[0])
    write("%YAML:1.0\n---\nvocabulary:\n  " + "- " * n + "1\n")
elif kind == "codebook":
    k, dim = int(args[0]), int(args[1])
    value = args[2] if len(args) > 2 else None
    data = [value if value else "%d." % ((i * 7) % 5) for i in range(k * dim)]
    write("%%YAML:1.0\n---\nvocabulary: !!opencv-matrix\n   rows: %d\n   cols: %d\n   dt: f\n"
          "   data: [ %s ]\n" % (k, dim, ", ".join(data)))
elif kind == "histogram-table":
    rows = int(args[0])
    width = args[1] if len(args) > 1 else "4"
    count = args[2] if len(args) > 2 else "0"
    with open(out, "w") as f:
        f.write(",".join(HEAD + ["histogram"] + ["b%d" % b for b in range(256)]) + "\n")
        tail = "," + ",".join([count] + ["0"] * 255) + "\n"
        for r in range(rows):
            f.write("img-%07d.png,verified,,%s,4,1,8,gray" % (r, width) + tail)
elif kind == "joint-table":
    cols = HEAD + ["a", "b", "bins", "counted", "left_out", "h_a", "h_b", "h_ab", "mi", "nmi"]
    write(",".join(cols) + "\nx.png,verified,,4,4,3,8,r,g,256x256,16,0,1,1,1,%s,1\n" % args[0])
elif kind == "words":
    n = int(args[0])
    with open(out, "w") as f:
        f.write("file,descriptors,status,weighting,w0,w1\n")
        for i in range(n):
            f.write("i%06d.png,3,ok,none,%d,%d\n" % (i, i % 4, 3 - i % 4))
else:
    sys.exit("text_inputs.py: unknown kind " + kind)
