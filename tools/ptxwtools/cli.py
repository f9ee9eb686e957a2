"""The `ptxw` command line: its commands (COMMANDS, each registering its own arguments), and the one
place where how a command ended becomes its exit status (errors.ExitCode: 0 ok, 1 failures found, 2 bad
input, 77 skipped) and its message, `ptxw <command>: ...`. Arguments are checked before anything is
installed or written."""

import argparse
import sys

from . import __version__
from .codegen import check, lit_suite, sass_equal, update_checks
from .conformance import cli as conformance_cli
from .core import compile as compile_, deps, errors, gate, options, suite
from .forms import generate as generate_forms
from .mutate import mutants
from .sass_diff import cli as sass_diff_cli

# Every command: a module whose add_parser(sub) registers it (its arguments, and set_defaults(run=...): the
# function that runs it), listed in the order `ptxw --help` shows them.
COMMANDS = (deps, conformance_cli, sass_diff_cli, lit_suite, update_checks, suite, compile_, sass_equal, check, gate,
            mutants, generate_forms)


class _OneLinePerCommand(argparse.HelpFormatter):
    """argparse measures a command's name one indentation short of where it prints it, and so wraps the
    longest names onto a line of their own."""

    def __init__(self, prog):
        super().__init__(prog, max_help_position=30, width=120)

    def add_argument(self, action):
        super().add_argument(action)
        if action.nargs == argparse.PARSER:
            self._action_max_length += self._indent_increment


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="ptxw", description="ptxw's tools: the conformance grid, the codegen suite and "
                                "SASS checks.", epilog="Exit status: 0 ok, 1 failures found, 2 bad input, 77 skipped.",
                                formatter_class=_OneLinePerCommand)
    p.add_argument("--version", action="version", version=f"ptxw {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in COMMANDS:
        module.add_parser(sub)
    return p


def parse(argv):
    """The namespace of a command line; argparse's error (exit 2) for a malformed one."""
    argv, nvcc_flags = compile_.split_nvcc_flags(argv)
    p = parser()
    a, rest = p.parse_known_args(options.expand_targets(argv))
    # a source after an option (`sass-diff --targets sm_90a k.cu`): argparse leaves it over
    more = getattr(a, "more_positionals", None)
    if rest and (not more or any(r.startswith("-") for r in rest)):
        p.error(f"unrecognized arguments: {' '.join(rest)}")
    if rest:
        name, kind = more
        setattr(a, name, [*getattr(a, name), *map(kind, rest)])
    if nvcc_flags and not getattr(a, "takes_nvcc_flags", False):
        p.error(f"{a.command} takes no nvcc flags (the arguments after --)")
    a.nvcc_flags = nvcc_flags
    return a


def main(argv=None) -> int:
    a = parse(sys.argv[1:] if argv is None else argv)
    try:
        return int(a.run(a))
    except errors.PtxwError as e:
        sys.stderr.write(f"ptxw {a.command}: {e}\n")
        return int(e.exit_code)
