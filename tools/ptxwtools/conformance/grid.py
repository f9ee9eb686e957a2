"""`ptxw conformance`: for every instruction variant ptxw wraps (variants.py) x every target x every
toolchain, measure

  ptxas    accepts or rejects the instruction (and its message); the SASS opcodes it emits;
  ptxw     whether ptxw's arch gate agrees (compiles exactly where ptxas accepts; a rejection must
           be a `ptxw: R9` compile error);
  cccl     whether CCCL's cuda::ptx binding agrees (accepts exactly where ptxas does; CCCL rejects
           by calling an undefined __cuda_ptx_*_is_not_supported_* function, i.e. at link time);
  runtime  the tests/runtime results of the tests that run the form on a GPU, for the target the GPU
           runs (sm_90a on an H100), from a live run or a recorded gtest XML; else "no hardware".

Every verdict keeps the command that produced it and the tool's output. Cells are cached by the
inputs they depend on (toolchain, target, the statement, ptxw's headers), so a rerun after a change
recomputes only what the change touched. Compiles are batched: one PTX module per target for the
SASS, one translation unit per target for the gates, falling back to one compile per variant when
the batch fails (which a rejected form makes it do, by design).
"""

import concurrent.futures
import datetime
import enum
import fnmatch
import json
import os
import re
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..core import cache as cache_, cubin, errors, gate, probes, sass, toolchain, variants

# The target whose SASS runs on the GPUs this project has (an H100), and the runtime tests' build.
RUNTIME_TARGET = "sm_90a"
RUNTIME_BINARY = Path("tests/runtime/ptxw_runtime_tests")

_UNSUPPORTED_STUB = re.compile(r"__cuda_ptx_\w+_is_not_supported\w*")


_digest = cache_.digest


class Verdict(str, enum.Enum):
    """What one column of a cell says; the JSON and the cache keep the value."""

    ACCEPT = "accept"
    REJECT = "reject"  # ptxas, or ptxw's gate with its `ptxw: R9` message
    REJECT_COMPILE_TIME = "reject (compile time)"  # CCCL
    REJECT_LINK_TIME = "reject (link time)"  # CCCL: an undefined __cuda_ptx_*_is_not_supported_* stub
    NO_BINDING = "no binding"  # CCCL has none for the form
    NO_NVCC = "no nvcc"  # the toolchain cannot compile C++ (CUDA 12.9 from PyPI: ptxas only)
    TARGET_UNKNOWN = "target unknown to this ptxas"
    PASS = "pass"  # runtime tests
    FAIL = "fail"
    SKIPPED = "skipped"
    NOT_RUN = "not run"
    NO_HARDWARE = "no hardware"
    ERROR = "error"  # not measured: Step.why says why


@dataclass
class Step:
    """One verdict and what it rests on."""

    verdict: Verdict
    command: str = ""
    output: str = ""
    why: str = ""  # for ERROR: what went wrong

    @property
    def text(self) -> str:
        return f"error: {self.why}" if self.verdict is Verdict.ERROR else self.verdict.value

    @classmethod
    def load(cls, d: dict) -> "Step":
        """The inverse of asdict (what the cache keeps)."""
        return cls(**{**d, "verdict": Verdict(d["verdict"])})


class Concern(enum.Enum):
    PTXW = "ptxw"  # ptxw's gate disagrees with ptxas
    CCCL = "cccl"  # CCCL's gate disagrees with ptxas
    RUNTIME = "runtime"  # a runtime test of the form failed
    UNMEASURED = "unmeasured"  # a column could not be measured


@dataclass(frozen=True)
class Problem:
    concern: Concern
    what: str  # in words, for the reports

    def __str__(self) -> str:
        return f"unmeasured: {self.what}" if self.concern is Concern.UNMEASURED else self.what


@dataclass
class Cell:
    toolchain: str
    target: str
    variant: str
    family: str
    ptxas: Step = None
    sass: list = field(default_factory=list)
    kernel: dict = None  # the probe kernel as compile.py records one (listing, resources): what sass-diff compares
    ptxw: Step = None
    cccl: Step = None
    runtime: Step = None
    problems: list = field(default_factory=list)  # Problem: disagreements and unmeasured parts

    @property
    def unmeasured(self) -> bool:
        return any(p.concern is Concern.UNMEASURED for p in self.problems)

    @property
    def disagrees(self) -> bool:
        return any(p.concern in (Concern.PTXW, Concern.CCCL) for p in self.problems)


# ---- the toolchain's side ----------------------------------------------------------------------


class Measurer:
    """Runs the compiles of one toolchain, with a cache directory shared by all."""

    def __init__(self, tc: toolchain.Toolchain, cache: Path, use_cache: bool):
        self.tc = tc
        self.cache = cache_.Cache(cache, use_cache)
        self.disasm = toolchain.find_disassembler(tc.root)
        self.headers = cache_.tree_digest(toolchain.REPO / "include", "*.h")
        self.code = cache_.code_digest("conformance/grid")  # with gate.py, compile.py, variants.py, ...
        self.identity = _digest(tc.root, tc.version, self.code)

    def _run(self, cmd, cwd=None):
        out = toolchain.run(cmd, cwd=cwd)
        return out.returncode, " ".join(map(str, cmd)), (out.stdout + out.stderr).strip()

    # ptxas acceptance and SASS, for all variants of one target
    def ptxas(self, target: str, vs: list) -> dict:
        keys = {v.id: _digest(self.identity, target, v.ptx) for v in vs}
        missing = [v for v in vs if not self.cache.has("ptxas", keys[v.id])]
        fresh = self._ptxas_batch(target, missing) if missing else {}
        return {v.id: self.cache.get_or("ptxas", keys[v.id], lambda v=v: fresh[v.id]) for v in vs}

    def _ptxas_batch(self, target: str, vs: list) -> dict:
        result = {}
        accepted = {}
        for v in vs:
            verdict = probes.assemble(self.tc, target, v.ptx)
            if verdict.accepted:
                accepted[v] = verdict
                continue
            step = Step(Verdict.REJECT, verdict.command, verdict.output)
            if verdict.returncode == 255 and re.search(r"\berror\b", verdict.output):
                pass
            elif verdict.returncode < 0:
                step.verdict, step.why = Verdict.ERROR, f"ptxas killed by signal {-verdict.returncode}"
            else:  # an exit status ptxas does not use for errors in its input
                step.verdict, step.why = Verdict.ERROR, f"ptxas exited with status {verdict.returncode}"
            result[v.id] = {"step": asdict(step), "sass": []}
        if accepted:
            opcodes, kernels, cmd, output = self._sass_of(target, [v for v in accepted])
            for v, verdict in accepted.items():
                result[v.id] = {"step": asdict(Step(Verdict.ACCEPT, verdict.command, verdict.output)),
                                "sass": opcodes.get(probes.kernel_name(v.id), []),
                                "kernel": kernels.get(probes.kernel_name(v.id)),
                                "sass_command": cmd, "sass_output": output}
        return result

    def _sass_of(self, target: str, vs: list):
        """Opcodes per variant: its probe kernel's SASS less that of the same kernel with no instruction;
        and the probe kernel itself, for the diff between toolchains."""
        with tempfile.TemporaryDirectory() as tmp:
            instructions = {"baseline": ""}
            instructions.update({probes.kernel_name(v.id): v.ptx for v in vs})
            ptx = Path(tmp, "variants.ptx")
            ptx.write_text(probes.ptx_module(self.tc, target, instructions))
            cub = Path(tmp, "variants.cubin")
            rc, cmd, output = self._run(self.tc.ptxas_command(target, ptx, cub))
            if rc != 0:
                return {}, {}, cmd, output
            rc2, cmd2, listing = self._run([self.disasm, "-res-usage", "-sass", cub])
            if rc2 != 0:
                return {}, {}, cmd2, listing
            functions = {f.name: f for f in sass.parse_cuobjdump(listing)}
            used = cubin.resources(listing)
            base = _opcodes(functions.get("ptxw_probe_baseline"))
            result, kernels = {}, {}
            for name in instructions:
                if name != "baseline":
                    f = functions.get(f"ptxw_probe_{name}")
                    ops = _opcodes(f)
                    for b in base:
                        if b in ops:
                            ops.remove(b)
                    result[name] = ops
                    if f:
                        kernels[name] = {"name": f.name, "demangled": f.name, "resources": used.get(f.name, {}),
                                         "listing": sass.listing_lines(f)}
            return result, kernels, f"{cmd} && {cmd2}", ""

    # the gates: ptxw's and CCCL's, for all variants of one target
    def gate(self, which: str, target: str, vs: list, ptxas: dict) -> dict:
        if not self.tc.has_nvcc:
            return {v.id: asdict(Step(Verdict.NO_NVCC, "", f"CUDA {self.tc.version} at {self.tc.root} has ptxas but no nvcc"))
                    for v in vs}
        statement = (lambda v: v.ptxw) if which == "ptxw" else (lambda v: v.cccl)
        inputs = self.headers if which == "ptxw" else ""
        keys = {v.id: _digest(self.identity, which, target, statement(v), inputs) for v in vs}
        missing = [v for v in vs if statement(v) is not None and not self.cache.has(which, keys[v.id])]
        fresh = self._gate_batch(which, target, missing, ptxas) if missing else {}

        def compute(v):
            if statement(v) is None:
                return asdict(Step(Verdict.NO_BINDING, "", "CCCL has no binding for this form"))
            return fresh[v.id]

        return {v.id: self.cache.get_or(which, keys[v.id], lambda v=v: compute(v)) for v in vs}

    def _compile(self, target: str, sources: dict, tmp: Path):
        """gate.compile_statements, with the names of the kernels its errors point at."""
        rc, cmd, output, ptx, found = gate.compile_statements(self.tc, target, sources, tmp)
        return rc, cmd, output, ptx, {n for _, kernels in found for n in kernels}

    def _gate_batch(self, which: str, target: str, vs: list, ptxas: dict) -> dict:
        """One compile for all variants; the ones its errors point at, and all of them if the
        errors point nowhere, are compiled again one by one for their own verdict."""
        statement = (lambda v: v.ptxw) if which == "ptxw" else (lambda v: v.cccl)
        name = {v.id: f"v_{probes.kernel_name(v.id)}" for v in vs}
        result = {}
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            group, singles = list(vs), []
            for _ in range(3):
                if not group:
                    break
                rc, cmd, output, ptx, failing = self._compile(target, {name[v.id]: statement(v) for v in group}, tmp)
                if rc == 0:
                    for v in group:
                        result[v.id] = asdict(self._classify(which, v, rc, cmd, output, gate.kernel_ptx(ptx, name[v.id])))
                    group = []
                    break
                if not failing:
                    break
                singles += [v for v in group if name[v.id] in failing]
                group = [v for v in group if name[v.id] not in failing]
            for v in singles + group:
                rc, cmd, output, ptx, _ = self._compile(target, {"v": statement(v)}, tmp)
                result[v.id] = asdict(self._classify(which, v, rc, cmd, output, ptx))
        return result

    def _classify(self, which: str, v, rc: int, cmd: str, output: str, ptx: str) -> Step:
        if rc != 0:
            if which == "ptxw":
                m = re.search(r'static assertion failed with "(ptxw: R\d+[^"]*)"', output)
                if m:
                    return Step(Verdict.REJECT, cmd, m.group(1))
                return Step(Verdict.ERROR, cmd, output[-4000:], "does not compile, without a ptxw message")
            if re.search(r'has no member|no instance of (overloaded )?function|is undefined', output):
                return Step(Verdict.NO_BINDING, cmd, output[-2000:])
            return Step(Verdict.REJECT_COMPILE_TIME, cmd, output[-2000:])
        stub = _UNSUPPORTED_STUB.search(ptx)
        if stub:
            return Step(Verdict.REJECT_LINK_TIME, cmd, f"the PTX calls {stub.group(0)}, defined nowhere")
        if gate.same_form(v.mnemonic) in gate.same_form(ptx):
            return Step(Verdict.ACCEPT, cmd, "")
        return Step(Verdict.ERROR, cmd, ptx[-2000:], "compiled, but the PTX lacks " + v.mnemonic)


# Address arithmetic, constants and moves around an instruction: left out of the "key" opcodes the
# report shows (the JSON keeps every opcode).
_SUPPORT = {"S2R", "S2UR", "CS2R", "MOV", "UMOV", "IMAD", "HFMA2", "LEA", "ULEA", "IADD3", "UIADD3", "SHF", "USHF",
            "LOP3", "ULOP3", "LDC", "ULDC", "LDCU", "R2UR", "SEL", "USEL", "ISETP", "UISETP", "PLOP3", "VOTEU", "VOTE"}


def key_opcodes(ops) -> list:
    return [op for op in dict.fromkeys(ops) if op.split(".")[0] not in _SUPPORT]


def _opcodes(function) -> list:
    if function is None:
        return []
    out = []
    for ins in function.instructions:
        text = re.sub(r"^@!?U?P\w+\s+", "", ins.text)
        out.append(text.split()[0])
    return out


# ---- runtime results ---------------------------------------------------------------------------


@dataclass
class RuntimeResults:
    source: str  # where they came from, for the report
    results: dict  # "Suite.Name" -> "pass" | "fail" | "skip"

    @classmethod
    def from_xml(cls, path: Path, source: str):
        """gtest's --gtest_output=xml; a gpu.txt beside it (run_on_gpu.sh writes one) names the GPU."""
        try:
            tree = ET.parse(path)
        except (OSError, ET.ParseError) as e:
            raise toolchain.ToolError(f"cannot read runtime results {path}: {e}") from None
        gpu = path.with_name("gpu.txt")
        if gpu.exists():
            source += f" ({gpu.read_text().strip().splitlines()[0]})"
        results = {}
        for case in tree.iter("testcase"):
            # "Prefix/Suite" for a value-parameterised suite, "Suite/Type" for a typed one: named
            # Suite.Name and Suite.Name/Type, as the patterns in variants.py spell them
            parts = case.get("classname", "").split("/")
            typed = case.get("type_param") is not None and len(parts) > 1
            suite = parts[-2] if typed else parts[-1]
            full = f"{suite}.{case.get('name', '')}" + (f"/{parts[-1]}" if typed else "")
            if case.find("failure") is not None or case.find("error") is not None:
                results[full] = "fail"
            elif case.get("result") == "skipped" or case.find("skipped") is not None:
                results[full] = "skip"
            else:
                results[full] = "pass"
        return cls(source, results)

    def verdict(self, patterns) -> Step:
        matched = {n: r for n, r in self.results.items() if any(_glob(p, n) for p in patterns)}
        if not matched:
            return Step(Verdict.NOT_RUN, "", f"no test of {self.source} matches {', '.join(patterns)}")
        failed = sorted(n for n, r in matched.items() if r == "fail")
        passed = sum(r == "pass" for r in matched.values())
        if failed:
            return Step(Verdict.FAIL, self.source, "failed: " + ", ".join(failed))
        if passed == 0:
            return Step(Verdict.SKIPPED, self.source, f"{len(matched)} tests skipped")
        return Step(Verdict.PASS, self.source, f"{passed} tests passed: " + ", ".join(sorted(matched)))


def _glob(pattern: str, name: str) -> bool:
    return re.fullmatch(".*?" + re.escape(pattern).replace(r"\*", ".*"), name) is not None


def gpu_target():
    """sm_XX of the GPU here, or None."""
    smi = shutil.which("nvidia-smi")
    if not smi:
        return None
    out = subprocess.run([smi, "--query-gpu=compute_cap,name", "--format=csv,noheader"], capture_output=True, text=True)
    if out.returncode != 0 or not out.stdout.strip():
        return None
    cap = out.stdout.split(",")[0].strip().replace(".", "")
    return f"sm_{cap}a" if cap == "90" else f"sm_{cap}"


def live_runtime(build_dir: Path, out_dir: Path):
    binary = build_dir / RUNTIME_BINARY
    target = gpu_target()
    if target != RUNTIME_TARGET or not binary.exists():
        return None
    xml = out_dir / "runtime.xml"
    subprocess.run([binary, f"--gtest_output=xml:{xml}"], capture_output=True)
    name = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True, text=True)
    return RuntimeResults.from_xml(xml, f"{binary} on {name.stdout.strip()}, {datetime.date.today()}")


# ---- the grid ----------------------------------------------------------------------------------


@dataclass
class Grid:
    toolchains: list  # [{"root", "version", "ptx_isa", "cccl"}] or {"root", "error"}
    targets: list
    variants: list
    cells: list
    runtime_source: str
    command: str
    date: str
    errors: list  # things asked for that could not be measured, in words


def _cccl_version(tc: toolchain.Toolchain) -> str:
    for candidate in (tc.root / "include" / "cccl" / "cuda" / "std" / "__cccl" / "version.h",
                      tc.root / "targets" / "x86_64-linux" / "include" / "cccl" / "cuda" / "std" / "__cccl" / "version.h"):
        if candidate.exists():
            m = re.search(r"define CCCL_VERSION (\d+)", candidate.read_text())
            if m:
                v = int(m.group(1))
                return f"{v // 1000000}.{v // 1000 % 1000}.{v % 1000}"
    return "unknown"


def select_variants(patterns) -> list:
    """The variants whose id matches one of the shell patterns ('clc*', 'mbarrier.init'); all if none.
    A pattern that matches nothing is an error: the user asked for something the grid does not have."""
    if not patterns:
        return list(variants.VARIANTS)
    unmatched = [p for p in patterns if not any(fnmatch.fnmatchcase(v.id, p) for v in variants.VARIANTS)]
    if unmatched:
        raise errors.BadInput(f"no variant matches {', '.join(unmatched)} (ids: {', '.join(v.id for v in variants.VARIANTS)})")
    return [v for v in variants.VARIANTS if any(fnmatch.fnmatchcase(v.id, p) for p in patterns)]


def measure(toolchain_roots, target_names, build_dir: Path, runtime: RuntimeResults, use_cache=True,
            jobs=None, progress=None, command="", selected=None) -> Grid:
    """The grid. Target names must be valid (targets.parse); a toolchain that does not work is measured
    as far as it goes and said in Grid.errors."""
    selected = selected or list(variants.VARIANTS)
    problems = []
    tcs, tc_info = [], []
    for root in toolchain_roots:
        try:
            tc = toolchain.Toolchain(Path(root).resolve()).check(require_nvcc=False)
            info = {"root": str(tc.root), "version": tc.version, "ptx_isa": tc.ptx_isa,
                    "cccl": _cccl_version(tc) if tc.has_nvcc else None}
            tc.targets  # noqa: B018 -- ask now, so a broken ptxas is reported here
            tcs.append(tc)
            tc_info.append(info)
        except toolchain.ToolError as e:
            problems.append(f"toolchain {root}: {e}")
            tc_info.append({"root": str(root), "error": str(e)})
    cache = build_dir / "conformance" / "cache"
    jobs = jobs or os.cpu_count() or 2
    cells = []
    total = len(tcs) * len(target_names) * len(selected)
    done = 0

    def group(tc, m, target):
        ptxas = m.ptxas(target, list(selected))
        gates = {w: m.gate(w, target, list(selected), ptxas) for w in ("ptxw", "cccl")}
        return tc, target, ptxas, gates

    futures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for tc in tcs:
            try:
                m = Measurer(tc, cache, use_cache)
            except toolchain.ToolError as e:
                problems.append(f"toolchain {tc.root}: {e}")
                continue
            for target in target_names:
                if target not in tc.targets:
                    for v in selected:
                        cells.append(_absent(tc, target, v))
                    done += len(selected)
                    continue
                futures.append(pool.submit(group, tc, m, target))
        for f in concurrent.futures.as_completed(futures):
            tc, target, ptxas, gates = f.result()
            for v in selected:
                cells.append(_cell(tc, target, v, ptxas[v.id], gates["ptxw"][v.id], gates["cccl"][v.id], runtime))
            done += len(selected)
            if progress:
                progress(done, total, f"{tc.version} {target}")
    unmeasured = {}
    for c in cells:
        for p in c.problems:
            if p.concern is Concern.UNMEASURED:
                unmeasured.setdefault((c.toolchain, c.target, p.what), []).append(c.variant)
    for (tc, target, why), ids in unmeasured.items():
        problems.append(f"{tc} {target}: {why} ({len(ids)} of {len(selected)} variants: "
                      f"{', '.join(ids[:3])}{', ...' if len(ids) > 3 else ''})")
    order = {t: i for i, t in enumerate(target_names)}
    vorder = {v.id: i for i, v in enumerate(selected)}
    cells.sort(key=lambda c: (c.toolchain, vorder.get(c.variant, 0), order.get(c.target, 0)))
    return Grid(tc_info, list(target_names), [v.id for v in selected], cells,
                runtime.source if runtime else "no hardware", command, datetime.date.today().isoformat(),
                sorted(set(problems)))


def _absent(tc, target, v) -> Cell:
    c = Cell(tc.version, target, v.id, v.family)
    c.ptxas = Step(Verdict.TARGET_UNKNOWN, f"{tc.ptxas} --help", "not among the allowed --gpu-name values")
    return c


def _cell(tc, target, v, ptxas, ptxw_step, cccl_step, runtime) -> Cell:
    c = Cell(tc.version, target, v.id, v.family)
    c.ptxas = Step.load(ptxas["step"])
    c.sass = ptxas.get("sass", [])
    c.kernel = ptxas.get("kernel")
    c.ptxw = Step.load(ptxw_step)
    c.cccl = Step.load(cccl_step)
    accepted = c.ptxas.verdict is Verdict.ACCEPT
    for part in (c.ptxas, c.ptxw, c.cccl):
        if part.verdict is Verdict.ERROR:
            c.problems.append(Problem(Concern.UNMEASURED, part.text))
    if c.ptxas.verdict is Verdict.ERROR:  # nothing for a gate to agree with
        return c
    expected = gate.must_compile(v, target, accepted)  # the one definition of ptxw's gate agreeing
    if c.ptxw.verdict not in (Verdict.ERROR, Verdict.NO_NVCC) and (c.ptxw.verdict is Verdict.ACCEPT) != expected:
        c.problems.append(Problem(Concern.PTXW, "ptxw accepts what ptxas rejects" if not accepted else
                                  f"ptxw accepts what the PTX ISA gives only from sm_{v.sm}" if not expected else
                                  "ptxw rejects what ptxas accepts"))
    if c.cccl.verdict not in (Verdict.NO_BINDING, Verdict.NO_NVCC, Verdict.ERROR) and \
            (c.cccl.verdict is Verdict.ACCEPT) != accepted:
        when = {Verdict.REJECT_LINK_TIME: "link time", Verdict.REJECT_COMPILE_TIME: "compile time"}.get(c.cccl.verdict, c.cccl.verdict.value)
        c.problems.append(Problem(Concern.CCCL, "cccl accepts what ptxas rejects (it has no target gate here: the error "
                                  "comes from ptxas, or from the driver's JIT for a PTX-only build)" if not accepted else
                                  f"cccl rejects what ptxas accepts ({when})"))
    if target == RUNTIME_TARGET and v.runtime and accepted:
        c.runtime = runtime.verdict(v.runtime) if runtime else Step(Verdict.NO_HARDWARE)
        if c.runtime.verdict is Verdict.FAIL:
            c.problems.append(Problem(Concern.RUNTIME, "runtime: failed"))
    return c


# What a cell says, for comparing two grids: the verdicts and the SASS opcodes, not the commands
# and outputs behind them (temporary paths differ between runs).
_COMPARED = ("ptxas", "sass", "ptxw", "cccl", "runtime")


def load_verdicts(path: Path) -> dict:
    """{(toolchain, target, variant): {column: verdict}} of a grid's JSON (conformance.json)."""
    try:
        cells = json.loads(path.read_text())["cells"]
        return {(c["toolchain"], c["target"], c["variant"]):
                {k: c[k] if k == "sass" else (c[k] or {}).get("verdict") for k in _COMPARED} for c in cells}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise errors.BadInput(f"cannot read a grid from {path}: {e}") from None


def changes(before: dict, grid: Grid) -> list:
    """The cells of `before` (load_verdicts) that the grid measured differently or no longer has, in
    words; cells the grid adds are no change."""
    now = {(c.toolchain, c.target, c.variant): c for c in grid.cells}
    found = []
    for key, old in before.items():
        name = " ".join(key)
        if key not in now:
            found.append(f"{name}: not in the grid any more")
            continue
        c = now[key]
        new = {k: c.sass if k == "sass" else (getattr(c, k).text if getattr(c, k) else None) for k in _COMPARED}
        found += [f"{name}: {k} {old[k]!r} -> {new[k]!r}" for k in _COMPARED if old[k] != new[k]]
    return found


def to_json(grid: Grid) -> str:
    def step(s):
        return s and {"verdict": s.text, "command": s.command, "output": s.output}

    def cell(c):
        d = asdict(c)
        d.update({k: step(getattr(c, k)) for k in ("ptxas", "ptxw", "cccl", "runtime")})
        d.update(problems=[str(p) for p in c.problems], disagrees=c.disagrees)
        return d

    return json.dumps({**{k: v for k, v in asdict(grid).items() if k != "cells"},
                       "cells": [cell(c) for c in grid.cells]}, indent=1)
