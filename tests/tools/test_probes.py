"""ptxas acceptance probes on the installed toolchain. Features turn tests on and off, so a probe
that never assembles (a typo in its PTX) would silently make tests UNSUPPORTED: these pin what
ptxas 13.0 is known to accept (../shared/ptxw-notes.md section 2) and every probe's positive case.
A form of a newer PTX ISA than the installed toolchain speaks (Variant.isa) is assembled by a toolchain
`ptxw setup --toolchains` installed that speaks it."""

import unittest

from ptxwtools.core import deps, probes, toolchain, variants

TC = toolchain.find_toolchain()


def isa(tc) -> int:
    """The toolchain's PTX ISA as the qualifier table writes it: 9.0 is 900."""
    major, minor = tc.ptx_isa.split(".")
    return int(major) * 100 + int(minor) * 10


def speaking(v):
    """TC, or an installed toolchain whose PTX ISA has the variant's form; None if there is none."""
    if v.isa <= isa(TC):
        return TC
    roots = [r for r in deps.toolchain_roots() if (r / "bin" / "ptxas").exists()]
    return next((tc for tc in map(toolchain.Toolchain, roots) if isa(tc) >= v.isa), None)


class ProbesTest(unittest.TestCase):
    def test_hopper(self):
        got = probes.accepted_features(TC, "sm_90a")
        self.assertLessEqual({"mbarrier", "mbarrier-tx", "mbarrier-relaxed", "fence-proxy-async",
                              "fence-sync-restrict"}, got)
        self.assertNotIn("clc", got)

    def test_every_probe_assembles_somewhere(self):
        got = probes.accepted_features(TC, "sm_100a")
        self.assertEqual({f for f, v in probes.FEATURES.items() if variants.BY_ID[v].isa <= isa(TC)}, got)

    def test_every_variant_assembles_on_sm_100a(self):
        # A variant whose PTX never assembles would make its grid row all "rejected".
        for v in variants.VARIANTS:
            with self.subTest(v.id):
                tc = speaking(v)
                if tc is None:
                    self.skipTest(f"no installed toolchain speaks PTX ISA {v.isa} (`ptxw setup --toolchains`)")
                verdict = probes.assemble(tc, "sm_100a", v.ptx)
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
