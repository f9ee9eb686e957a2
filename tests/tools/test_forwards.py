"""The forwarding headers at the public paths that moved: each only includes the header it names, the
package test's old_spellings.cu compiles every one of them (tests/package/run.cmake reads their messages), and
nothing else in the repository includes one, so that correct code compiles without their messages."""

import re
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
INCLUDE = REPO / "include"
OLD_SPELLINGS = REPO / "tests/package/consumer/old_spellings.cu"
MESSAGE = re.compile(r'"ptxw: (ptxw/[\w/]+\.h) moved to (ptxw/[\w/]+\.h); this forwarding header is removed')
INCLUDE_LINE = re.compile(r"^\s*#\s*include\s*[<\"](ptxw/[\w/.]+)[>\"]", re.M)


def forwards():
    """{old path: new path} of every forwarding header under include/."""
    found = {}
    for path in INCLUDE.glob("ptxw/**/*.h"):
        m = MESSAGE.search(path.read_text())
        if m:
            found[m.group(1)] = (m.group(2), path)
    return found


class ForwardsTest(unittest.TestCase):
    def test_each_forwards_to_an_existing_header_and_nothing_else(self):
        table = forwards()
        self.assertGreater(len(table), 0)
        for old, (new, path) in table.items():
            self.assertEqual(path.relative_to(INCLUDE).as_posix(), old, f"{path}: names another path")
            self.assertTrue((INCLUDE / new).is_file(), f"{old} forwards to {new}, which does not exist")
            self.assertEqual(INCLUDE_LINE.findall(path.read_text()), [new], f"{old}: includes only {new}")
            self.assertNotIn(old, [m for m in MESSAGE.findall((INCLUDE / new).read_text())], f"{new} forwards back")

    def test_old_spellings_includes_every_forward(self):
        self.assertEqual(sorted(INCLUDE_LINE.findall(OLD_SPELLINGS.read_text())), sorted(forwards()))

    def test_nothing_else_includes_a_forward(self):
        old = set(forwards())
        for folder in ("include", "tests", "examples", "benchmarks", "docs"):
            for path in (REPO / folder).rglob("*"):
                if path == OLD_SPELLINGS or path.suffix not in {".h", ".cuh", ".cu", ".md"} or not path.is_file():
                    continue
                used = old.intersection(INCLUDE_LINE.findall(path.read_text()))
                self.assertFalse(used, f"{path.relative_to(REPO)} includes {sorted(used)}: include where they point")


if __name__ == "__main__":
    unittest.main()
