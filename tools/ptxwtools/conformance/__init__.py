"""`ptxw conformance`: the grid measured (grid) and written (report); its command line is cli. The report
shows what changed between toolchains as sass-diff shows it, so this package imports sass_diff."""
