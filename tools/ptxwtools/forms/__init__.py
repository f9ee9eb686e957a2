"""The one description of every PTX form ptxw wraps (table.py) and what is generated from it
(generate.py: `tools/ptxw generate-forms`)."""
