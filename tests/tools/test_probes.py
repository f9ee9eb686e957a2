"""ptxas acceptance probes on the installed toolchain. Features turn tests on and off, so a probe
that never assembles (a typo in its PTX) would silently make tests UNSUPPORTED: these pin what
ptxas 13.0 is known to accept (../shared/ptxw-notes.md section 2) and every probe's positive case."""

import unittest

from ptxwtools import probes, toolchain, variants

TC = toolchain.find_toolchain()


class ProbesTest(unittest.TestCase):
    def test_hopper(self):
        got = probes.accepted_features(TC, "sm_90a")
        self.assertLessEqual({"mbarrier", "mbarrier-tx", "mbarrier-relaxed", "fence-proxy-async",
                              "fence-sync-restrict"}, got)
        self.assertNotIn("clc", got)

    def test_every_probe_assembles_somewhere(self):
        got = probes.accepted_features(TC, "sm_100a")
        self.assertEqual(set(probes.FEATURES), got)

    def test_every_variant_assembles_on_sm_100a(self):
        # A variant whose PTX never assembles would make its grid row all "rejected".
        for v in variants.VARIANTS:
            with self.subTest(v.id):
                verdict = probes.assemble(TC, "sm_100a", v.ptx)
                self.assertTrue(verdict.accepted, verdict.output)

    def test_multicast_needs_a_family_or_arch_specific_target(self):
        self.assertNotIn("clc-multicast", probes.accepted_features(TC, "sm_100"))
        self.assertIn("clc", probes.accepted_features(TC, "sm_100"))
        self.assertIn("clc-multicast", probes.accepted_features(TC, "sm_100f"))

    def test_sm80_has_no_tx_count(self):
        got = probes.accepted_features(TC, "sm_80")
        self.assertIn("mbarrier", got)
        self.assertNotIn("mbarrier-tx", got)

    def test_verdict_keeps_command_and_message(self):
        v = probes.assemble(TC, "sm_90a", "clusterlaunchcontrol.try_cancel.async.shared::cta."
                            "mbarrier::complete_tx::bytes.b128 [slot], [bar];")
        self.assertFalse(v.accepted)
        self.assertIn("--gpu-name=sm_90a", v.command)
        self.assertIn("requires .target sm_100", v.output)


if __name__ == "__main__":
    unittest.main()
