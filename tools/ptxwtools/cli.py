"""The `ptxw` command line: its commands (COMMANDS, each registering its own arguments), and the one
place where how a command ended becomes its exit status (errors.ExitCode: 0 ok, 1 failures found, 2 bad
input, 77 skipped) and its message, `ptxw <command>: ...`. Arguments are checked before anything is
installed or written."""

import argparse
import importlib
import sys

from . import __version__
from .core import errors, options

# Every command: its name and the module whose add_parser(sub) registers it (its arguments, and
# set_defaults(run=...): the function that runs it), listed in the order `ptxw --help` shows them. A command
# line that names one imports that module alone (a lit suite runs `ptxw compile` and `ptxw sass-equal`
# hundreds of times a target: the other commands' imports were a third of each start).
COMMANDS = (("setup", "core.deps"), ("conformance", "conformance.cli"), ("sass-diff", "sass_diff.cli"),
            ("codegen", "codegen.lit_suite"), ("update-checks", "codegen.update_checks"), ("test", "core.suite"),
            ("compile", "core.compile"), ("sass-equal", "codegen.sass_equal"), ("check", "codegen.check"),
            ("gate", "core.gate"), ("mutate", "mutate.mutants"), ("generate-forms", "forms.generate"))


class _OneLinePerCommand(argparse.HelpFormatter):
    """argparse measures a command's name one indentation short of where it prints it, and so wraps the
    longest names onto a line of their own."""

    def __init__(self, prog):
        super().__init__(prog, max_help_position=30, width=120)

    def add_argument(self, action):
        super().add_argument(action)
        if action.nargs == argparse.PARSER:
            self._action_max_length += self._indent_increment


def _command_of(argv):
    """The command a command line starts with, or None (anything else is parsed with every command's parser)."""
    return argv[0] if argv and argv[0] in dict(COMMANDS) else None


def parser(command=None) -> argparse.ArgumentParser:
    """The command line's parser: every command's, or only `command`'s (the same parse of a line naming it)."""
    p = argparse.ArgumentParser(prog="ptxw", description="ptxw's tools: the conformance grid, the codegen suite and "
                                "SASS checks.", epilog="Exit status: 0 ok, 1 failures found, 2 bad input, 77 skipped.",
                                formatter_class=_OneLinePerCommand)
    p.add_argument("--version", action="version", version=f"ptxw {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, module in COMMANDS:
        if command is None or name == command:
            importlib.import_module(f"{__package__}.{module}").add_parser(sub)
    return p


def parse(argv):
    """The namespace of a command line; argparse's error (exit 2) for a malformed one."""
    argv, nvcc_flags = options.split_nvcc_flags(argv)
    argv = options.expand_targets(argv)
    p = parser(_command_of(argv))
    a, rest = p.parse_known_args(argv)
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
