"""python -m app.i18n update | compile | check (see app.i18n.tooling)."""
from __future__ import annotations

import sys

from .tooling import check, compile_all, update


def main(argv: list[str]) -> int:
    command = argv[0] if argv else ""
    if command == "update":
        update()
    elif command == "compile":
        compile_all()
    elif command == "check":
        problems = check()
        for problem in problems:
            print(problem)
        print(f"{len(problems)} problem(s) in the catalogues" if problems else "catalogues complete and compiled")
        return 1 if problems else 0
    else:
        print("usage: python -m app.i18n update|compile|check", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
