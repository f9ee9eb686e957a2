"""The task pools' method list: include/ptxw/tasks/methods.h includes every library file that holds a row of
the method table (a PTXW_TASK_METHOD row, include/ptxw/tasks/method_table.h) and nothing else, so that the
front door (ptxw/tasks.h) offers every method and a method is added as its file and its line there."""

import re
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
INCLUDE = REPO / "include"
METHODS = INCLUDE / "ptxw/tasks/methods.h"
TABLE = INCLUDE / "ptxw/tasks/method_table.h"
ROW = re.compile(r"^PTXW_TASK_METHOD\(", re.M)
INCLUDE_LINE = re.compile(r"^\s*#\s*include\s*<(ptxw/[\w/.]+)>", re.M)


def files_with_rows():
    return sorted(p.relative_to(INCLUDE).as_posix() for p in INCLUDE.glob("ptxw/tasks/**/*.h")
                  if p != TABLE and ROW.search(p.read_text()))


class TaskMethodsTest(unittest.TestCase):
    def test_the_list_is_every_file_with_a_row(self):
        rows = files_with_rows()
        self.assertGreater(len(rows), 0)
        self.assertEqual(sorted(INCLUDE_LINE.findall(METHODS.read_text())), rows)

    def test_the_front_door_includes_the_list(self):
        self.assertIn("ptxw/tasks/methods.h", INCLUDE_LINE.findall((INCLUDE / "ptxw/tasks.h").read_text()))


if __name__ == "__main__":
    unittest.main()
