"""Target names and the check prefixes derived from them (tools/ptxwtools/core/targets.py)."""

import unittest

from ptxwtools.core import targets


class TargetsTest(unittest.TestCase):
    def test_prefixes_all_family_target(self):
        self.assertEqual(targets.parse("sm_100a").prefixes("PTX"), ["PTX", "PTX-SM10X", "PTX-SM100A"])
        self.assertEqual(targets.parse("sm_121a").prefixes("SASS"), ["SASS", "SASS-SM12X", "SASS-SM121A"])
        self.assertEqual(targets.parse("sm_90a").prefixes("SASS"), ["SASS", "SASS-SM9X", "SASS-SM90A"])
        self.assertEqual(targets.parse("sm_103f").family, "SM10X")

    def test_bad_names(self):
        for bad in ("sm100a", "sm_100x", "compute_100a", "", "sm_1", "sm_100af"):
            with self.assertRaises(targets.UnknownTarget, msg=bad):
                targets.parse(bad)

    def test_suite_targets_parse(self):
        for name in targets.SUITE_TARGETS:
            targets.parse(name)


if __name__ == "__main__":
    unittest.main()
