#!/usr/bin/env python3
# Docs and comments that stay true: every repository path, CMake function and C++ symbol named in
# README.md, docs/ (with the man pages), the folder READMEs or a code comment exists, and kernel
# names are spelled as string literals only in kernels/registry.hpp and kernels/CMakeLists.txt.
# SPDX-License-Identifier: Apache-2.0
#
# Usage: check_references.py SOURCE_DIR [--list]   (--list prints every stale reference found)
#        check_references.py --control             both checks flag a small tree that names a
#                                                  missing file, CMake function and symbol and
#                                                  spells a kernel name (negative control)
#
# What counts as a reference (pragmatic, so prose stays free):
# - a backticked span that looks like a repository path (`kernels/registry.hpp`, `once.hpp`,
#   `provider/ossl_param.*`): it must exist, relative to the naming file, the root, or (a bare
#   file name) anywhere in the tree;
# - a backticked `b2_add_evp_test()`: a function or macro some .cmake / CMakeLists.txt defines;
# - a backticked `registry::row_of`, `reference_kernel_works()` or lower-case name with
#   underscores, and in a comment the same spellings without backticks: every part must be a
#   word of some source file's code (comments removed), unless it is a name we only talk about
#   (kNotOurs: libc, other projects; the C++ library's std:: names);
# - a header whose comment starts "Restricted header" includes no C++ library header;
# - kernel names: see the function that finds their literals, below.
import fnmatch
import os
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from b2check import Tally, tree_files  # noqa: E402

CODE_SUFFIXES = {".cpp", ".hpp", ".c", ".h", ".inc", ".S", ".py", ".cmake", ".sh", ".in"}
C_LIKE = {".cpp", ".hpp", ".c", ".h", ".inc", ".S"}
HASH_COMMENTS = {".py", ".cmake", ".sh", ".in"}
PATH_SUFFIXES = CODE_SUFFIXES | {".md", ".txt", ".pod", ".cnf", ".json", ".map", ".csv", ".png"}
TOP_DIRS = {"provider", "kernels", "tests", "docs", "cli", "bench", "tools", "cmake", "dist",
            "vectors", ".ci"}
# Files whose text is data or generated, not prose about this tree.
SKIP_FILES = {"kernels/compress_blake2_x64.S"}

# Names the docs and comments talk about that are not ours, so no source of ours spells them
# (keep it short: a name of ours that went away must not hide here).
kNotOurs = {
    "pthread_once",  # libc: what once.hpp does not use
    "omp_get_thread_num",  # libgomp: how libb2's tree modes pick a leaf (bench/)
    "blake2b_dispatch", "blake2s_dispatch",  # libb2's internal choosers (bench/)
    "close_stdout",  # coreutils: what blake2simd-sum copies
    "libgcc_s",  # a library the module must not need
    "basic_string",  # the C++ library's, in an error text (basic_string::insert)
    "set_legacy_nid",  # OpenSSL: where libcrypto gives a digest its type (docs/semantics.md)
}
# File names that are not this tree's: OpenSSL's configuration file and headers, the official
# BLAKE2 sources and vectors (kept outside the repository), so a bare mention need not exist.
kForeignFiles = {"openssl.cnf", "core_names.h", "blake2-kat.json", "SOURCE.md", "blake2bp.c",
                 "blake2sp.c", "blake2xb.c", "blake2xs.c"}

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# A symbol-like spelling (`registry::row_of`, `row_of()`, `row_of`), in comments bare too.
SYMBOL = re.compile(r"(?<![\w./<$-])((?:~?[A-Za-z_]\w*::)+~?[A-Za-z_]\w*|[A-Za-z_]\w*\(\)|"
                    r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?![\w/.-]*[\w/])")
BACKTICKS = re.compile(r"`([^`\n]+)`")
POD_CODE = re.compile(r"[CF]<([^<>\n]+)>")  # a man page's C<code> and F<file>


def split_comments(rel: Path, text: str):
    """(code, comments) of a source file: C-like // and /* */ comments, or # comments."""
    if rel.suffix in C_LIKE:
        pattern = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
                             re.S)
    elif rel.suffix in HASH_COMMENTS or rel.name == "CMakeLists.txt":
        pattern = re.compile(r'#[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'')
    else:
        return text, ""
    code, comments = [], []
    last = 0
    for match in pattern.finditer(text):
        token = match.group(0)
        if token[0] in "\"'":
            continue  # a string literal stays code
        code.append(text[last:match.start()])
        comments.append(token + "\n")
        last = match.end()
    code.append(text[last:])
    return "".join(code), "".join(comments)


class Tree:
    def __init__(self, root: Path):
        self.root = root
        self.files = list(tree_files(root))
        self.paths = {f.as_posix() for f in self.files}
        self.dirs = {p.as_posix() for f in self.files for p in f.parents}
        self.basenames = {f.name for f in self.files}
        self.words = set()
        self.cmake_functions = set()
        self.targets = set()
        self.comments = {}  # rel -> comment text of a code file
        self.docs = []  # markdown files
        for rel in self.files:
            self.read(rel)

    def read(self, rel: Path):
        if rel.suffix in (".md", ".pod"):
            self.docs.append(rel)
            return
        if (rel.suffix not in CODE_SUFFIXES and rel.name != "CMakeLists.txt"
                or rel.as_posix() in SKIP_FILES):
            return
        text = (self.root / rel).read_text(errors="replace")
        code, comments = split_comments(rel, text)
        if rel.as_posix() != "tests/check_references.py":  # its allowlists spell no symbol
            self.words.update(WORD.findall(code))
        self.comments[rel] = comments
        if rel.suffix == ".cmake" or rel.name == "CMakeLists.txt":
            self.cmake_functions.update(
                m.lower() for m in re.findall(r"^\s*(?:function|macro)\(\s*(\w+)", code, re.M))
            # a target is a build output's path: `bench/blake2simd_bench`
            self.targets.update(f"{rel.parent.as_posix()}/{m}" for m in re.findall(
                r"add_(?:executable|library)\(\s*(\w+)", code))

    def path_exists(self, spelled: str, near: Path) -> bool:
        candidates = [spelled]
        if "/." in spelled:  # `dispatch.hpp/.cpp`: both
            stem = spelled.split("/.")[0].rsplit(".", 1)[0]
            candidates = [spelled.split("/.")[0]] + [f"{stem}.{s}" for s in spelled.split("/.")[1:]]
        return all(self.one_path_exists(c, near) for c in candidates)

    def one_path_exists(self, spelled: str, near: Path) -> bool:
        spelled = spelled.rstrip("/")
        if "/" not in spelled and (spelled in self.basenames or spelled in kForeignFiles):
            return True
        for base in (near.parent, Path(".")):
            normal = os.path.normpath((base / spelled).as_posix())
            if normal.startswith(".."):
                return True  # outside the tree (`../shared`, where present): not ours to check
            if "*" in normal:
                if any(fnmatch.fnmatchcase(p, normal) for p in self.paths):
                    return True
            elif normal in self.paths or normal in self.dirs or normal in self.targets:
                return True
        return False


def looks_like_path(span: str) -> bool:
    if re.search(r"[\s<>{}$@%=,;|\\\[\]()]", span) or span.startswith(("/", "~", "-", "http")):
        return False
    if "/" in span:
        first = span.split("/")[0]
        return first in TOP_DIRS or first in ("..", ".")
    return (Path(span.replace("*", "x")).suffix in PATH_SUFFIXES and not span.startswith(".")
            and "*" not in span)


def symbol_parts(spelling: str):
    return [p for p in re.split(r"::|\(\)|~", spelling) if p]


class Checker:
    def __init__(self, tree: Tree, tally: Tally):
        self.tree = tree
        self.tally = tally
        self.stale = []

    def expect(self, ok: bool, where: Path, what: str):
        if not ok:
            self.stale.append(f"{where}: {what}")

    def symbol(self, spelling: str, where: Path):
        if spelling.startswith("std::") or spelling.lstrip("~") in kNotOurs:
            return
        if re.fullmatch(r"b2_\w+\(\)", spelling):
            self.expect(spelling[:-2].lower() in self.tree.cmake_functions, where,
                        f"CMake function {spelling} is defined nowhere")
            return
        missing = [p for p in symbol_parts(spelling)
                   if p not in kNotOurs and p not in self.tree.words]
        self.expect(not missing, where, f"symbol {spelling}: no source spells {', '.join(missing)}")

    def span(self, span: str, where: Path):
        span = span.strip()
        if looks_like_path(span):
            self.expect(self.tree.path_exists(span, where), where, f"path {span} does not exist")
        elif SYMBOL.fullmatch(span):
            self.symbol(span, where)

    def text(self, text: str, where: Path, bare_symbols: bool):
        spans = POD_CODE.findall(text) if where.suffix == ".pod" else BACKTICKS.findall(text)
        for span in spans:
            self.span(span, where)
        if bare_symbols:
            for spelling in SYMBOL.findall(BACKTICKS.sub(" ", text)):
                self.symbol(spelling, where)

    def run(self):
        for rel in self.tree.docs:
            self.text((self.tree.root / rel).read_text(errors="replace"), rel, False)
        for rel, comments in self.tree.comments.items():
            self.text(comments, rel, True)
            if re.search(r"^// Restricted header", comments, re.M) and rel.suffix == ".hpp":
                text = (self.tree.root / rel).read_text()
                library = re.findall(r"^\s*#\s*include\s*<([^>.]+)>", text, re.M)
                self.expect(not library, rel, "calls itself a restricted header but includes "
                            + ", ".join(f"<{h}>" for h in library))


def kernel_literals(tree: Tree):
    # The kernel names (from the registry's rows) spelled outside the two files allowed to: a C++
    # or Python string literal made of kernel names only (a list of them, or one with escapes; a
    # message that mentions one in prose is no spelling), and any word of tools/
    # (blake2simd-config must not know them at all).
    registry = (tree.root / "kernels/registry.hpp").read_text()
    names = set(re.findall(r"\{KernelId::\w+,\s*\"(\w+)\"", registry))
    # (and this file, whose negative control spells two)
    allowed = {"kernels/registry.hpp", "kernels/CMakeLists.txt", "tests/check_references.py"}
    found = []
    for rel in tree.files:
        if rel.as_posix() in allowed or rel.suffix not in C_LIKE | {".py"}:
            continue
        if rel.parts[0] not in ("provider", "kernels", "tests", "cli", "tools"):
            continue  # bench/ names other libraries' entry points (libb2's "ssse3", ...)
        text = (tree.root / rel).read_text(errors="replace")
        if rel.parts[0] == "tools":
            spelled = names & set(WORD.findall(text))
            found += [f"{rel}: spells {n}" for n in sorted(spelled)]
            continue
        code, _ = split_comments(rel, text)
        for literal in re.findall(r'"((?:\\.|[^"\\\n])*)"', code):
            words = set(WORD.findall(re.sub(r"\\(x[0-9a-fA-F]+|.)", " ", literal)))
            if words and words <= names:
                found.append(f"{rel}: \"{literal}\"")
    return names, found


def control() -> int:
    tally = Tally("check_references --control")
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        (root / "kernels").mkdir()
        (root / "tests").mkdir()
        (root / "README.md").write_text(
            "See `kernels/gone.hpp`, `b2_gone()` and `registry::gone`.\n")
        (root / "kernels/registry.hpp").write_text(
            '{KernelId::ref,\n "ref",\n{KernelId::x64, "x64",\n')
        (root / "tests/t.cpp").write_text('const char* kFirst = "ref";  // registry::gone\n')
        tree = Tree(root)
        checker = Checker(tree, tally)
        checker.run()
        _, literals = kernel_literals(tree)
    print("\n".join(checker.stale + literals))
    tally.equal(len(checker.stale), 4, "the file, CMake function and both symbols are flagged")
    tally.equal(len(literals), 1, "the kernel name in a test's literal is flagged")
    return tally.finish()


def main():
    if sys.argv[1:] == ["--control"]:
        return control()
    if len(sys.argv) < 2:
        print(__doc__ or "usage: check_references.py SOURCE_DIR [--list]", file=sys.stderr)
        return 2
    tree = Tree(Path(sys.argv[1]))
    tally = Tally("check_references")
    checker = Checker(tree, tally)
    checker.run()
    tally.check(len(tree.docs) >= 10 and len(tree.comments) >= 100,
                "the tree has its docs and sources",
                f"{len(tree.docs)} docs, {len(tree.comments)} sources")
    tally.equal(checker.stale, [], "every path, CMake function and symbol named exists")
    names, literals = kernel_literals(tree)
    tally.check(len(names) >= 2, "kernel names read from kernels/registry.hpp", str(names))
    tally.equal(literals, [], "kernel names spelled as literals only in kernels/registry.hpp "
                "and kernels/CMakeLists.txt")
    if "--list" in sys.argv:
        for line in checker.stale + literals:
            print(line)
    print(f"{len(checker.stale)} stale references, {len(literals)} kernel-name literals")
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
