"""`ptxw sass-diff`: its command line (cli, with compile_commands: each source's command from CMake's
compile_commands.json), the sides and the run (sides), building a side (build), comparing two results
(compare: kernels paired by pairing, occupancy from occupancy) and the reports (report)."""
