"""`ptxw sass-diff` end to end: a rebuild of the same sources is no change on any target, a planted
qualifier change between two git revisions is found in the right kernel and target, a source that
does not compile on one side is a difference of its own, the cache recompiles exactly what a header
change touches, baselines, and bad input (exit 2)."""

import json
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path
from unittest import mock

from ptxwtools.core import cache, cubin, deps, errors, targets, toolchain
from ptxwtools.sass_diff.compare import compare_kernels
from ptxwtools.sass_diff.occupancy import DynamicSmem

from test_cli import PTXW

# Branches, a loop and a call-free body that every suite target assembles (PTX ISA 9.0: sm_80 .. sm_121a).
LOOP_PTX = textwrap.dedent("""\
    .version 9.0
    .target sm_80
    .address_size 64
    .visible .entry loop(.param .u64 out, .param .u32 n)
    {
      .reg .b64 %rd<3>;
      .reg .b32 %r<6>;
      .reg .pred %p<2>;
      ld.param.u64 %rd1, [out];
      ld.param.u32 %r1, [n];
      mov.u32 %r2, 0;
      mov.u32 %r3, 1;
    LOOP:
      mul.lo.u32 %r3, %r3, %r1;
      add.u32 %r3, %r3, %r2;
      add.u32 %r2, %r2, 1;
      setp.lt.u32 %p1, %r2, %r1;
      @%p1 bra LOOP;
      atom.global.add.u32 %r4, [%rd1], %r3;
      ret;
    }
    """)

KERNELS = textwrap.dedent("""\
    #include <ptxw/mbarrier.h>
    namespace ptx = cuda::ptx;
    extern "C" __global__ void first(unsigned* out)
    {
      __shared__ ptxw::cluster_barrier bar;
      bar.arrive(ptx::sem_release, ptx::scope_cluster);
    }
    extern "C" __global__ void second(unsigned* out, int n)
    {
      __shared__ ptxw::cta_barrier bar;
      ptxw::phase ph;
      for (int i = 0; i < n; ++i)
        bar.wait(ph);
      *out = ph.parity();
    }
    """)


def sass_diff(tmp, *args, cwd=None):
    out = Path(tmp, "report")
    cmd = [sys.executable, str(PTXW), "sass-diff", "--build-dir", str(Path(tmp, "build")), "--out", str(out), *args]
    run = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)
    report = json.loads(Path(out, "sass-diff.json").read_text()) if Path(out, "sass-diff.json").exists() else None
    return run, report


def git_repo(path: Path, files: dict) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    for cmd in (["init", "-q"], ["config", "user.email", "t@example.com"], ["config", "user.name", "t"]):
        subprocess.run(["git", "-C", str(path), *cmd], check=True)
    commit(path, files, "first")
    return path


def commit(path: Path, files: dict, message: str):
    for name, text in files.items():
        Path(path, name).parent.mkdir(parents=True, exist_ok=True)
        Path(path, name).write_text(text)
    subprocess.run(["git", "-C", str(path), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(path), "commit", "-qm", message], check=True)


def units(report, status=None):
    return {(u["source"], u["target"]): u for u in report["units"] if status is None or u["status"] == status}


def record(*functions):
    return {"status": "ok", "functions": [{"name": n, "demangled": n, "resources": r, "listing": l} for n, r, l in functions]}


class CompareTest(unittest.TestCase):
    """Kernel matching and resources, on records as compile.py writes them."""

    A = ("a", {"REG": 8}, ["/*0000*/ MOV R1, 0x1", "/*0010*/ EXIT"])
    B = ("b", {"REG": 4}, ["/*0000*/ EXIT"])

    def test_kernel_order_does_not_matter(self):
        self.assertEqual(compare_kernels(record(self.A, self.B), record(self.B, self.A), ("old", "new"))[0], [])

    def test_a_resource_change_alone_is_a_change(self):
        more = ("a", {"REG": 10}, self.A[2])
        (k,), _ = compare_kernels(record(self.A), record(more), ("old", "new"))
        self.assertEqual((k.kernel, k.resources, k.diff), ("a", {"REG": [8, 10]}, ""))

    def test_a_resource_one_record_lacks_is_not_compared(self):
        # a baseline recorded before ptxw recorded launch bounds (THREADS) against one that does
        bounded = ("a", {"REG": 8, "THREADS": 512}, self.A[2])
        self.assertEqual(compare_kernels(record(self.A), record(bounded), ("old", "new"))[0], [])
        unbounded = ("a", {"REG": 8, "THREADS": 0}, self.A[2])
        (k,), _ = compare_kernels(record(unbounded), record(bounded), ("old", "new"))
        self.assertEqual(k.resources, {"THREADS": [0, 512]})

    def test_added_and_removed_kernels(self):
        got, _ = compare_kernels(record(self.A), record(self.B), ("old", "new"))
        self.assertEqual([(k.kernel, k.change) for k in got], [("a", "removed"), ("b", "added")])
        self.assertEqual(got[1].opcodes, {"control": [0, 1]})

    def test_every_kernel_has_its_resources_changed_or_not(self):
        a = ("k", {"REG": 32, "SHARED": 4096, "THREADS": 256}, ["/*0000*/ EXIT"])
        changes, table = compare_kernels(record(a, self.B), record(a, self.B), ("old", "new"), "sm_90a")
        self.assertEqual(changes, [])
        (row,) = [r for r in table if r["kernel"] == "k"]
        self.assertEqual(row["old"], row["new"])
        # 256 threads x 32 registers: 8 blocks by registers, 8 warps each: all 64 warp slots of an sm_90
        self.assertEqual(row["new"], {"instructions": 1, "sync/fence": 0, "REG": 32, "SHARED": 4096, "THREADS": 256,
                                      "OCCUPANCY": 100})

    def test_occupancy_counts_the_dynamic_shared_memory_of_the_launch(self):
        a = ("k", {"REG": 32, "SHARED": 4096, "THREADS": 256}, ["/*0000*/ EXIT"])
        b = ("other", {"REG": 32, "SHARED": 4096, "THREADS": 256}, ["/*0000*/ EXIT"])

        def occupancy(*specs):
            _, table = compare_kernels(record(a, b), record(a, b), ("old", "new"), "sm_90a",
                                       dynamic_smem=DynamicSmem.parse(specs))
            return {r["kernel"]: r["new"]["OCCUPANCY"] for r in table}

        # 4096 static + 45056 dynamic + 1024 reserved bytes a block: 4 blocks of 8 warps in 228 KiB, half the slots
        self.assertEqual(occupancy("45056"), {"k": 50, "other": 50})
        self.assertEqual(occupancy("45056", "k=0"), {"k": 100, "other": 50})  # a kernel's own entry wins
        self.assertEqual(occupancy(), {"k": 100, "other": 100})
        with self.assertRaisesRegex(errors.BadInput, "expected BYTES or KERNEL=BYTES"):
            DynamicSmem.parse(["k=48K"])


class FirstErrorTest(unittest.TestCase):
    """The error a report shows names the user's file and line, also when it is in a header."""

    def test_an_error_in_a_header_names_the_line_of_the_source_that_reached_it(self):
        from ptxwtools.sass_diff.compare import first_error

        message = textwrap.dedent("""\
            $TREE/include/inc.h(1): error: expression must have class type but it has type "int"
              template <class T> __attribute__((device)) T twice(T x) { return x.nope(); }
                                                                               ^
                      detected during instantiation of "T twice(T) [with T=int]" at line 5 of $TREE/src/k.cu

            1 error detected in the compilation of "$TREE/src/k.cu".""")
        self.assertEqual(first_error(message, "src/k.cu"), 'include/inc.h(1): error: expression must have class type '
                         'but it has type "int" (reached from src/k.cu:5)')
        self.assertEqual(first_error("$TREE/src/k.cu(3): error: expected a \";\"", "src/k.cu"),
                         'src/k.cu(3): error: expected a ";"')


class TerminalTableTest(unittest.TestCase):
    def test_at_most_120_columns_with_kernels_by_their_own_name(self):
        from ptxwtools.sass_diff import report

        kernel = ("void cub::_V_300500_SM_900::detail::scan::DeviceScanKernel<cub::_V_300500_SM_900::detail::scan::"
                  "policy_selector_from_types<int const*, int*, int, unsigned int, cuda::std::__4::plus<void>, false>, "
                  "int const*>(int const*, int*, int)")
        rows = [("a/very/long/path/to/the/sources/of/a/project/kernels/scan_by_key.cu", "sm_100a", kernel,
                 "SASS; " + ", ".join(f"class{i} {i}→{i + 1}" for i in range(20))), ("k.cu", "sm_90a", "", "added")]
        lines = report.table(rows)
        self.assertLessEqual(max(map(len, lines)), 120, lines)
        self.assertIn(" DeviceScanKernel ", lines[1])
        self.assertIn("  …/project/kernels/scan_by_key.cu  ", lines[1])
        self.assertTrue(lines[1].endswith("…"))


class RebuildTest(unittest.TestCase):
    def test_rebuilding_the_same_sources_is_no_change_on_every_target(self):
        # The working tree against HEAD: two trees, every unit compiled twice (--no-cache).
        with tempfile.TemporaryDirectory() as tmp:
            repo = git_repo(Path(tmp, "repo"), {"loop.ptx": LOOP_PTX, "kernels.cu": KERNELS})
            run, report = sass_diff(tmp, "--rev", "HEAD", "--no-cache", "loop.ptx", "--targets",
                                    *targets.SUITE_TARGETS, cwd=repo)
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
            self.assertEqual(report["compiled"], 2 * len(targets.SUITE_TARGETS))
            self.assertEqual(len(units(report, "same")), len(targets.SUITE_TARGETS), run.stdout)
            run, report = sass_diff(tmp, "--rev", "HEAD", "--no-cache", "--fail-on-change", "kernels.cu",
                                    "--targets", "sm_90a", cwd=repo)
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
            self.assertEqual(list(units(report, "same")), [("kernels.cu", "sm_90a")])


class RevisionsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.repo = git_repo(Path(cls.tmp.name, "repo"), {"src/kernels.cu": KERNELS, "src/other.cu": KERNELS})
        # the planted change: one qualifier of one kernel; and a source that breaks
        commit(cls.repo, {"src/kernels.cu": KERNELS.replace("ptx::sem_release, ptx::scope_cluster",
                                                            "ptx::sem_relaxed, ptx::scope_cluster"),
                          "src/other.cu": KERNELS.replace("*out = ph.parity();", "*out = ph.parity()")}, "planted")
        cls.run_, cls.report = sass_diff(cls.tmp.name, "--rev", "HEAD~1", "--rev", "HEAD", "src/kernels.cu", "src/other.cu",
                                         "--targets", "sm_90a", "sm_100a", cwd=cls.repo)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_planted_qualifier_change_found_in_its_kernel_and_targets(self):
        changed = units(self.report, "changed")
        for target in ("sm_90a", "sm_100a"):
            u = changed[("src/kernels.cu", target)]
            self.assertEqual([k["kernel"] for k in u["kernels"]], ["first"])  # not "second"
            diff = u["kernels"][0]["diff"]
            self.assertIn("-MEMBAR.ALL.GPU", diff)  # release.cluster fences first; relaxed does not
            self.assertNotIn("+MEMBAR", diff)
            self.assertEqual(u["kernels"][0]["opcodes"]["sync/fence"][0] - u["kernels"][0]["opcodes"]["sync/fence"][1], 4)
        self.assertIn("first", self.run_.stdout)

    def test_a_source_that_breaks_is_a_difference_of_its_own(self):
        u = units(self.report)[("src/other.cu", "sm_90a")]
        self.assertEqual(u["status"], "compiles on one side only")
        self.assertIn("does not compile", u["note"])
        self.assertIn("src/other.cu(15): error: expected a \";\"", u["note"])  # nvcc's own message, the user's line
        self.assertEqual(self.run_.returncode, 0, self.run_.stderr)  # reported, and the rest still diffed
        self.assertIn("2 compile on one side only", self.run_.stdout)

    def test_fail_on_change(self):
        run, _ = sass_diff(self.tmp.name, "--rev", "HEAD~1", "--rev", "HEAD", "--fail-on-change", "src/kernels.cu",
                           "--targets", "sm_90a", cwd=self.repo)
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        self.assertIn("compiled 0", run.stdout)  # the first run's cache

    def test_reports(self):
        md = Path(self.tmp.name, "report", "sass-diff.md").read_text()
        self.assertIn("-MEMBAR.ALL.GPU", md)
        html = Path(self.tmp.name, "report", "sass-diff.html").read_text()
        self.assertIn("class='del'>-MEMBAR.ALL.GPU", html)
        u = units(self.report)[("src/kernels.cu", "sm_90a")]
        self.assertIn("ptxas -v --gpu-name=sm_90a", " ".join(u["old"]["commands"]))
        self.assertIn("V13.0", u["old"]["provenance"]["tki_toolVersion"])

    def test_a_revision_that_does_not_build_is_a_change(self):
        with tempfile.TemporaryDirectory() as tmp:
            repo = git_repo(Path(tmp, "repo"), {"k.cu": KERNELS})
            commit(repo, {"k.cu": KERNELS.replace("*out = ph.parity();", "*out = ph.parity()")}, "broken")
            run, report = sass_diff(tmp, "--rev", "HEAD~1", "--rev", "HEAD", "k.cu", "--targets", "sm_90a",
                                    "--fail-on-change", cwd=repo)
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        self.assertEqual(units(report)[("k.cu", "sm_90a")]["status"], "compiles on one side only")
        self.assertRegex(run.stdout, r"k.cu +sm_90a +HEAD \([0-9a-f]+\).*: does not compile: k.cu\(15\): error: expected")

    def test_nothing_that_compiles_is_a_failure(self):
        with tempfile.TemporaryDirectory() as tmp:
            repo = git_repo(Path(tmp, "repo"), {"k.cu": KERNELS})
            commit(repo, {"k.cu": KERNELS + "\n"}, "same")
            run, report = sass_diff(tmp, "--rev", "HEAD~1", "--rev", "HEAD", "k.cu", "--targets", "sm_90a", "--",
                                    "--no-such-nvcc-flag", cwd=repo)
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        self.assertIn("ptxw sass-diff: nothing compiled on either side: k.cu for sm_90a", run.stderr)


class CacheTest(unittest.TestCase):
    def test_a_header_change_recompiles_what_includes_it(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp, "src")
            root.mkdir()
            Path(root, "inc").mkdir()
            Path(root, "inc", "value.h").write_text("#define VALUE 3\n")
            Path(root, "k.cu").write_text('#include "value.h"\nextern "C" __global__ void k(int* o) { *o = VALUE; }\n')
            Path(root, "j.cu").write_text('extern "C" __global__ void j(int* o) { *o = 1; }\n')
            args = ["--root", str(root), "--baseline", str(Path(tmp, "b.json")), str(root / "k.cu"), str(root / "j.cu"),
                    "--targets", "sm_90a", "--", f"-I{root / 'inc'}"]
            run, report = sass_diff(tmp, "--update-baseline", *args)
            self.assertEqual((run.returncode, report["compiled"]), (0, 2), run.stdout + run.stderr)
            # a first baseline: nothing to compare with, which is no failure
            self.assertRegex(run.stdout, r"^recorded 2 kernels of 2 source x target pairs\n")
            self.assertNotRegex(run.stdout, "not built|one side only")
            run, report = sass_diff(tmp, "--fail-on-change", *args)
            self.assertEqual((run.returncode, report["compiled"]), (0, 0), run.stdout + run.stderr)
            Path(root, "inc", "value.h").write_text("#define VALUE 4\n")
            run, report = sass_diff(tmp, "--fail-on-change", *args)
            self.assertEqual((run.returncode, report["compiled"]), (1, 1), run.stdout + run.stderr)
            self.assertEqual([k for (k, _), u in units(report).items() if u["status"] == "changed"], ["k.cu"])
            diff = units(report)[("k.cu", "sm_90a")]["kernels"][0]["diff"].splitlines()[2:]
            self.assertEqual(len([x for x in diff if x[0] in "+-"]), 2, diff)  # the constant's one instruction


class BaselineUpdateTest(unittest.TestCase):
    def test_an_update_of_some_sources_keeps_the_others_and_names_what_it_drops(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp, "src")
            root.mkdir()
            for name, value in (("k", 1), ("j", 2), ("g", 3)):
                Path(root, f"{name}.cu").write_text(f'extern "C" __global__ void {name}(int* o) {{ *o = {value}; }}\n')
            baseline = Path(tmp, "b.json")
            common = ["--root", str(root), "--baseline", str(baseline), "--targets", "sm_90a"]
            run, _ = sass_diff(tmp, "--update-baseline", *common, *(str(root / f"{n}.cu") for n in "kjg"))
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
            Path(root, "k.cu").write_text('extern "C" __global__ void k(int* o) { *o = 7; }\n')
            Path(root, "g.cu").unlink()
            run, _ = sass_diff(tmp, "--update-baseline", *common, str(root / "k.cu"))
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
            self.assertIn("2 source x target pairs: 1 from this run, 1 kept from the baseline", run.stdout)
            self.assertIn("dropped from the baseline (1: covered here without a result, or the source is gone): "
                          "g.cu @ sm_90a", run.stdout)
            recorded = json.loads(baseline.read_text())["units"]
            self.assertEqual(sorted(recorded), ["j.cu @ sm_90a", "k.cu @ sm_90a"])
            # j.cu's pair is the first run's; k.cu's is the new one: a diff of both against the tree is clean
            run, _ = sass_diff(tmp, "--fail-on-change", *common, str(root / "k.cu"), str(root / "j.cu"))
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)


class ToolchainsTest(unittest.TestCase):
    """What ptxas 13.5 does differently from 13.0 (../shared notes, measured again here)."""

    KNOWN = textwrap.dedent("""\
        #include <cstdint>
        extern "C" __global__ void unused_relaxed_try_wait()
        {
          __shared__ uint64_t bar;
          uint32_t ready;
          asm volatile("{\\n.reg .pred p;\\nmbarrier.try_wait.parity.relaxed.cta.shared::cta.b64 p, [%1], 0;\\n"
                       "selp.b32 %0, 1, 0, p;\\n}" : "=r"(ready) : "r"((uint32_t) __cvta_generic_to_shared(&bar)) : "memory");
        }
        extern "C" __global__ void multicast_bulk_copy(const int4* src)
        {
          __shared__ alignas(16) int4 tile[4];
          __shared__ uint64_t bar;
          asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                       " [%0], [%1], 64, [%2], %3;" :: "r"((uint32_t) __cvta_generic_to_shared(tile)), "l"(src),
                       "r"((uint32_t) __cvta_generic_to_shared(&bar)), "h"((uint16_t) 3) : "memory");
        }
        """)

    def test_13_0_against_13_5(self):
        root = dict(zip(deps.TOOLCHAINS, deps.toolchain_roots()))["13.5.37"]
        if not (root / "bin" / "nvcc").exists():
            self.skipTest("CUDA 13.5 not installed (tools/ptxw setup --toolchains)")
        with tempfile.TemporaryDirectory() as tmp:
            Path(tmp, "known.cu").write_text(self.KNOWN)
            run, report = sass_diff(tmp, "--cuda-root", "system", "--cuda-root", "13.5", "known.cu",
                                    "--targets", "sm_90a", "sm_120a", cwd=tmp)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        got = units(report)
        for target in ("sm_90a", "sm_120a"):
            (k,) = got[("known.cu", target)]["kernels"]
            self.assertEqual(k["kernel"], "unused_relaxed_try_wait")
            self.assertIn("-SYNCS.PHASECHK.TRANS64.TRYWAIT", k["diff"])
            self.assertEqual(k["opcodes"]["sync/fence"], [1, 0])
        # sm_120's multicast bulk copy: a call (to a loop of plain copies) with both toolchains, the
        # multicast instruction on sm_90a: the same in both, so not a change
        for target, side in (("sm_120a", "old"), ("sm_120a", "new"), ("sm_90a", "new")):
            (f,) = [f for f in got[("known.cu", target)][side]["functions"] if f["name"] == "multicast_bulk_copy"]
            text = "\n".join(f["listing"])
            self.assertIn("CALL.ABS.NOINC" if target == "sm_120a" else "UBLKCP.S.G.MULTICAST", text)


class AssemblerOnlyTest(unittest.TestCase):
    def test_cu_sources_are_not_comparable_ptx_ones_are_compared(self):
        with tempfile.TemporaryDirectory() as tmp:
            bin_dir = Path(tmp, "cuda", "bin")
            bin_dir.mkdir(parents=True)
            bin_dir.joinpath("ptxas").symlink_to(toolchain.find_toolchain().ptxas)
            Path(tmp, "k.cu").write_text(KERNELS)
            Path(tmp, "loop.ptx").write_text(LOOP_PTX)
            run, report = sass_diff(tmp, "--cuda-root", "system", "--cuda-root", str(bin_dir.parent), "k.cu", "loop.ptx",
                                    "--targets", "sm_90a", "--fail-on-change", cwd=tmp)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        got = units(report)
        self.assertEqual(got[("k.cu", "sm_90a")]["status"], "not comparable")
        self.assertIn("no nvcc in this toolchain", got[("k.cu", "sm_90a")]["note"])
        self.assertEqual(got[("loop.ptx", "sm_90a")]["status"], "same")


class CodeDigestTest(unittest.TestCase):
    """A cached result is keyed by the code that made it: the modules a cache user imports, transitively,
    found from the code (cache.code_digest), so an edit of compile.py's nvcc flags, or a row of the
    forms table (a module of a package), reaches the conformance grid's cells too."""

    def test_what_each_cache_user_is_made_by(self):
        for user, needs in (("conformance/grid", {"core/compile", "core/gate", "core/variants", "core/probes", "core/sass",
                                                  "core/cubin", "forms/table"}),
                            ("sass_diff/build", {"core/compile", "core/cubin", "core/sass"}),
                            ("codegen/update_checks", {"core/compile", "core/sass"}),
                            ("sass_diff/compare", {"core/sass", "sass_diff/pairing", "sass_diff/occupancy"})):
            with tempfile.TemporaryDirectory() as tmp:
                shutil.copytree(toolchain.REPO / "tools" / "ptxwtools", Path(tmp, "ptxwtools"))

                def digest():
                    code = f"from ptxwtools.core import cache; print(cache.code_digest('{user}'))"
                    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp,
                                          check=True).stdout

                for module in sorted(needs):
                    with self.subTest(user=user, module=module):
                        before = digest()
                        with Path(tmp, "ptxwtools", f"{module}.py").open("a") as f:
                            f.write("# an edit\n")
                        self.assertNotEqual(digest(), before)
                before = digest()
                Path(tmp, "ptxwtools", "mutate", "mutants.py").write_text("# imported by none of them\n")
                self.assertEqual(digest(), before)


class CacheWriteTest(unittest.TestCase):
    def test_an_interrupted_write_leaves_the_old_value(self):
        with tempfile.TemporaryDirectory() as tmp:
            c = cache.Cache(Path(tmp))
            c.put("unit", "k", {"v": 1})
            with mock.patch("ptxwtools.core.cache.os.replace", side_effect=KeyboardInterrupt), \
                    self.assertRaises(KeyboardInterrupt):
                c.put("unit", "k", {"v": 2})
            self.assertEqual(c.get("unit", "k"), {"v": 1})
            self.assertEqual([p.name for p in Path(tmp, "unit").iterdir()], ["k.json"])  # no temporary left


class BadInputTest(unittest.TestCase):
    def check(self, args, message, cwd=None):
        with tempfile.TemporaryDirectory() as tmp:
            Path(tmp, "k.cu").write_text(KERNELS)
            run, report = sass_diff(tmp, *args, cwd=cwd or tmp)
            self.assertEqual(run.returncode, 2, run.stdout + run.stderr)
            self.assertIn(f"ptxw sass-diff: {message}", run.stderr)
            self.assertIsNone(report)  # nothing compiled, nothing written
            self.assertFalse(Path(tmp, "build").exists())

    def test_unknown_target(self):
        self.check(["--cuda-root", "system", "--cuda-root", "system", "k.cu", "--targets", "sm_9x"], "unknown target 'sm_9x'")

    def test_target_no_toolchain_knows(self):
        self.check(["--cuda-root", "system", "--cuda-root", "system", "k.cu", "--targets", "sm_99"],
                   "unknown target 'sm_99': no toolchain of this diff knows it")

    def test_missing_toolchain(self):
        self.check(["--cuda-root", "system", "--cuda-root", "/nowhere/cuda", "k.cu", "--targets", "sm_90a"],
                   "no CUDA toolchain at /nowhere/cuda")

    def test_unknown_revision(self):
        self.check(["--rev", "no-such-branch", "tools/ptxw", "--targets", "sm_90a"],
                   "'no-such-branch' is not a revision", cwd=toolchain.REPO)

    def test_missing_source_and_baseline(self):
        self.check(["--cuda-root", "system", "--cuda-root", "system", "nope.cu", "--targets", "sm_90a"], "no source nope.cu")
        self.check(["--baseline", "nope.json", "k.cu", "--targets", "sm_90a"], "no baseline nope.json")

    def test_nothing_to_compare(self):
        self.check(["k.cu", "--targets", "sm_90a"], "nothing to compare")


class ProvenanceTest(unittest.TestCase):
    def test_the_elf_note_reads_as_nvdisasm_emits_it(self):
        nvdisasm = toolchain.find_disassembler().parent / "nvdisasm"
        if not shutil.which(str(nvdisasm)):
            self.skipTest("no nvdisasm")
        with tempfile.TemporaryDirectory() as tmp:
            ptx, cub = Path(tmp, "loop.ptx"), Path(tmp, "loop.cubin")
            ptx.write_text(LOOP_PTX)
            tc = toolchain.find_toolchain()
            subprocess.run([str(tc.ptxas), "--gpu-name=sm_90a", "-O2", str(ptx), "-o", str(cub)], check=True)
            emitted = json.loads(subprocess.run([str(nvdisasm), "--emit-json", str(cub)], capture_output=True,
                                                text=True, check=True).stdout)[0][".note.nv.tkinfo"]
            ours = cubin.provenance(cub.read_bytes())
        self.assertEqual(ours, {k: v.strip() for k, v in emitted.items() if k in ours})
        self.assertIn("-O 2", ours["tki_toolOptions"])
        self.assertIn(tc.version, ours["tki_toolVersion"])


if __name__ == "__main__":
    unittest.main()
