"""What several commands share: finding and running the toolchain (toolchain; deps, which is `ptxw
setup`), the targets and shared options, compiling a source to PTX, cubin and SASS (compile, also `ptxw
compile`; cubin, sass), the forms as ptxas and ptxw's gate see them (variants, probes; gate, also `ptxw
gate`), the cache and the reports' style, the errors that end a command, and `ptxw test` (suite), which
runs them all. Of the other packages it imports only the form table, forms.table."""
