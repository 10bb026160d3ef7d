#!/usr/bin/env python3
"""Fails when README.md, docs/, a folder README or a comment names a file, a CMake function
(b2_*()) or a dispatch::/registry::/kernels::/cpu:: symbol that does not exist.

  check_references.py SOURCE_DIR   list every stale reference; exit 1 if there is one
  check_references.py --control    the check must flag a tree that names a missing file,
                                   CMake function and symbol (negative control)
"""
# SPDX-License-Identifier: Apache-2.0
import pathlib, re, subprocess, sys, tempfile

if sys.argv[1:] == ["--control"]:
    with tempfile.TemporaryDirectory() as tree:
        (pathlib.Path(tree) / "README.md").write_text(
            "See kernels/gone.hpp, b2_gone() and dispatch::gone().\n")
        run = subprocess.run([sys.executable, __file__, tree], capture_output=True, text=True)
        flagged = run.returncode == 1 and run.stdout.count("STALE") == 3
        print(run.stdout + ("control: flagged" if flagged else "FAIL: control not flagged"))
        sys.exit(0 if flagged else 1)

root = pathlib.Path(sys.argv[1]).resolve()
tracked = subprocess.run(["git", "-C", str(root), "ls-files"], capture_output=True,
                         text=True).stdout.split()
if not tracked:
    tracked = [str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() and "build" not in p.parts]
names = {pathlib.PurePosixPath(t).name for t in tracked}
paths = set(tracked) | {str(pathlib.PurePosixPath(t).parent) for t in tracked}
code = "\n".join((root / t).read_text(errors="replace") for t in tracked
                 if t.endswith((".cpp", ".hpp", ".inc", ".c", ".h", ".S", ".py", ".cmake", ".txt", ".sh")))
cmake = "\n".join((root / t).read_text(errors="replace") for t in tracked if t.endswith((".cmake", "CMakeLists.txt")))

FILE = re.compile(r"(?<![\w./*>-])((?:[\w.-]+/)*[\w-]+\.(?:cpp|hpp|inc|S|py|cmake|sh|pod|md))\b")
CMAKE_FN = re.compile(r"\b(b2_\w+)\(\)")
SYMBOL = re.compile(r"\b((?:dispatch|registry|kernels|cpu|skeleton)::\w+)\b")

def prose_of(path):
    text = (root / path).read_text(errors="replace")
    if path.endswith((".md", ".pod")):
        return text
    return "\n".join(m.group(0) for m in re.finditer(r"//[^\n]*|#[^\n]*|/\*.*?\*/", text, re.S))

def exists_file(ref):
    if "<" in ref or "*" in ref:
        return True
    if ref.startswith(("build/", "/", "../")) or ref in GENERATED:
        return True
    return ref in paths or pathlib.PurePosixPath(ref).name in names

# Files the build or CPack writes, never tracked.
GENERATED = {"CPackConfig.cmake"}

stale = []
for t in tracked:
    if not t.endswith((".md", ".pod", ".cpp", ".hpp", ".inc", ".py", ".cmake", "CMakeLists.txt", ".sh")):
        continue
    if t.startswith(("bench/results/", "vectors/", "dist/", ".ci/")) or t.endswith(".S"):
        continue
    text = prose_of(t)
    for m in FILE.finditer(text):
        if not exists_file(m.group(1)):
            stale.append(f"{t}: names the file {m.group(1)}")
    for m in CMAKE_FN.finditer(text):
        if not re.search(r"(function|macro)\(\s*" + re.escape(m.group(1)) + r"\b", cmake):
            stale.append(f"{t}: names the CMake function {m.group(1)}()")
    for m in SYMBOL.finditer(text):
        symbol = m.group(1).split("::")[1]
        if not re.search(r"\b" + re.escape(symbol) + r"\b", code.replace(text, "")):
            stale.append(f"{t}: names the symbol {m.group(1)}")
for line in sorted(set(stale)):
    print("STALE " + line)
print(f"check_references: {len(set(stale))} stale references")
sys.exit(1 if stale else 0)
