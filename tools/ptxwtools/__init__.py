"""The `ptxw` command line (cli.py, which registers every command) and its commands, a package each:
conformance, sass_diff, codegen, mutate and forms (generate-forms), over core, what they share (with
setup, test, compile and gate). A command package imports core; conformance also imports sass_diff (its
report shows changes as sass-diff does), mutate codegen (its lit checks), and forms core's variants,
probes and gate (to find the tests of a form), while core reads the form table, forms.table."""

__version__ = "0.1.0"  # the project's VERSION in CMakeLists.txt (tests/tools/test_cli.py holds them equal)
