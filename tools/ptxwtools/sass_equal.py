"""Zero-overhead check: every ptxw_X function of a canonical SASS listing must normalise to the
same instruction sequence as its reference ref_X (plain cuda::ptx or inline PTX).

    tools/ptxw sass-equal kernel.sass"""

import argparse
import sys
from pathlib import Path

from . import sass


def main(argv=None):
    p = argparse.ArgumentParser(prog="ptxw sass-equal", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("listing", type=Path)
    a = p.parse_args(argv)
    try:
        compared, mismatches = sass.compare_pairs(sass.parse_listing(a.listing.read_text()))
    except (OSError, sass.SassError) as e:
        sys.stderr.write(f"ptxw-sass-equal: {a.listing}: {e}\n")
        return 1
    for m in mismatches:
        sys.stderr.write(f"ptxw-sass-equal: {m.wrapper} differs from {m.reference} (normalised SASS):\n{m.diff}\n")
    if mismatches:
        return 1
    print(f"ptxw-sass-equal: {compared} wrapper function(s) equal to their reference")
    return 0
