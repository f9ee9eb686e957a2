"""Every example runs: each line of `ptxw <command> --help` that starts with `ptxw `, and each command of
docs/sass-diff.md's code blocks, run in a small git repository holding the files they name (k.cu,
src/k.cu with include/scale.h, kernel.cu and kernel.checks, gen.cu, build/compile_commands.json,
build/codegen), in order, each exiting 0.

Not run here: `tools/ptxw codegen` (ptxw's own codegen suite: the codegen/* CTests run it), and the
commands whose help has no example (setup, conformance, test, mutate: ptxw's own suites)."""

import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

from ptxwtools import cli
from ptxwtools.core import deps, toolchain

from test_cli import PTXW
from test_sass_diff import git_repo

DOCS = toolchain.REPO / "docs" / "sass-diff.md"
NOT_RUN = ("tools/ptxw codegen",)

FILES = {
    "k.cu": 'extern "C" __global__ void k(float* o, int n)\n{\n  for (int i = 0; i < n; ++i)\n    o[i] *= 2.5f;\n}\n',
    "include/scale.h": "#define SCALE 3.0f\n",
    "src/k.cu": '#include "scale.h"\nextern "C" __global__ void k(float* o) { *o *= SCALE; }\n',
    "kernel.cu": textwrap.dedent("""\
        #include <ptxw/mbarrier.h>
        extern "C" __global__ void ptxw_k(int* p)
        {
          __shared__ ptxw::cta_barrier bar;
          bar.init(ptxw::arrivals{1});
          p[N] = 1;
        }
        extern "C" __global__ void ref_k(int* p)
        {
          __shared__ ptxw::cta_barrier bar;
          bar.init(ptxw::arrivals{1});
          p[N] = 1;
        }
        """),
    "kernel.checks": "// PTX: st.global.{{.*}}+16]\n// SASS: SYNCS.EXCH.64\n",
    "gen.cu": textwrap.dedent("""\
        // REQUIRES: mbarrier
        // RUN: %ptxw-compile %s -o %t
        // RUN: %sass-generated=GEN %s --input-file=%t.sass
        extern "C" __global__ void ptxw_store(int* p) { p[N] = 1; }
        """),
    ".gitignore": "build/\nout/\n",
}


def help_examples() -> list:
    out = []
    for name in ("sass-diff", "compile", "sass-equal", "check", "update-checks", "gate"):
        text = subprocess.run([sys.executable, str(PTXW), name, "--help"], capture_output=True, text=True).stdout
        out += [line.strip() for line in text.splitlines() if line.strip().startswith("ptxw ")]
    return out


def doc_examples(path: Path) -> list:
    """The tools/ptxw commands of a Markdown file's code blocks (fenced or indented), comments dropped."""
    out, fenced = [], False
    for line in path.read_text().splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        if fenced or line.startswith("    "):
            command = line.strip().split("  #")[0].strip()
            if command.startswith("tools/ptxw "):
                out.append(command)
    return out


class ExamplesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.repo = git_repo(Path(cls.tmp.name, "repo"), FILES)
        subprocess.run(["git", "-C", str(cls.repo), "branch", "-M", "main"], check=True)
        build = cls.repo / "build"
        build.mkdir()
        (build / "compile_commands.json").write_text(json.dumps([{
            "directory": str(build), "file": str(cls.repo / "src" / "k.cu"),
            "command": f"/usr/local/cuda/bin/nvcc -I../include --generate-code=arch=compute_90a,code=[sm_90a] -x cu -c "
                       f"{cls.repo / 'src' / 'k.cu'} -o k.o"}]))
        out = cls.run_ptxw(["compile", "k.cu", "--target", "sm_90a", "-o", "build/codegen/k"])  # a codegen build
        assert out.returncode == 0, out.stderr

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    @classmethod
    def run_ptxw(cls, args):
        env = dict(os.environ, PTXW_DEPS_DIR=str(toolchain.deps_dir()))
        return subprocess.run([sys.executable, str(PTXW), *args], cwd=cls.repo, capture_output=True, text=True, env=env)

    def run_example(self, example: str):
        words = example.split()
        words = words[1:] if words[0] in ("ptxw", "tools/ptxw") else words
        if "13.5" in words and not (dict(zip(deps.TOOLCHAINS, deps.toolchain_roots()))["13.5.37"] / "bin" / "nvcc").exists():
            self.skipTest("CUDA 13.5 not installed (tools/ptxw setup --toolchains)")
        out = self.run_ptxw(words)
        self.assertEqual(out.returncode, 0, f"{example}\n{out.stdout}{out.stderr}")
        return out

    def test_the_help_examples(self):
        examples = help_examples()
        self.assertGreaterEqual(len(examples), 10, examples)
        for example in examples:
            with self.subTest(example):
                self.run_example(example)
        self.assertIn("// GEN-SASS", (self.repo / "gen.cu").read_text())  # update-checks wrote its checks
        self.assertTrue((self.repo / "sass.json").is_file())  # the baseline the --update-baseline example records

    def test_the_documentation_examples(self):
        examples = doc_examples(DOCS)
        self.assertGreaterEqual(len(examples), 7, examples)
        for example in examples:
            if example.startswith(NOT_RUN):
                continue
            with self.subTest(example):
                self.run_example(example)
        self.assertTrue((self.repo / "tests" / "sass-baseline" / "codegen.json").is_file())

    def test_examples_parse_as_their_command_says(self):
        a = cli.parse(["sass-diff", "k.cu", "--targets", "sm_90a,sm_100a", "--cuda-root", "system", "--cuda-root", "13.5"])
        self.assertEqual((a.sources, a.targets, a.cuda_root), (["k.cu"], ["sm_90a", "sm_100a"], ["system", "13.5"]))
        self.assertTrue(all(re.match(r"^(tools/)?ptxw \w", e) for e in help_examples() + doc_examples(DOCS)))


if __name__ == "__main__":
    unittest.main()
