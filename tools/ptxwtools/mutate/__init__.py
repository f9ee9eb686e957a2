"""`ptxw mutate`: the mutants applied and checked (mutants), the gpu check (gpu_check). A lit check runs
the codegen suite, so this package imports codegen."""
