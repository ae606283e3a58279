"""Command line: python -m app serve [--host H] [--port P] | migrate."""
from __future__ import annotations

import argparse
import logging
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app", description="A House Divided game server")
    sub = parser.add_subparsers(dest="cmd", required=True)
    p_serve = sub.add_parser("serve", help="apply migrations, then serve the app (app.main:create_app)")
    p_serve.add_argument("--host", default="127.0.0.1")
    p_serve.add_argument("--port", type=int, default=8000)
    p_serve.add_argument("--workers", type=int, default=1,
                         help="worker processes (Postgres only: they share events through LISTEN/NOTIFY)")
    p_serve.add_argument("--no-migrate", action="store_true", help="do not apply migrations first")
    p_serve.add_argument("--log-level", default=None)
    sub.add_parser("migrate", help="apply the database migrations and exit")
    sub.add_parser("mail-worker", help="send the mail/webhook outbox (run the app with MAIL_WORKER=false)")
    for name in ("make-admin", "create-admin"):
        p_adm = sub.add_parser(name, help="make a user an administrator")
        p_adm.add_argument("username")
        p_adm.add_argument("--revoke", action="store_true", help="take the administrator right away")
    p_re = sub.add_parser("recheck", help="replay stored games through the current rules engine and report "
                                          "illegal logs or differing states")
    p_re.add_argument("games", nargs="*", help="game ids (default: every game)")
    p_re.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    from .core.config import Settings
    settings = Settings()
    logging.basicConfig(level=(getattr(args, "log_level", None) or settings.log_level).upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.cmd == "serve" and (problem := settings.secret_key_problem()):
        parser.exit(2, f"python -m app serve: {problem}\n")
    if args.cmd == "migrate" or (args.cmd == "serve" and not args.no_migrate):
        from .store.migrate import upgrade
        upgrade(settings.sqlalchemy_url)
        if args.cmd == "migrate":
            print("database is at the latest migration")
            return 0
    if args.cmd in ("make-admin", "create-admin", "recheck"):
        from .admin.cli import cli_make_admin, cli_recheck
        from .store.migrate import upgrade
        upgrade(settings.sqlalchemy_url)
        if args.cmd == "recheck":
            return cli_recheck(settings, args.games, args.json)
        return cli_make_admin(settings, args.username, args.revoke)
    if args.cmd == "mail-worker":
        from .mailworker import main_loop
        return main_loop(settings)
    if args.cmd == "serve":
        import uvicorn
        if args.workers > 1 and settings.fanout_backend != "postgres":
            parser.error("--workers > 1 needs Postgres (DATABASE_URL=postgresql://...)")
        uvicorn.run("app.main:create_app", factory=True, host=args.host, port=args.port, workers=args.workers,
                    log_level=(args.log_level or settings.log_level).lower(), proxy_headers=True,
                    ws=settings.ws_impl, ws_max_size=1 << 20,
                    ws_per_message_deflate=settings.ws_per_message_deflate,
                    timeout_keep_alive=settings.keep_alive_seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
