"""Zero-overhead check: every ptxw_X function of a canonical SASS listing must normalise to the
same instruction sequence as its reference ref_X (plain cuda::ptx or inline PTX).

    ptxw sass-equal out/kernel.sass
    ptxw sass-equal --no-more out/kernel.sass

--no-more: the same protocol and memory instructions, and no more instructions in all."""

import argparse
import sys
from pathlib import Path

from ..core import errors, sass
from ..core.errors import ExitCode


def run(a) -> ExitCode:
    try:
        compared, mismatches = sass.compare_pairs(sass.parse_listing(a.listing.read_text()), at_most=a.no_more)
    except (OSError, sass.SassError) as e:
        raise errors.BadInput(f"{a.listing}: {e}") from None
    for m in mismatches:
        sys.stderr.write(f"ptxw sass-equal: {m.wrapper} differs from {m.reference} (normalised SASS):\n{m.diff}\n")
    if mismatches:
        return ExitCode.FAILED
    what = "with no more instructions than" if a.no_more else "equal to"
    print(f"ptxw sass-equal: {compared} wrapper function(s) {what} their reference")
    return ExitCode.OK


def add_parser(sub):
    p = sub.add_parser("sass-equal", help="zero-overhead check: each ptxw_X kernel has the SASS of its ref_X twin",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--no-more", action="store_true",
                   help="instead of equal SASS: the same synchronisation, async-copy, warp and memory opcodes "
                        "and no more instructions than the reference")
    p.add_argument("listing", type=Path)
    p.set_defaults(run=run)
