"""How a ptxw command ends, and the exit status of each ending (README.md, "Tools").

Library code returns results or raises one of these; only the command line (cli.py) turns them
into an exit status and a message `ptxw <command>: ...`."""

import enum


class ExitCode(enum.IntEnum):
    OK = 0
    FAILED = 1  # the command ran and found failures: a check that does not hold, a source that does not compile
    BAD_INPUT = 2  # an argument, file or tool that is not there or not valid: nothing was measured
    SKIPPED = 77  # nothing to do here (a target this ptxas lacks): CTest's SKIP_RETURN_CODE


class PtxwError(Exception):
    exit_code = ExitCode.BAD_INPUT


class BadInput(PtxwError, ValueError):
    """An argument names something that is not there or is malformed."""


class Failure(PtxwError):
    """The command ran and what it checks does not hold."""

    exit_code = ExitCode.FAILED


class Skipped(PtxwError):
    """What was asked for cannot run here, and that is not a failure."""

    exit_code = ExitCode.SKIPPED
