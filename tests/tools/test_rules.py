"""The rules are written once, in include/ptxw/core/rules.h: docs/rules.md, the headers' messages and
the diagnostics tests must say the same number and name."""

import re
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RULE = re.compile(r'#define PTXW_RULE_R(\d+) \((\d+), (\w+), "([^"]+)", "([^"]+)"\)')
NAMED = re.compile(r'ptxw: R(\d+) ([a-z ]+):')


def rules():
    """{number: name} from rules.h, checked to be self-consistent."""
    text = (REPO / "include/ptxw/core/rules.h").read_text()
    table = {}
    for macro, number, _, name, _ in RULE.findall(text):
        assert macro == number, f"PTXW_RULE_R{macro} says R{number}"
        table[int(number)] = name
    return table, text


class RulesTest(unittest.TestCase):
    def test_every_rule_is_listed_once(self):
        table, text = rules()
        self.assertEqual(sorted(table), list(range(1, len(table) + 1)), "rule numbers are 1..n without gaps")
        listed = [int(n) for n in re.findall(r"PTXW_APPLY\(X, PTXW_RULE_R(\d+)\)", text)]
        self.assertEqual(listed, sorted(table), "PTXW_RULES lists every rule, in order")

    def test_docs_table_names_each_rule(self):
        table, _ = rules()
        rows = dict(re.findall(r"^\| R(\d+) \| \*\*([^*]+)\*\*:", (REPO / "docs/rules.md").read_text(), re.M))
        self.assertEqual({int(n): name for n, name in rows.items()}, table)

    def test_messages_use_the_rule_names(self):
        table, _ = rules()
        sources = [*REPO.glob("include/ptxw/**/*.h"), *REPO.glob("tests/codegen/**/*.cu")]
        for path in sources:
            for number, name in NAMED.findall(path.read_text()):
                self.assertEqual(name, table.get(int(number)), f"{path.relative_to(REPO)}: R{number} {name}")

    def test_headers_spell_messages_through_the_table(self):
        for path in REPO.glob("include/ptxw/**/*.h"):
            if path.name != "rules.h":
                self.assertNotRegex(path.read_text(), r'"ptxw: R\d', f"{path.relative_to(REPO)}: use PTXW_RULE(Rn)")


if __name__ == "__main__":
    unittest.main()
