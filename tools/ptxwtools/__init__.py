"""Tools of the ptxw conformance suite: toolchain discovery, compilation to PTX/SASS, SASS
normalisation, ptxas probes and the `ptxw` command line."""

__version__ = "0.1.0"  # the project's VERSION in CMakeLists.txt (tests/tools/test_cli.py holds them equal)
