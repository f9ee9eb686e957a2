"""Tools of the ptxw conformance suite: toolchain discovery, compilation to PTX/SASS, SASS
normalisation, ptxas probes and the `ptxw` command line."""
