"""What several commands share: finding and running the toolchain (toolchain, deps: `ptxw setup`), the
targets and shared options, compiling a source to PTX, cubin and SASS (compile, cubin, sass), the forms
as ptxas and ptxw's gate see them (variants, probes, gate), the cache and the reports' style, the errors
that end a command, and `ptxw test`. It imports no other package of ptxwtools but the form table."""
