#!/usr/bin/env python3
"""kernelgen.py — a seeded generator of random offload-cxx kernels (issue 29).

In the spirit of Csmith and YARPGen, for kernels: each kernel is a random program over the
shapes that make the CPU device's work-item loops hard — barriers in loops, branches and helper
functions; values carried around those loops as recurrences of 2-4 terms, swaps and rotations,
in several types (8- to 64-bit integers, float, double), structs and small arrays, locals aligned
past a cache line; shared memory exchanged between barriers; early returns; uneven, 2-D and 3-D
workgroups; grid-stride loops; warp shuffles and ballots; integer atomics.

Every kernel it writes is deterministic on any conforming device: no data race (shared memory is
written and read between barriers, each work-item writes only its own output), barriers and warp
operations only in workgroup-uniform control flow (warp operations only in workgroups that are
whole warps), no undefined behaviour (unsigned arithmetic; floating-point values stay integers
small enough to be exact, so contraction or vectorisation cannot change them), atomics only for
their commutative effect (the value they return is unused). So two devices, or the CPU device's
two forms (work-item loops, fibers), must print the same hashes: any difference is a bug.

The kernel is a tree (Kernel, Stmt) so that reduce.py can delete and unwrap parts of it; the same
(seed, index) always gives the same kernel.

Usage: kernelgen.py SEED COUNT [--gpu] > batch.cpp   (a program running COUNT kernels)
"""
from __future__ import annotations

import argparse
import copy
import random
import sys
from dataclasses import dataclass, field

N_IN = 1024      # elements of the input every kernel reads
N_ACC = 16       # atomic counters
ATOMIC_BASE = {"atomic_add": 0, "atomic_max": 3, "atomic_min": 6, "atomic_or": 9, "atomic_xor": 12}
MAX_WG = 256     # the most work-items of a generated workgroup (shared arrays' size)

INT_TYPES = {"u8": "unsigned char", "u16": "unsigned short", "u32": "unsigned", "i32": "int",
             "u64": "unsigned long long", "i64": "long long"}
FLOAT_TYPES = {"f32": "float", "f64": "double"}
TYPES = {**INT_TYPES, **FLOAT_TYPES}


@dataclass
class Var:
    name: str
    kind: str            # a TYPES key, "struct", "array" or "aligned"
    align: int = 0       # "aligned": alignas(align) unsigned char[16]


@dataclass
class Stmt:
    """One statement. op: assign | recur | if | uloop | nloop | barrier | shx | call | warp |
    atomic | ret | gstride. Children in body / orelse."""
    op: str
    text: list[str] = field(default_factory=list)  # lines before the body (or all of it)
    body: list["Stmt"] = field(default_factory=list)
    orelse: list["Stmt"] = field(default_factory=list)
    close: list[str] = field(default_factory=list)  # lines after the body
    else_open: str = ""
    meets: bool = False  # holds a barrier or warp operation (needs uniform control flow)


@dataclass
class Helper:
    name: str
    body: list[Stmt]
    ret: str


@dataclass
class Kernel:
    name: str
    wg: tuple[int, int, int]
    groups: tuple[int, int, int]
    warps: bool
    vars: list[Var]
    body: list[Stmt]
    helpers: list[Helper]
    p0: int
    p1: int


class Gen:
    def __init__(self, seed: int, gpu: bool):
        self.r = random.Random(seed)
        self.gpu = gpu
        self.counter = 0

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    # ---------------------------------------------------------------- expressions (unsigned 32)
    def leaf(self, vars: list[Var], loopvars: list[str], uniform: bool) -> str:
        r = self.r
        choices = ["const", "param", "block"]
        if not uniform:
            choices += ["id", "id", "var", "var", "var", "in"]
        choices += ["loop"] * (2 if loopvars else 0)
        c = r.choice(choices)
        if c == "const":
            return f"{r.choice([0, 1, 2, 3, 5, 7, 31, 255, 1023, 65535, 0x9e3779b9])}u"
        if c == "param":
            return r.choice(["p0", "p1"])
        if c == "block":
            return r.choice(["offload::block_id_x()", "offload::block_id_y()", "offload::block_dim_x()",
                             "offload::block_id_z()", "offload::grid_dim_x()"])
        if c == "loop":
            return r.choice(loopvars)
        if c == "id":
            return r.choice(["offload::thread_id_x()", "offload::thread_id_y()", "offload::thread_id_z()",
                             "offload::local_linear_id()", "gid"])
        if c == "in":
            return f"in[({self.expr(vars, loopvars, False, 1)}) % {N_IN}u]"
        return self.read(r.choice(vars))

    def read(self, v: Var) -> str:
        r = self.r
        if v.kind in INT_TYPES:
            return f"static_cast<unsigned>({v.name})"
        if v.kind in FLOAT_TYPES:
            return f"fz::u({v.name})"
        if v.kind == "struct":
            return r.choice([f"{v.name}.a", f"static_cast<unsigned>({v.name}.c)", f"fz::u({v.name}.b)"])
        if v.kind == "array":
            return r.choice([f"{v.name}[{r.randrange(4)}]", f"{v.name}[gid & 3u]"])
        return f"static_cast<unsigned>({v.name}[{r.randrange(16)}])"

    def expr(self, vars, loopvars, uniform: bool, depth: int = 2) -> str:
        r = self.r
        if depth <= 0 or r.random() < 0.3:
            return self.leaf(vars, loopvars, uniform)
        a = self.expr(vars, loopvars, uniform, depth - 1)
        b = self.expr(vars, loopvars, uniform, depth - 1)
        op = r.choice(["+", "-", "*", "^", "&", "|", "shl", "shr", "div", "sel", "min"])
        if op == "shl":
            return f"(({a}) << (({b}) & 31u))"
        if op == "shr":
            return f"(({a}) >> (({b}) & 31u))"
        if op == "div":
            return f"(({a}) / (({b}) | 1u))"
        if op == "sel":
            c = self.expr(vars, loopvars, uniform, depth - 1)
            return f"(({c}) % 3u == 0 ? ({a}) : ({b}))"
        if op == "min":
            return f"fz::min_u({a}, {b})"
        return f"(({a}) {op} ({b}))"

    def cond(self, vars, loopvars, uniform: bool) -> str:
        r = self.r
        if not uniform and r.random() < 0.35:
            return self.range_check()
        e = self.expr(vars, loopvars, uniform, 2)
        return f"({e}) % {r.choice([2, 3, 5])}u == {r.choice([0, 1])}u"

    def range_check(self) -> str:
        """A bounds check as kernels write them (`i < n`): an index that grows with the
        work-item's x against a bound the workgroup shares, which the CPU image decides once per
        workgroup where it can (compiler/cpu/RangeCheckVersioning.h)."""
        r = self.r
        index = r.choice(["offload::global_id_x()", "gid", "offload::thread_id_x()",
                          "offload::global_id_x() + p0 % 7u", "static_cast<unsigned>(offload::global_id_x()) - 3u",
                          "(p1 % 50u) + offload::thread_id_x()", "offload::block_id_x() * 5u + offload::thread_id_x()"])
        bound = r.choice(["p0 % 300u", "p1 % 1000u", "40u", "0u", "1u", "offload::block_dim_x() * 2u + 3u",
                          "offload::grid_dim_x() * offload::block_dim_x() - 5u", "offload::block_id_x() + 9u"])
        op = r.choice(["<", "<=", ">", ">=", "==", "!="])
        if r.random() < 0.4:  # signed, with a bound that may be negative
            return f"static_cast<int>({index}) {op} static_cast<int>({bound}) - {r.choice([0, 1, 20])}"
        if r.random() < 0.3:  # 64-bit, as `std::size_t i = global_id_x()`
            return f"static_cast<unsigned long long>({index}) {op} static_cast<unsigned long long>({bound})"
        return f"static_cast<unsigned>({index}) {op} {bound}"

    # ---------------------------------------------------------------- statements
    def assign_to(self, v: Var, e: str) -> str:
        r = self.r
        if v.kind in INT_TYPES:
            return f"{v.name} = static_cast<{TYPES[v.kind]}>({e});"
        if v.kind == "f64":
            return f"{v.name} = fz::wrapd({v.name} * {r.choice([1, 2, 3])}.0 + static_cast<double>(({e}) & 0xfffffu));"
        if v.kind == "f32":
            return f"{v.name} = fz::wrapf({v.name} * {r.choice([1, 2, 3])}.0f + static_cast<float>(({e}) & 0xfffu));"
        if v.kind == "struct":
            return r.choice([f"{v.name}.a = {e};",
                             f"{v.name}.b = fz::wrapd({v.name}.b + static_cast<double>(({e}) & 0xfffffu));",
                             f"{v.name}.c = static_cast<unsigned char>({e});"])
        if v.kind == "array":
            return r.choice([f"{v.name}[{r.randrange(4)}] = {e};", f"{v.name}[({e}) & 3u] += 1u;"])
        return f"{v.name}[{r.randrange(16)}] = static_cast<unsigned char>({e});"

    def recurrence(self, vars: list[Var], loopvars: list[str]) -> Stmt | None:
        """t = a + b; a = b; b = t (2-4 terms), a swap with a sum, a rotation: same-typed scalars."""
        r = self.r
        by_kind: dict[str, list[Var]] = {}
        for v in vars:
            if v.kind in TYPES:
                by_kind.setdefault(v.kind, []).append(v)
        groups = [g for g in by_kind.values() if len(g) >= 2]
        if not groups:
            return None
        g = r.choice(groups)
        n = min(len(g), r.choice([2, 2, 3, 4]))
        terms = r.sample(g, n)
        ty = TYPES[terms[0].kind]
        t = self.fresh("t")
        shape = r.choice(["fib", "swap", "rotate"])
        k = r.choice(loopvars) if loopvars else "1u"
        lines = []
        if shape == "fib":
            total = " + ".join(x.name for x in terms)
            if terms[0].kind in FLOAT_TYPES:
                wrap = "fz::wrapd" if terms[0].kind == "f64" else "fz::wrapf"
                lines.append(f"const {ty} {t} = {wrap}({total});")
            else:
                lines.append(f"const {ty} {t} = static_cast<{ty}>(0ull + {total});")
            for a, b in zip(terms, terms[1:]):
                lines.append(f"{a.name} = {b.name};")
            lines.append(f"{terms[-1].name} = {t};")
        elif shape == "swap":
            lines.append(f"const {ty} {t} = {terms[0].name};")
            for a, b in zip(terms, terms[1:]):
                lines.append(f"{a.name} = {b.name};")
            if terms[0].kind in FLOAT_TYPES:
                wrap = "fz::wrapd" if terms[0].kind == "f64" else "fz::wrapf"
                lines.append(f"{terms[-1].name} = {wrap}({t} + static_cast<{ty}>(({k}) & 0xffu));")
            else:
                lines.append(f"{terms[-1].name} = static_cast<{ty}>(0ull + {t} + ({k}));")
        else:
            lines.append(f"const {ty} {t} = {terms[0].name};")
            for a, b in zip(terms, terms[1:]):
                lines.append(f"{a.name} = {b.name};")
            lines.append(f"{terms[-1].name} = {t};")
        return Stmt("recur", lines)

    def barrier(self) -> Stmt:
        return Stmt("barrier", ["offload::barrier();"], meets=True)

    def stmts(self, k: "KernelCtx", depth: int, uniform_flow: bool, loopvars: list[str], n: int) -> list[Stmt]:
        return [s for s in (self.stmt(k, depth, uniform_flow, loopvars) for _ in range(n)) if s]

    def stmt(self, k: "KernelCtx", depth: int, uniform_flow: bool, loopvars: list[str]) -> Stmt | None:
        r = self.r
        vars = k.vars
        menu = ["assign"] * 4 + ["recur"] * 2 + ["atomic"]
        if depth > 0:
            menu += ["if", "nloop"] + (["uloop"] * 3 if uniform_flow else [])
            if uniform_flow and not k.in_helper and not loopvars:
                menu += ["gstride"]
        if uniform_flow:
            menu += ["barrier"] * 2 + ["shx"] * 2
            if k.warps:
                menu += ["warp"] * 2
            if k.helpers and not k.in_helper:
                menu += ["call"]
            if not k.in_helper:
                menu += ["ret"] if r.random() < 0.3 else []
        if depth > 0:
            menu += ["switch", "ptr"] + (["dowhile"] if uniform_flow else [])
        op = r.choice(menu)
        if op == "assign":
            v = r.choice(vars)
            return Stmt("assign", [self.assign_to(v, self.expr(vars, loopvars, False))])
        if op == "recur":
            return self.recurrence(vars, loopvars)
        if op == "atomic":
            # Each operation on counters of its own: add then max is not max then add.
            fn = r.choice(["atomic_add", "atomic_add", "atomic_max", "atomic_min", "atomic_or", "atomic_xor"])
            base = ATOMIC_BASE[fn]
            return Stmt("atomic", [f"offload::{fn}(&acc[{base}u + ({self.expr(vars, loopvars, False, 1)}) % 3u], "
                                   f"{self.expr(vars, loopvars, False, 1)});"])
        if op == "barrier":
            return self.barrier()
        if op == "shx":
            # Each work-item writes its own slot, all read after a barrier, a barrier before the
            # slot is written again.
            v = r.choice(vars)
            off = r.choice(["1u", "3u", "p0", str(r.randrange(1, 7)) + "u"])
            return Stmt("shx", [f"sh[offload::local_linear_id()] = {self.expr(vars, loopvars, False)};",
                                "offload::barrier();",
                                self.assign_to(v, f"{self.read(v)} + sh[(offload::local_linear_id() + {off}) % "
                                                  f"offload::workgroup_size()]"),
                                "offload::barrier();"], meets=True)
        if op == "warp":
            v = r.choice(vars)
            w = r.choice(["shuffle_down", "shuffle_up", "shuffle_xor", "shuffle", "ballot", "reduce"])
            e = self.expr(vars, loopvars, False)
            if w == "ballot":
                call = f"static_cast<unsigned>(offload::ballot(({e}) % 3u == 0u) >> {r.randrange(8)})"
            elif w == "reduce":
                call = f"offload::warp_reduce_add({e})"
            else:
                arg = r.choice(["1u", "2u", "5u", "16u", "31u", "(p0 & 31u)"])
                call = f"offload::{w}({e}, {arg})"
            return Stmt("warp", [self.assign_to(v, call)], meets=True)
        if op == "call":
            h = r.choice(k.helpers)
            v = r.choice(vars)
            return Stmt("call", [self.assign_to(v, f"{h.name}(in, acc, {self.expr(vars, loopvars, False, 1)}, "
                                                   f"{self.expr(vars, loopvars, True, 1)})")],
                        meets=h.ret == "meets")
        if op == "ret":
            return Stmt("ret", [f"if ({self.cond(vars, loopvars, True)}) {{ FZ_EMIT(); return; }}"])
        if op == "if":
            uni = uniform_flow and r.random() < 0.5
            c = self.cond(vars, loopvars, uni)
            body = self.stmts(k, depth - 1, uni, loopvars, r.randint(1, 3))
            orelse = self.stmts(k, depth - 1, uni, loopvars, r.randint(0, 2))
            return Stmt("if", [f"if ({c}) {{"], body, orelse, ["}"], "} else {",
                        meets=any(s.meets for s in body + orelse))
        if op in ("uloop", "nloop"):
            lv = self.fresh("k")
            if op == "uloop":
                bound = r.choice(["3u", "4u", "(p0 % 5u) + 1u", "(p1 % 4u)", "offload::block_id_x() + 2u"])
            else:
                bound = f"(({self.expr(vars, loopvars, False, 1)}) % 5u)"
            body = self.stmts(k, depth - 1, op == "uloop", loopvars + [lv], r.randint(1, 4))
            if op == "uloop" and r.random() < 0.6:  # a recurrence around a barrier: the issue's case
                rec = self.recurrence(vars, loopvars + [lv])
                if rec:
                    body.insert(r.randrange(len(body) + 1), rec)
                    body.insert(r.randrange(len(body) + 1), self.barrier())
            if op == "uloop" and r.random() < 0.3:  # leaves or skips ahead, the same for the workgroup
                jump = r.choice(["break", "continue"])
                body.insert(r.randrange(len(body) + 1),
                            Stmt(jump, [f"if ({self.cond(vars, loopvars + [lv], True)}) {jump};"]))
            elif op == "nloop" and r.random() < 0.3:
                jump = r.choice(["break", "continue"])
                body.insert(r.randrange(len(body) + 1),
                            Stmt(jump, [f"if ({self.cond(vars, loopvars + [lv], False)}) {jump};"]))
            return Stmt(op, [f"for (unsigned {lv} = 0; {lv} < {bound}; ++{lv}) {{"], body, close=["}"],
                        meets=any(s.meets for s in body))
        if op == "switch":
            uni = uniform_flow and r.random() < 0.5
            e = self.expr(vars, loopvars, uni, 1)
            cases = []
            for label in (["case 0u:", "case 1u: case 2u:", "default:"] if r.random() < 0.5 else ["case 1u:", "default:"]):
                cases.append(Stmt("case", [label + " {"], self.stmts(k, depth - 1, uni, loopvars, r.randint(0, 2)),
                                  close=["  break;", "}"]))
            return Stmt("switch", [f"switch (({e}) % 4u) {{"], cases, close=["}"],
                        meets=any(s.meets for c in cases for s in c.body))
        if op == "ptr":
            by_kind = {}
            for v in vars:
                if v.kind in INT_TYPES:
                    by_kind.setdefault(v.kind, []).append(v)
            pairs = [g for g in by_kind.values() if len(g) >= 2]
            if not pairs:
                return None
            a, b = r.sample(r.choice(pairs), 2)
            p = self.fresh("p")
            ty = TYPES[a.kind]
            mid = [self.barrier()] if uniform_flow and r.random() < 0.6 else []
            mid += self.stmts(k, 0, uniform_flow, loopvars, r.randint(0, 1))
            return Stmt("ptr", ["{", f"  {ty} *{p} = ({self.cond(vars, loopvars, False)}) ? &{a.name} : &{b.name};"],
                        mid, close=[f"  *{p} = static_cast<{ty}>(0ull + *{p} + ({self.expr(vars, loopvars, False, 1)}));", "}"],
                        meets=any(s.meets for s in mid))
        if op == "dowhile":
            lv = self.fresh("k")
            body = self.stmts(k, depth - 1, True, loopvars + [lv], r.randint(1, 3))
            if r.random() < 0.5:
                body.insert(r.randrange(len(body) + 1), self.barrier())
            return Stmt("dowhile", ["{", f"  unsigned {lv} = 0;", "  do {"], body,
                        close=[f"  }} while (++{lv} < (p0 % 3u) + 1u);", "}"], meets=any(s.meets for s in body))
        if op == "gstride":
            lv = self.fresh("i")
            # (the last: enough iterations for the CPU device's sweeps, at least 16 a work-item)
            n = r.choice(["p1 % 2000u", "3u * offload::block_dim_x() + 5u", "gsize + 7u",
                          "17u * gsize + p1 % 300u"])
            body = [s for s in (self.stmt(k, 0, False, loopvars + [lv]) for _ in range(r.randint(1, 3))) if s]
            rec = self.recurrence(vars, loopvars + [lv])
            if rec:
                body.append(rec)
            v = r.choice(vars)
            body.append(Stmt("assign", [self.assign_to(v, f"{self.read(v)} + in[{lv} % {N_IN}u]")]))
            # Over the whole grid's linear ids, or CUDA's usual x-only form (the one the CPU
            # device runs as sweeps of the workgroup: compiler/cpu/GridStrideSweeps.cpp).
            start, step = r.choice([("static_cast<unsigned>(gid)", "gsize"),
                                    ("static_cast<unsigned>(offload::global_id_x())",
                                     "offload::grid_dim_x() * offload::block_dim_x()")])
            return Stmt("gstride", [f"for (unsigned {lv} = {start}; {lv} < {n}; {lv} += {step}) {{"],
                        body, close=["}"])
        return None


class KernelCtx:
    def __init__(self, vars, warps, helpers):
        self.vars = vars
        self.warps = warps
        self.helpers = helpers
        self.in_helper = False


def make_vars(g: Gen) -> list[Var]:
    r = g.r
    vars = []
    kinds = list(TYPES) + ["u32", "u32", "u64"]
    for _ in range(r.randint(3, 7)):
        vars.append(Var(g.fresh("v"), r.choice(kinds)))
    # Same-typed pairs and triples for the recurrences.
    for _ in range(r.randint(1, 2)):
        kind = r.choice(kinds)
        for _ in range(r.randint(2, 4)):
            vars.append(Var(g.fresh("v"), kind))
    if r.random() < 0.4:
        vars.append(Var(g.fresh("s"), "struct"))
    if r.random() < 0.4:
        vars.append(Var(g.fresh("arr"), "array"))
    if r.random() < 0.35:
        vars.append(Var(g.fresh("al"), "aligned", r.choice([32, 64, 128, 256])))
    return vars


def make_kernel(seed: int, index: int, gpu: bool) -> Kernel:
    g = Gen(seed * 1000003 + index, gpu)
    r = g.r
    warps = r.random() < 0.3
    shapes_1d = [(7, 1, 1), (33, 1, 1), (64, 1, 1), (100, 1, 1), (1, 1, 1), (256, 1, 1), (5, 1, 1)]
    shapes = shapes_1d + [(8, 4, 1), (5, 3, 1), (4, 3, 2), (2, 2, 8), (16, 2, 2), (3, 1, 7)]
    if warps:
        shapes = [(32, 1, 1), (64, 1, 1), (96, 1, 1), (16, 4, 1), (8, 2, 4), (256, 1, 1)]
    wg = r.choice(shapes)
    groups = r.choice([(1, 1, 1), (3, 1, 1), (2, 2, 1), (2, 1, 2), (5, 1, 1)])
    vars = make_vars(g)
    helpers = []
    for _ in range(r.choice([0, 0, 1, 2])):
        ctx = KernelCtx(vars, warps, [])
        ctx.in_helper = True
        hv = [Var("x", "u32"), Var("y", "u32"), Var("z", "u32")]
        ctx.vars = hv
        body = g.stmts(ctx, 1, True, [], r.randint(1, 3))
        if not any(s.meets for s in body):
            body.insert(r.randrange(len(body) + 1), g.barrier())
        helpers.append(Helper(f"k{seed}_{index}_{g.fresh('helper')}", body, "meets"))
    ctx = KernelCtx(vars, warps, helpers)
    body = g.stmts(ctx, 3, True, [], r.randint(3, 7))
    # Work-items that end early while others go on to barriers: the CPU device counts them as
    # ended (a GPU's bar.sync waits for the threads that have not exited, in practice). Not in
    # warp kernels (a warp then has fewer lanes: undefined) nor in GPU batches.
    # Shared memory is read from other work-items' slots: those that ended must have written
    # theirs (first, all of them) and no helper (with shared memory of its own) runs after.
    if not warps and not gpu and r.random() < 0.3:
        body.insert(r.randrange(len(body) + 1),
                    Stmt("ret", [f"if ({g.cond(vars, [], False)}) {{ FZ_EMIT(); return; }}"]))
        body.insert(0, Stmt("shx", ["sh[offload::local_linear_id()] = 0u;", "offload::barrier();"], meets=True))
        helpers = []
        def no_calls(stmts):
            for st in stmts:
                if st.op == "call":
                    st.op, st.text, st.meets = "barrier", ["offload::barrier();"], True
                no_calls(st.body)
                no_calls(st.orelse)
        no_calls(body)
    return Kernel(f"k{seed}_{index}", wg, groups, warps, vars, body, helpers,
                  r.randrange(1 << 16), r.randrange(1 << 16))


# -------------------------------------------------------------------- printing
def print_stmts(stmts: list[Stmt], indent: int, out: list[str]):
    pad = "  " * indent
    for s in stmts:
        for line in s.text:
            out.append(pad + line)
        if s.body or s.orelse or s.close:
            print_stmts(s.body, indent + 1, out)
            if s.orelse:
                out.append(pad + s.else_open)
                print_stmts(s.orelse, indent + 1, out)
            for line in s.close:
                out.append(pad + line)


def declare(v: Var) -> str:
    if v.kind in INT_TYPES:
        return f"{TYPES[v.kind]} {v.name} = static_cast<{TYPES[v.kind]}>(gid * 2654435761u + {sum(map(ord, v.name)) % 97}u);"
    if v.kind == "f64":
        return f"double {v.name} = static_cast<double>((gid * 7u) & 0xfffu);"
    if v.kind == "f32":
        return f"float {v.name} = static_cast<float>((gid * 3u) & 0xffu);"
    if v.kind == "struct":
        return f"fz::rec {v.name}{{static_cast<unsigned>(gid), 1.0, 3}};"
    if v.kind == "array":
        return f"unsigned {v.name}[4] = {{static_cast<unsigned>(gid), 1u, 2u, 3u}};"
    return (f"alignas({v.align}) unsigned char {v.name}[16] = {{}}; "
            f"{v.name}[0] = static_cast<unsigned char>(gid);")


def hash_var(v: Var) -> str:
    if v.kind in INT_TYPES:
        return f"h = fz::mix(h, static_cast<unsigned long long>({v.name}));"
    if v.kind in FLOAT_TYPES:
        return f"h = fz::mix(h, fz::u({v.name}));"
    if v.kind == "struct":
        return f"h = fz::mix(fz::mix(fz::mix(h, {v.name}.a), fz::u({v.name}.b)), {v.name}.c);"
    if v.kind == "array":
        return " ".join(f"h = fz::mix(h, {v.name}[{i}]);" for i in range(4))
    return (f"for (unsigned q = 0; q < 16; ++q) h = fz::mix(h, {v.name}[q]); "
            f"h = fz::mix(h, fz::misaligned({v.name}, {v.align}));")


def print_kernel(k: Kernel) -> str:
    out = []
    for h in k.helpers:
        out.append(f"static unsigned {h.name}(std::span<const unsigned> in, std::span<unsigned> acc, unsigned x, unsigned y) {{")
        out.append("  unsigned z = x ^ y;")
        out.append("  auto &sh = offload::shared<unsigned[%d]>([] {});" % MAX_WG)
        out.append("  const unsigned long long gid = offload::local_linear_id();")
        out.append("  const unsigned p0 = y, p1 = y ^ 0x55u;")
        out.append("  (void)sh; (void)gid; (void)p0; (void)p1; (void)in; (void)acc;")
        print_stmts(h.body, 1, out)
        out.append("  return x + 3u * y + 7u * z;")
        out.append("}")
    out.append(f"OFFLOAD_KERNEL void {k.name}(std::span<const unsigned> in, std::span<unsigned long long> out,")
    out.append(f"    std::span<unsigned> acc, unsigned p0, unsigned p1) {{")
    out.append("  const unsigned long long gid = fz::global_linear_id();")
    out.append("  const unsigned gsize = offload::grid_dim_x() * offload::grid_dim_y() * offload::grid_dim_z() * "
               "offload::workgroup_size();")
    out.append("  auto &sh = offload::shared<unsigned[%d]>([] {});" % MAX_WG)
    out.append("  (void)sh; (void)gsize; (void)in; (void)acc; (void)p0; (void)p1;")
    for v in k.vars:
        out.append("  " + declare(v))
    emit = " ".join(["unsigned long long h = 1469598103934665603ull;"] + [hash_var(v) for v in k.vars] +
                    ["out[gid] = h;"])
    out.append(f"#define FZ_EMIT() do {{ {emit} }} while (0)")
    print_stmts(k.body, 1, out)
    out.append("  FZ_EMIT();")
    out.append("#undef FZ_EMIT")
    out.append("}")
    return "\n".join(out)


PRELUDE = r"""// Generated by tests/kernelfuzz/kernelgen.py: random kernels, the same result on every device.
#include <offload/offload.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <vector>

namespace fz {
struct rec { unsigned a; double b; unsigned char c; };
inline unsigned long long mix(unsigned long long h, unsigned long long v) {
  return (h ^ v) * 1099511628211ull;
}
inline unsigned u(double d) { return d >= 0.0 && d < 4294967296.0 ? static_cast<unsigned>(d) : 7u; }
inline unsigned u(float d) { return d >= 0.0f && d < 4294967296.0f ? static_cast<unsigned>(d) : 7u; }
// Integral values below 2^20 (doubles) and 2^12 (floats): every operation on them is exact.
inline double wrapd(double d) { return d - __builtin_floor(d / 1048576.0) * 1048576.0; }
inline float wrapf(float d) { return d - __builtin_floorf(d / 4096.0f) * 4096.0f; }
inline unsigned min_u(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned long long global_linear_id() {
  const unsigned long long block = (static_cast<unsigned long long>(offload::block_id_z()) * offload::grid_dim_y() +
                                    offload::block_id_y()) * offload::grid_dim_x() + offload::block_id_x();
  return block * offload::workgroup_size() + offload::local_linear_id();
}
inline unsigned misaligned(const volatile unsigned char *p, unsigned align) {
  volatile std::uintptr_t at = reinterpret_cast<std::uintptr_t>(p);
  return static_cast<unsigned>(at % align);
}
} // namespace fz
"""


def print_launch(k: Kernel) -> str:
    items = k.wg[0] * k.wg[1] * k.wg[2] * k.groups[0] * k.groups[1] * k.groups[2]
    return (f"  {{ std::vector<unsigned long long> out({items}, 0); std::vector<unsigned> acc({N_ACC}, 5u);\n"
            f"    offload::launch({k.name}, {{.workgroups = {{{k.groups[0]}, {k.groups[1]}, {k.groups[2]}}}, "
            f".threads = {{{k.wg[0]}, {k.wg[1]}, {k.wg[2]}}}}},\n"
            f"                    std::span<const unsigned>(in), std::span(out), std::span(acc), {k.p0}u, {k.p1}u);\n"
            f"    report(\"{k.name}\", out, acc); }}")


def print_program(kernels: list[Kernel]) -> str:
    parts = [PRELUDE]
    for k in kernels:
        parts.append(print_kernel(k))
    parts.append(r"""
static void report(const char *name, const std::vector<unsigned long long> &out, const std::vector<unsigned> &acc) {
  unsigned long long h = 1469598103934665603ull;
  for (unsigned long long v : out) h = fz::mix(h, v);
  for (unsigned v : acc) h = fz::mix(h, v);
  std::printf("%s %016llx\n", name, h);
}

int main() {
  std::vector<unsigned> in(""" + str(N_IN) + r""");
  for (unsigned i = 0; i < in.size(); ++i) in[i] = i * 2654435761u ^ (i >> 3);
""")
    for k in kernels:
        parts.append(print_launch(k))
    parts.append("  return 0;\n}\n")
    return "\n".join(parts)


def batch(seed: int, count: int, gpu: bool) -> list[Kernel]:
    return [make_kernel(seed, i, gpu) for i in range(count)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("count", type=int)
    ap.add_argument("--gpu", action="store_true", help="kernels for a GPU run too (the same set today)")
    a = ap.parse_args()
    sys.stdout.write(print_program(batch(a.seed, a.count, a.gpu)))


if __name__ == "__main__":
    main()
