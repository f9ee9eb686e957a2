"""Zero-overhead check: every ptxw_X function of a canonical SASS listing must normalise to the
same instruction sequence as its reference ref_X (plain cuda::ptx or inline PTX).

    ptxw sass-equal out/kernel.sass"""

import argparse
import sys
from pathlib import Path

from . import errors, sass
from .errors import ExitCode


def run(a) -> ExitCode:
    try:
        compared, mismatches = sass.compare_pairs(sass.parse_listing(a.listing.read_text()))
    except (OSError, sass.SassError) as e:
        raise errors.BadInput(f"{a.listing}: {e}") from None
    for m in mismatches:
        sys.stderr.write(f"ptxw sass-equal: {m.wrapper} differs from {m.reference} (normalised SASS):\n{m.diff}\n")
    if mismatches:
        return ExitCode.FAILED
    print(f"ptxw sass-equal: {compared} wrapper function(s) equal to their reference")
    return ExitCode.OK


def add_parser(sub):
    p = sub.add_parser("sass-equal", help="zero-overhead check: each ptxw_X kernel has the SASS of its ref_X twin",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("listing", type=Path)
    p.set_defaults(run=run)
