"""The variant table (tools/ptxwtools/core/variants.py) against what it names: every runtime-test pattern
matches a test of a recorded GPU run, what `conformance --runtime-results` reads (a pattern that
matches none leaves the form's runtime column at "not run" for good), and the runtime results name
typed and value-parameterised suites the way the patterns spell them."""

import tempfile
import textwrap
import unittest
from pathlib import Path

from ptxwtools.conformance import grid
from ptxwtools.core import variants

# ptxw_runtime_tests.xml of one tests/runtime/run_on_gpu.sh run on an H100.
RECORDED = Path(__file__).parent / "data" / "runtime-results-h100.xml"


class RuntimePatternsTest(unittest.TestCase):
    def test_every_pattern_matches_a_recorded_test(self):
        names = grid.RuntimeResults.from_xml(RECORDED, str(RECORDED)).results
        for v in variants.VARIANTS:
            for pattern in v.runtime:
                with self.subTest(variant=v.id, pattern=pattern):
                    self.assertTrue(any(grid._glob(pattern, n) for n in names),
                                    f"{v.id}: '{pattern}' matches no test of {RECORDED.name}")

    def test_suite_names_of_typed_and_parameterised_tests(self):
        xml = textwrap.dedent("""\
            <testsuites>
              <testsuite name="ClcChecked/Counter">
                <testcase name="R1" type_param="counter_t" classname="ClcChecked/Counter"/>
              </testsuite>
              <testsuite name="Sizes/MbarrierTx">
                <testcase name="Copy/16" value_param="16" classname="Sizes/MbarrierTx"><failure/></testcase>
              </testsuite>
              <testsuite name="MbarrierPhase"><testcase name="Flips" classname="MbarrierPhase"/></testsuite>
            </testsuites>""")
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp, "run.xml")
            path.write_text(xml)
            results = grid.RuntimeResults.from_xml(path, "run").results
        self.assertEqual(results, {"ClcChecked.R1/Counter": "pass", "MbarrierTx.Copy/16": "fail",
                                   "MbarrierPhase.Flips": "pass"})


if __name__ == "__main__":
    unittest.main()
