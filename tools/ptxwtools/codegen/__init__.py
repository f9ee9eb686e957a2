"""The codegen suite and the checks its tests run: `ptxw codegen` (lit_suite, also the lit configuration
of ptxw's suite and of a project's), `ptxw update-checks`, `ptxw check` and `ptxw sass-equal`."""
