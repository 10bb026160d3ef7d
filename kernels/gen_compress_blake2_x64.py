#!/usr/bin/env python3
# Generates kernels/compress_blake2_x64.S, the scalar x86-64 BLAKE2b and BLAKE2s compression kernels.
# SPDX-License-Identifier: Apache-2.0
"""Emit hand-scheduled, fully unrolled scalar BLAKE2b and BLAKE2s kernels for baseline x86-64.

Why a generator: the speed of this kernel comes from instruction order and register
assignment, which are tedious and error-prone to maintain by hand.

* The four G functions of each half-round are interleaved step by step: four independent
  dependency chains of 12 one-cycle operations per half-round (the latency bound).
* Rotates run on only two ports, so two of the four G's run one step behind the other two
  and never rotate in the same step (SKEW_STEPS).
* Message words are added to `a` a step or two before `a` is needed (`a + m + b` becomes
  `(a + m) + b`), which takes the message add off the critical path (LEAD_STEPS).
* The 16 working words compete for the 15 usable general-purpose registers. A small
  allocator keeps 15 words in registers and spills by furthest next use (Belady), then
  hoists every reload as far up as the register it lands in allows, so the load completes
  long before its value is needed.
* The block is first copied to the red zone below %rsp, so the rounds address message words
  relative to %rsp and need no pointer register. The sigma schedule is resolved here: the
  kernel has no tables and no relocations.

BLAKE2s is the same program on 32-bit words (VARIANTS): ten rounds, rotations 16, 12, 8, 7,
64-byte blocks, a 64-bit counter in two words. One BLAKE2s state gives the 128-bit kernels a
single chain of 28 cycles per round (a row per register); here the four G's keep four ALUs
busy instead, which measured faster than SSSE3/AVX even on Zen 3 (1-cycle SIMD latency).

The block loop is inside the kernel. Only baseline x86-64 is used (general-purpose
registers, plus SSE2 moves for the block copy), so every x86-64 CPU runs it.

Usage: gen_compress_blake2_x64.py [--output PATH]   write the kernel (default: next to this script)
       gen_compress_blake2_x64.py --check [PATH]    exit 1 if PATH differs from what would be written
"""

import argparse
import pathlib
import sys

IV = [
    0x6A09E667F3BCC908, 0xBB67AE8584CAA73B, 0x3C6EF372FE94F82B, 0xA54FF53A5F1D36F1,
    0x510E527FADE682D1, 0x9B05688C2B3E6C1F, 0x1F83D9ABFB41BD6B, 0x5BE0CD19137E2179,
]

SIGMA = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
    [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
    [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
    [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
    [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
    [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
    [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
    [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
    [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
]
BLAKE2S_IV = [0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
              0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19]


class Variant:
    """What differs between BLAKE2b and BLAKE2s: word size, rounds, rotations, layout."""

    def __init__(self, symbol, word_bytes, rounds, rotations, iv, label):
        self.symbol, self.word_bytes, self.rounds = symbol, word_bytes, rounds
        self.rotations, self.iv, self.label = rotations, iv, label
        self.block_bytes = 16 * word_bytes
        # Offsets in the state: h[8], t[2], f[2] words.
        self.state_h, self.state_t, self.state_f = 0, 8 * word_bytes, 10 * word_bytes


VARIANTS = [
    Variant("blake2simd_blake2b_compress_x64", 8, 12, (32, 24, 16, 63), IV, "blake2b"),
    # kernels::blake2s_compress_x64 of kernel.hpp, which declares it without an asm
    # label: its (LP64) mangled name.
    Variant("_ZN10blake2simd7kernels20blake2s_compress_x64EPNS_12Blake2sStateEPKhmj", 4, 10,
            (16, 12, 8, 7), BLAKE2S_IV, "blake2s"),
]
# The variant being generated (generate() sets it for each function in turn).
K = VARIANTS[0]

# (a, b, c, d) word indices of the column step and the diagonal step. Word v[i] (i < 4) is
# the `a` of G number i in both steps, which is what lets the next half-round's message add
# be issued early.
COLUMN_GS = [(0, 4, 8, 12), (1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15)]
DIAGONAL_GS = [(0, 5, 10, 15), (1, 6, 11, 12), (2, 7, 8, 13), (3, 4, 9, 14)]

# Steps of one G as in-place two-operand instructions, numbered 1..13; number 7 is left free
# because the message add of the second half moves (see LEAD_STEPS).
# The rotations are the variant's, by position ("r0".."r3").
G_STEPS = [
    (1, "add", "a", "b"), (2, "xor", "d", "a"), (3, "ror", "d", "r0"), (4, "add", "c", "d"),
    (5, "xor", "b", "c"), (6, "ror", "b", "r1"), (8, "add", "a", "b"), (9, "xor", "d", "a"),
    (10, "ror", "d", "r2"), (11, "add", "c", "d"), (12, "xor", "b", "c"), (13, "ror", "b", "r3"),
]
# A message add for `a` is issued this many steps before the step that consumes `a`: the
# second-half add (`y`) before step 8, the next half-round's add (`x`) before its step 1.
# Measured on the development Xeon (Sapphire Rapids class): (2, 1) is about 3% faster than (4, 4) and (0, 0).
# BLAKE2s, measured on a Zen 3 EPYC: (3, 1) is about 3% faster than (2, 1) and 5% faster than
# (0, 0); (3, 2), (4, 2) and (5, 2) tie with it.
LEAD_STEPS = {"blake2b": (2, 1), "blake2s": (3, 1)}
# The y add must follow step 2 (which reads `a` after step 1); the x add must follow step 9.
assert all(0 <= y <= 6 and 0 <= x <= 5 for y, x in LEAD_STEPS.values())

# Only two ports execute rotates, so four G's rotating in the same step would take two
# cycles. Two of the G's therefore run SKEW_STEPS behind the other two. The pairs follow the
# words across half-rounds: a G's critical input is its `b`, produced by G number (i + 1) % 4
# of a column step and by G number (i - 1) % 4 of a diagonal step, so the late pair is
# {2, 3} in column steps and {1, 2} in diagonal steps. Measured: about 2% over no skew.
SKEW_STEPS = 1
LATE_COLUMN_GS = {2, 3}
LATE_DIAGONAL_GS = {1, 2}

# Every usable general-purpose register; %rsp is the frame base.
REGISTERS = ["rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp",
             "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"]
CALLEE_SAVED = ["rbx", "rbp", "r12", "r13", "r14", "r15"]

# Frame, relative to %rsp after the prologue. The message copy lives in the red zone
# (the 128 bytes below %rsp that a leaf function may use), so that it and the spill slots
# are both reachable with one-byte displacements.
MESSAGE_BASE = -128
# The 32-bit names of REGISTERS, for BLAKE2s's words.
REGISTERS_32 = {"rax": "eax", "rbx": "ebx", "rcx": "ecx", "rdx": "edx", "rsi": "esi",
                "rdi": "edi", "rbp": "ebp", **{f"r{n}": f"r{n}d" for n in range(8, 16)}}
# Values that are pointers or counts (64 bits) in both variants; every other value is a word.
POINTER_VALUES = {"state", "blocks", "remaining"}
SLOTS = {f"v{i}": 8 * i for i in range(16)}
SLOTS.update({"state": 128, "blocks": 136, "remaining": 144, "increment": 152,
              "v14_init": 160, "v15_init": 168, "t0": 176, "t1": 184})
FRAME_BYTES = 200  # a multiple of 16 plus 8: the six pushes leave %rsp 8 mod 16
assert (FRAME_BYTES + 8 * len(CALLEE_SAVED) + 8) % 16 == 0
assert FRAME_BYTES >= max(SLOTS.values()) + 8


# ---------------------------------------------------------------------------------------
# Virtual instructions: operands name values; the allocator maps values to registers.


class Val:
    def __init__(self, name, access):
        assert access in ("r", "w", "rw")
        self.name, self.access = name, access


class Mem:
    """disp(base): base is "rsp" or the name of a value holding a pointer."""

    def __init__(self, base, disp):
        self.base, self.disp = base, disp


class Imm:
    def __init__(self, value):
        self.value = value


class Xmm:
    def __init__(self, number):
        self.number = number


class Insn:
    """One instruction in Intel operand order (destination first)."""

    def __init__(self, mnemonic, *operands, comment=None):
        self.mnemonic, self.operands, self.comment = mnemonic, list(operands), comment

    def values(self):
        for op in self.operands:
            if isinstance(op, Val):
                yield op.name, op.access
            elif isinstance(op, Mem) and op.base != "rsp":
                yield op.base, "r"


def slot(name):
    return Mem("rsp", SLOTS[name])


def message_word(index):
    return Mem("rsp", MESSAGE_BASE + K.word_bytes * index)


def r(name):
    return Val(name, "r")


def rw(name):
    return Val(name, "rw")


def w(name):
    return Val(name, "w")


def v(i):
    return f"v{i}"


# ---------------------------------------------------------------------------------------
# The block body as virtual instructions.


def g_function_steps(g_words, message_y):
    """(step, Insn) for one G; `message_y` is added to `a` LEAD_STEPS_Y before step 8."""
    a, b, c, d = (v(i) for i in g_words)
    names = {"a": a, "b": b, "c": c, "d": d}
    steps = []
    for step, mnemonic, dst, src in G_STEPS:
        if src.startswith("r"):
            source = Imm(K.rotations[int(src[1])])
        else:
            source = r(names[src])
        steps.append((step, Insn(mnemonic, rw(names[dst]), source)))
    lead_y = LEAD_STEPS[K.label][0]
    steps.append((8 - lead_y, Insn("add", rw(a), message_word(message_y))))
    return steps


def half_round(round_index, diagonal, next_message_x):
    """Four interleaved G's; `next_message_x[i]` is added to v[i] for the next half-round."""
    sigma = SIGMA[round_index % 10]
    gs = DIAGONAL_GS if diagonal else COLUMN_GS
    first = 8 if diagonal else 0
    tagged = []
    for g, words in enumerate(gs):
        message_y = sigma[first + 2 * g + 1]
        late = g in (LATE_DIAGONAL_GS if diagonal else LATE_COLUMN_GS)
        skew = SKEW_STEPS if late else 0
        for step, insn in g_function_steps(words, message_y):
            tagged.append((step + skew, g, insn))
        if next_message_x is not None:
            # `a` is last read at step 9; the next half-round reads it at its step 1 (= 14).
            add = Insn("add", rw(v(g)), message_word(next_message_x[g]))
            tagged.append((14 - LEAD_STEPS[K.label][1] + skew, g, add))
    # By step, then by G; the sort is stable, so a message add that shares a step number with
    # an ALU op of its G comes after it (that op may still read the old `a`).
    tagged.sort(key=lambda item: (item[0], item[1]))
    return [insn for _, _, insn in tagged]


def first_message_x(round_index, diagonal):
    sigma = SIGMA[round_index % 10]
    first = 8 if diagonal else 0
    return [sigma[first + 2 * g] for g in range(4)]


def block_body():
    body = []
    # Copy the block to the red zone; the source may have any alignment.
    copies = K.block_bytes // 16
    for k in range(copies):
        body.append(Insn("movdqu", Xmm(k), Mem("blocks", 16 * k)))
    for k in range(copies):
        body.append(Insn("movdqa", Mem("rsp", MESSAGE_BASE + 16 * k), Xmm(k)))
    body.append(Insn("addq", slot("blocks"), Imm(K.block_bytes), comment="next block"))
    # Double-word counter += increment, kept in the state as the contract requires.
    body += [
        Insn("mov", w("t0"), Mem("state", K.state_t)),
        Insn("mov", w("t1"), Mem("state", K.state_t + K.word_bytes)),
        Insn("add", rw("t0"), slot("increment")),
        Insn("adc", rw("t1"), Imm(0)),
        Insn("mov", Mem("state", K.state_t), r("t0")),
        Insn("mov", Mem("state", K.state_t + K.word_bytes), r("t1")),
    ]
    # Working vector; the first message adds follow each `a` directly.
    x = first_message_x(0, diagonal=False)
    for i in range(8):
        body.append(Insn("mov", w(v(i)), Mem("state", K.state_h + K.word_bytes * i)))
        if i < 4:
            body.append(Insn("add", rw(v(i)), message_word(x[i])))
    for i in range(8, 12):
        body.append(Insn("movabs", w(v(i)), Imm(K.iv[i - 8])))
    body += [
        Insn("movabs", w(v(12)), Imm(K.iv[4])),
        Insn("xor", rw(v(12)), r("t0")),
        Insn("movabs", w(v(13)), Imm(K.iv[5])),
        Insn("xor", rw(v(13)), r("t1")),
        Insn("mov", w(v(14)), slot("v14_init")),
        Insn("mov", w(v(15)), slot("v15_init")),
    ]
    for round_index in range(K.rounds):
        body.append(f"round {round_index}")
        body += half_round(round_index, False, first_message_x(round_index, True))
        last = round_index == K.rounds - 1
        next_x = None if last else first_message_x(round_index + 1, False)
        body += half_round(round_index, True, next_x)
    body.append("h ^= v[0..7] ^ v[8..15]")
    for i in range(8):
        body += [
            Insn("xor", rw(v(i)), r(v(i + 8))),
            Insn("xor", rw(v(i)), Mem("state", K.state_h + K.word_bytes * i)),
            Insn("mov", Mem("state", K.state_h + K.word_bytes * i), r(v(i))),
        ]
    return body


# ---------------------------------------------------------------------------------------
# Register allocation: furthest-next-use spilling over one straight-line block body.

INFINITY = float("inf")


class Emitted:
    """A concrete instruction plus what the reload hoister must not move it across."""

    def __init__(self, text, registers=(), slots_read=(), slots_written=(), kind="op"):
        self.text, self.kind = text, kind
        self.registers, self.slots_read, self.slots_written = (
            set(registers), set(slots_read), set(slots_written))


class Allocator:
    """Belady-style register allocation over one straight-line body (see allocate)."""

    def __init__(self, insns):
        self.accesses = {}  # value -> [(position, access)]
        for pos, insn in enumerate(insns):
            for name, access in insn.values():
                self.accesses.setdefault(name, []).append((pos, access))
        self.location = {}  # value -> register
        self.holder = {}  # register -> value
        self.dirty = set()
        self.out = []
        self.reloads = 0

    def next_read(self, name, pos):
        """Position of the next read of `name` after `pos`, or INFINITY if it is dead."""
        for p, access in self.accesses[name]:
            if p > pos:
                return p if "r" in access else INFINITY
        return INFINITY

    def evict(self, reg):
        name = self.holder.pop(reg)
        del self.location[name]
        if name in self.dirty:
            self.dirty.discard(name)
            self.out.append(Emitted(f"{move_of(name)} %{register_of(name, reg)}, "
                                    f"{format_mem(slot(name), {})}", [reg],
                                    slots_written=[name], kind="spill"))

    def take_register(self, pos, pinned):
        free = [reg for reg in REGISTERS if reg not in self.holder]
        if free:
            return free[0]
        candidates = [reg for reg in REGISTERS if self.holder[reg] not in pinned]
        # Furthest next read first; among equals a clean value (no store needed).
        victim = max(candidates, key=lambda reg: (self.next_read(self.holder[reg], pos),
                                                  self.holder[reg] not in self.dirty))
        self.evict(victim)
        return victim

    def load_operands(self, insn, pos, pinned):
        for name, access in insn.values():
            if name in self.location:
                continue
            reg = self.take_register(pos, pinned)
            self.location[name], self.holder[reg] = reg, name
            if "r" in access:
                assert name in SLOTS, name
                self.out.append(Emitted(f"{move_of(name)} {format_mem(slot(name), {})}, "
                                        f"%{register_of(name, reg)}", [reg],
                                        slots_read=[name], kind="reload"))
                self.reloads += 1

    def emit(self, insn, pos):
        pinned = {name for name, _ in insn.values()}
        self.load_operands(insn, pos, pinned)
        for name, access in insn.values():
            if "w" in access:
                self.dirty.add(name)
        self.out.append(Emitted(format_insn(insn, self.location),
                                [self.location[name] for name in pinned],
                                slots_read=rsp_slots(insn.operands[1:]),
                                slots_written=rsp_slots(insn.operands[:1])))
        for name in pinned:
            if self.next_read(name, pos) == INFINITY:
                del self.holder[self.location.pop(name)]
                self.dirty.discard(name)


def allocate(body):
    """Maps values to REGISTERS; returns the emitted body and its number of reloads."""
    allocator = Allocator([item for item in body if isinstance(item, Insn)])
    position = 0
    for item in body:
        if isinstance(item, str):
            allocator.out.append(Emitted(f"/* {item} */", kind="comment"))
            continue
        allocator.emit(item, position)
        position += 1
    assert not allocator.holder, allocator.holder
    return hoist_reloads(allocator.out), allocator.reloads


def rsp_slots(operands):
    disps = {op.disp for op in operands if isinstance(op, Mem) and op.base == "rsp"}
    return [name for name, disp in SLOTS.items() if disp in disps]


def hoist_reloads(out):
    """Moves each reload (with the spill store that frees its register) up to just after the
    previous use of that register, so the load is in flight long before it is needed."""
    result = []
    for item in out:
        result.append(item)
        if item.kind != "reload":
            continue
        group = [result.pop()]
        if result and result[-1].kind == "spill" and result[-1].registers == item.registers:
            group.insert(0, result.pop())
        touched = set().union(*(g.slots_read | g.slots_written for g in group))
        stop = len(result)
        while stop > 0:
            prev = result[stop - 1]
            if prev.registers & item.registers:
                break
            if (prev.slots_written | prev.slots_read) & touched:
                break
            stop -= 1
        result[stop:stop] = group
    return result


# ---------------------------------------------------------------------------------------
# AT&T syntax output.


def is_word(name):
    return name not in POINTER_VALUES


def register_of(name, reg):
    """The spelling of register `reg` holding value `name`: 32-bit for a BLAKE2s word."""
    return REGISTERS_32[reg] if K.word_bytes == 4 and is_word(name) else reg


def move_of(name):
    return "movl" if K.word_bytes == 4 and is_word(name) else "movq"


def format_mem(mem, location):
    base = "rsp" if mem.base == "rsp" else location[mem.base]
    return f"{mem.disp}(%{base})" if mem.disp else f"(%{base})"


def format_operand(op, location):
    if isinstance(op, Val):
        return f"%{register_of(op.name, location[op.name])}"
    if isinstance(op, Mem):
        return format_mem(op, location)
    if isinstance(op, Imm):
        return f"${op.value:#x}" if op.value > 255 else f"${op.value}"
    if isinstance(op, Xmm):
        return f"%xmm{op.number}"
    raise TypeError(op)


def format_insn(insn, location):
    mnemonic = insn.mnemonic
    if mnemonic in ("add", "xor", "ror", "adc", "mov", "movabs"):
        if K.word_bytes == 4:
            # A 32-bit immediate needs no movabs (which has no 32-bit form).
            mnemonic = ("mov" if mnemonic == "movabs" else mnemonic) + "l"
        else:
            mnemonic += "q"
    operands = ", ".join(format_operand(op, location) for op in reversed(insn.operands))
    comment = f"  /* {insn.comment} */" if insn.comment else ""
    return f"{mnemonic} {operands}{comment}"


# ---------------------------------------------------------------------------------------
# The function around the block loop.


def prologue(return_label):
    lines = ["_CET_ENDBR", "testq %rdx, %rdx", f"jz {return_label}"]
    offset = 8
    for reg in CALLEE_SAVED:
        offset += 8
        lines += [f"pushq %{reg}", f".cfi_adjust_cfa_offset 8", f".cfi_offset %{reg}, -{offset}"]
    lines += [f"subq ${FRAME_BYTES}, %rsp", f".cfi_adjust_cfa_offset {FRAME_BYTES}"]
    for reg, name in (("rdi", "state"), ("rsi", "blocks"), ("rdx", "remaining"),
                      ("rcx", "increment")):
        lines.append(f"{move_of(name)} %{register_of(name, reg)}, {SLOTS[name]}(%rsp)")
    # The flags are the same for every block: fold them into v14/v15 once.
    suffix, rax = ("l", "eax") if K.word_bytes == 4 else ("q", "rax")
    for word, flag in ((14, 0), (15, 1)):
        load = "movl" if K.word_bytes == 4 else "movabsq"
        lines += [f"{load} ${K.iv[word - 8]:#x}, %{rax}",
                  f"xor{suffix} {K.state_f + K.word_bytes * flag}(%rdi), %{rax}",
                  f"mov{suffix} %{rax}, {SLOTS[f'v{word}_init']}(%rsp)"]
    return lines


def epilogue():
    lines = [f"addq ${FRAME_BYTES}, %rsp", f".cfi_adjust_cfa_offset -{FRAME_BYTES}"]
    for reg in reversed(CALLEE_SAVED):
        lines += [f"popq %{reg}", ".cfi_adjust_cfa_offset -8", f".cfi_restore %{reg}"]
    return lines


HEADER = f"""\
/* Scalar BLAKE2b and BLAKE2s compression for baseline x86-64 (System V, ELF). */
/* SPDX-License-Identifier: Apache-2.0 */
/* GENERATED by kernels/gen_compress_blake2_x64.py -- edit the generator, not this file. */
/*
 * void {VARIANTS[0].symbol}(Blake2bState* state, const uint8_t* blocks,
 *               size_t block_count, uint64_t counter_increment);
 * state: h[8] at 0, t[2] at 64, f[2] at 80.
 * void kernels::blake2s_compress_x64(Blake2sState* state, const uint8_t* blocks,
 *               size_t block_count, uint32_t counter_increment);
 * state: h[8] at 0, t[2] at 32, f[2] at 40.
 * Both use only baseline x86-64 (GPRs and SSE2 moves).
 */

#if defined(__x86_64__) && defined(__ELF__)

#if defined(__CET__) && (__CET__ & 1)
#define _CET_ENDBR endbr64
#else
#define _CET_ENDBR
#endif
"""

FOOTER = """\
#if defined(__CET__)
/* Declare IBT/SHSTK compatibility so this object does not switch CET off for the module. */
        .section .note.gnu.property, "a"
        .p2align 3
        .long 4, 16, 5
        .asciz "GNU"
        .long 0xc0000002, 4, __CET__
        .p2align 3
#endif

#endif /* __x86_64__ && __ELF__ */

#if defined(__ELF__)
/* This object needs no executable stack (without the note, the linker would assume it does). */
        .section .note.GNU-stack, "", @progbits
#endif
"""


def generate_function(variant, emit, lines):
    global K
    K = variant
    body, reload_count = allocate(block_body())
    symbol, next_block = variant.symbol, f".Lnext_{variant.label}_block"
    emit(f".globl {symbol}")
    emit(f".hidden {symbol}")
    emit(f".type {symbol}, @function")
    emit(".p2align 6")
    lines.append(f"{symbol}:")
    emit(".cfi_startproc")
    for text in prologue(f".Lreturn_without_frame_{variant.label}"):
        emit(text)
    emit(".p2align 4")
    lines.append(f"{next_block}:")
    spills = sum(1 for item in body if item.kind == "spill")
    emit(f"/* one {variant.label} block: {reload_count} reloads, {spills} spill stores */")
    for item in body:
        emit(item.text)
    emit(f"subq $1, {SLOTS['remaining']}(%rsp)")
    emit(f"jnz {next_block}")
    for text in epilogue():
        emit(text)
    lines.append(f".Lreturn_without_frame_{variant.label}:")
    emit("ret")
    emit(".cfi_endproc")
    emit(f".size {symbol}, .-{symbol}")
    lines.append("")


def generate():
    lines = [HEADER]
    indent = " " * 8

    def emit(text):
        lines.append(text if text.endswith(":") or text.startswith("/*") else indent + text)

    emit(".text")
    for variant in VARIANTS:
        generate_function(variant, emit, lines)
    lines.append(FOOTER)
    return "\n".join(lines)


def main():
    default = pathlib.Path(__file__).resolve().with_name("compress_blake2_x64.S")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=pathlib.Path, default=default)
    parser.add_argument("--check", nargs="?", const=default, type=pathlib.Path, metavar="PATH",
                        help="compare PATH with the generated text instead of writing")
    args = parser.parse_args()
    text = generate()
    if args.check is not None:
        current = args.check.read_text() if args.check.exists() else None
        if current != text:
            print(f"{args.check} is out of date: run {pathlib.Path(__file__).name}",
                  file=sys.stderr)
            return 1
        return 0
    args.output.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
