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

OPERATIONS = [
    ("digest", "unkeyed"),
    ("keyed, new key", "keyed, key given per message"),
    ("keyed, same key", "keyed, key set once"),
]
ALGORITHMS = ["BLAKE2b-512", "BLAKE2bp-512", "BLAKE2s-256", "BLAKE2sp-256"]
# OpenSSL has no tree modes: its serial rows are the baseline of both panels of their family.
TREE_FORM = {"BLAKE2b-512": "BLAKE2bp-512", "BLAKE2s-256": "BLAKE2sp-256"}
# CSVs written before the algorithm column existed hold BLAKE2b-512 rows only.
DEFAULT_ALGORITHM = "BLAKE2b-512"


def size_label(size):
    if size >= 1 << 20 and size % (1 << 20) == 0:
        return f"{size >> 20} MiB"
    if size >= 1024 and size % 1024 == 0:
        return f"{size >> 10} KiB"
    return f"{size} B"


def read_series(csv_path):
    """Returns {(algorithm, operation): {(label, kernel): [(size, mb_per_s), ...]}} in file order.

    OpenSSL's default BLAKE2b and BLAKE2s rows, the baselines of the ratios, are also drawn in the
    BLAKE2bp and BLAKE2sp panels, since OpenSSL has neither.
    """
    series = defaultdict(dict)
    with open(csv_path, newline="") as handle:
        for row in csv.DictReader(handle):
            key = (row["implementation"], row["kernel"])
            point = (int(row["size_bytes"]), float(row["mb_per_s"]))
            algorithm = row.get("algorithm") or DEFAULT_ALGORITHM
            panels = [algorithm]
            if key[0].startswith("OpenSSL default") and algorithm in TREE_FORM:
                panels = [algorithm, TREE_FORM[algorithm]]
            for panel in panels:
                series[(panel, row["operation"])].setdefault(key, []).append(point)
    return series


def has_own_rows(points_by_row):
    return any(not label.startswith("OpenSSL default") for label, _ in points_by_row)


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
    operations = [
        (op, words)
        for op, words in OPERATIONS
        if any(has_own_rows(series.get((a, op), {})) for a in ALGORITHMS)
    ]
    algorithms = [
        a for a in ALGORITHMS if any(has_own_rows(series.get((a, op), {})) for op, _ in OPERATIONS)
    ]
    if not operations or not algorithms:
        print(f"plot.py: no rows in {csv_path}", file=sys.stderr)
        return 1

    families = []
    for key in series:
        for label, kernel in series[key]:
            if family(label, kernel) not in families:
                families.append(family(label, kernel))
    palette = plt.get_cmap("tab10").colors
    colours = {name: palette[i % len(palette)] for i, name in enumerate(families)}

    figure, axes = plt.subplots(
        len(algorithms),
        len(operations),
        figsize=(7 * len(operations), 6 * len(algorithms)),
        squeeze=False,
    )
    for row_axes, algorithm in zip(axes, algorithms):
        for axis, (operation, words) in zip(row_axes, operations):
            draw_panel(axis, series.get((algorithm, operation), {}), colours,
                       f"{algorithm}, {words}")
    figure.suptitle(
        "Throughput vs message size (blake2simd_bench); dashed: OpenSSL's default provider "
        "(BLAKE2b-512 or BLAKE2s-256), the baseline of the ratios"
    )
    figure.tight_layout(rect=(0, 0, 1, 0.97))  # room for the suptitle above the top row
    figure.savefig(png_path, dpi=110)
    print(f"plot.py: wrote {png_path}")
    return 0


def draw_panel(axis, points_by_row, colours, title):
    sizes = set()
    for (label, kernel), points in points_by_row.items():
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
    axis.legend(fontsize=7, loc="best")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
