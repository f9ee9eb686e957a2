"""The codegen suite's test format (tests/codegen/lit.cfg.py): lit's shell tests, with %nvcc and
%ptxw-compile strict about warnings except in the tests the configuration names as known to warn.
A module of its own because lit hands the format to its worker processes by name."""

from pathlib import Path

import lit.formats
import lit.TestRunner


class ShTestWithoutWarnings(lit.formats.ShTest):
    def __init__(self, source_root: Path, known_warnings, nvcc: str, compile_: str):
        super().__init__(execute_external=False)
        self.source_root, self.known_warnings, self.nvcc, self.compile_ = source_root, set(known_warnings), nvcc, compile_

    def execute(self, test, lit_config):
        known = Path(test.getSourcePath()).relative_to(self.source_root).as_posix() in self.known_warnings
        # Per-test substitutions come first, before the configuration's.
        strict = [("%nvcc", self.nvcc if known else self.nvcc + " -Werror all-warnings"),
                  ("%ptxw-compile", self.compile_ + " --allow-warnings" if known else self.compile_)]
        return lit.TestRunner.executeShTest(test, lit_config, self.execute_external, strict)
