"""Each source's own nvcc command, from the compile_commands.json CMake exports
(CMAKE_EXPORT_COMPILE_COMMANDS), for `ptxw sass-diff --compile-commands`.

What is kept of a command is what decides the code: defines, include folders (also those CMake puts
in an --options-file), the language standard, host compiler flags, nvcc options. What ptxw sets
itself is dropped: the compiler, the source, the output and dependency files, -c/-x, and the
targets (-arch, -code, -gencode, --generate-code), since sass-diff compiles for --targets.
"""

import json
import shlex
from pathlib import Path

from ..core.errors import BadInput

# options dropped with their value, separate (-o x) or joined (-o=x, -ox)
_DROPPED_WITH_VALUE = ("-o", "--output-file", "-MF", "-MT", "-MQ", "--dependency-output", "-x", "--x", "-arch",
                       "--gpu-architecture", "-code", "--gpu-code", "-gencode", "--generate-code",
                       "--dependency-target-name")
_DROPPED = ("-c", "--compile", "-MD", "-MMD", "--generate-dependencies-with-compile",
            "--generate-nonsystem-dependencies-with-compile")
_RESPONSE_FILE = ("--options-file", "-optf")


def _words(entry: dict) -> list:
    if "arguments" in entry:
        return list(entry["arguments"])
    return shlex.split(entry["command"])


def _expand(words, directory: Path) -> list:
    """Response files (--options-file F, @F) replaced by their words."""
    out, i = [], 0
    while i < len(words):
        w = words[i]
        path = None
        if w in _RESPONSE_FILE and i + 1 < len(words):
            path, i = words[i + 1], i + 1
        elif w.startswith(tuple(o + "=" for o in _RESPONSE_FILE)):
            path = w.split("=", 1)[1]
        elif w.startswith("@"):
            path = w[1:]
        if path is None:
            out.append(w)
        else:
            try:
                out += shlex.split((directory / path).read_text())
            except OSError as e:
                raise BadInput(f"compile_commands.json names {directory / path}, which cannot be read: {e.strerror}")
        i += 1
    return out


def flags(entry: dict, directory: Path, source: Path) -> list:
    words = _expand(_words(entry)[1:], directory)
    out, i = [], 0
    while i < len(words):
        w = words[i]
        if w in _DROPPED_WITH_VALUE:
            i += 2
            continue
        if w in _DROPPED or w.startswith(tuple(o + "=" for o in _DROPPED_WITH_VALUE)) or \
                (w[:3] in ("-MF", "-MT", "-MQ") and len(w) > 3):
            i += 1
            continue
        if (directory / w).resolve() == source:
            i += 1
            continue
        out.append(w)
        i += 1
    return out


def read(path: Path) -> dict:
    """{absolute source path: (flags, directory)} of every entry of a compile_commands.json."""
    try:
        entries = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise BadInput(f"cannot read {path}: {e}") from None
    if not isinstance(entries, list):
        raise BadInput(f"{path} is not a compile_commands.json (a list of entries)")
    out = {}
    for entry in entries:
        try:
            directory = Path(entry["directory"])
            source = (directory / entry["file"]).resolve()
            out[source] = (flags(entry, directory, source), directory)
        except (KeyError, TypeError, ValueError) as e:
            raise BadInput(f"{path}: an entry without directory, file and command or arguments: {e}") from None
    return out
