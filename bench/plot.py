#!/usr/bin/env python3
# Renders blake2simd_bench's CSV as a throughput-vs-message-size chart (PNG, log x axis).
# SPDX-License-Identifier: Apache-2.0
"""Usage: plot.py RESULTS.csv CHART.png

Needs matplotlib (Debian: apt install python3-matplotlib). Exits 3 when it is missing, so that a
caller can retry with another interpreter (/usr/bin/python3 has Debian's matplotlib even when a
different python3 comes first in PATH).
"""
import csv
import sys
from collections import defaultdict

EXIT_NO_MATPLOTLIB = 3

PANELS = [
    ("digest", "Unkeyed BLAKE2b-512"),
    ("keyed, new key", "Keyed BLAKE2b-512, key given per message"),
    ("keyed, same key", "Keyed BLAKE2b-512, key set once"),
]


def size_label(size):
    if size >= 1 << 20 and size % (1 << 20) == 0:
        return f"{size >> 20} MiB"
    if size >= 1024 and size % 1024 == 0:
        return f"{size >> 10} KiB"
    return f"{size} B"


def read_series(csv_path):
    """Returns {operation: {(label, kernel): [(size, mb_per_s), ...]}} in file order."""
    series = defaultdict(dict)
    with open(csv_path, newline="") as handle:
        for row in csv.DictReader(handle):
            key = (row["implementation"], row["kernel"])
            points = series[row["operation"]].setdefault(key, [])
            points.append((int(row["size_bytes"]), float(row["mb_per_s"])))
    return series


def family(label, kernel):
    """Rows of the same code path share a colour in every panel."""
    if label.startswith("OpenSSL default"):
        return "openssl-default"
    if label.startswith("blake2simd"):
        return "blake2simd-auto" if label.endswith("auto") else f"blake2simd-{kernel}"
    return label.split()[0]


def line_style(label, colour):
    # The baseline is drawn black and dashed so every other line reads against it.
    if label.startswith("OpenSSL default"):
        return {"color": "black", "linestyle": "--", "linewidth": 2.0}
    if label.startswith("blake2simd"):
        return {"color": colour, "linewidth": 2.4 if label.endswith("auto") else 1.2}
    return {"color": colour, "linestyle": ":", "linewidth": 1.6}


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"plot.py: matplotlib is not installed for {sys.executable}", file=sys.stderr)
        return EXIT_NO_MATPLOTLIB

    csv_path, png_path = argv[1], argv[2]
    series = read_series(csv_path)
    panels = [(op, title) for op, title in PANELS if op in series]
    if not panels:
        print(f"plot.py: no rows in {csv_path}", file=sys.stderr)
        return 1

    families = []
    for operation, _ in panels:
        for label, kernel in series[operation]:
            if family(label, kernel) not in families:
                families.append(family(label, kernel))
    palette = plt.get_cmap("tab10").colors
    colours = {name: palette[i % len(palette)] for i, name in enumerate(families)}

    figure, axes = plt.subplots(1, len(panels), figsize=(7 * len(panels), 6), squeeze=False)
    for axis, (operation, title) in zip(axes[0], panels):
        sizes = set()
        for (label, kernel), points in series[operation].items():
            xs = [size for size, _ in points]
            ys = [speed for _, speed in points]
            sizes.update(xs)
            name = label if kernel in ("-", "") else f"{label} [{kernel}]"
            style = line_style(label, colours[family(label, kernel)])
            axis.plot(xs, ys, marker="o", markersize=3, label=name, **style)
        ordered = sorted(sizes)
        axis.set_xscale("log", base=2)
        axis.set_xticks(ordered)
        axis.set_xticklabels([size_label(s) for s in ordered])
        axis.set_xlabel("message size")
        axis.set_ylabel("MB/s (10^6 bytes/s), median")
        axis.set_ylim(bottom=0)
        axis.set_title(title)
        axis.grid(True, which="major", alpha=0.3)
        axis.legend(fontsize=7, loc="lower right")
    figure.suptitle("BLAKE2b-512 throughput vs message size (blake2simd_bench)")
    figure.tight_layout()
    figure.savefig(png_path, dpi=110)
    print(f"plot.py: wrote {png_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
