"""Accounts, sessions, API tokens and the request dependencies that use them."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from fastapi import Request
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from ..core.clock import aware, iso
from ..core.errors import ApiError
from ..guard.emails import checked_email
from ..guard.names import username_key, username_problem
from ..i18n import N_
from ..models import AuthToken, User, utcnow
from ..store.db import Database
from . import security, sessions

UNSAFE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


@dataclass
class Auth:
    user: User | None
    via: str | None = None          # "cookie" | "bearer" | None
    session_token: str | None = None
    scope: str | None = None        # the bearer token's scope ("bot": the bot API)
    token_id: int | None = None     # the login session or API token used


class Accounts:
    def __init__(self, db: Database, secret_key: str, session_days: int,
                 hashing: security.PasswordHashing | None = None):
        self.db = db
        self.secret_key = secret_key
        self.session_days = session_days
        # bounds the memory and CPU the password checks of this process take at once
        self.hashing = hashing or security.PasswordHashing()

    def register(self, username: str, password: str, email: str | None, language: str | None = None) -> User:
        problem = username_problem(username) if isinstance(username, str) else N_("a username is text")
        if problem:
            raise ApiError(422, problem, "invalid_username")
        checked_new_password(password)
        if email is not None:
            email = checked_email(email)
        user = User(username=username, username_key=username_key(username), email=email, language=language,
                    password_hash=self.hashing.hash(password), created_at=utcnow())
        with self.db.write_session() as s:
            if s.execute(select(User.id).where(User.username_key == username_key(username))).first():
                raise ApiError(409, N_("that username is taken"), "username_taken")
            s.add(user)
            try:
                s.commit()
            except IntegrityError:
                raise ApiError(409, N_("that username is taken"), "username_taken") from None
        return user

    def check_password(self, username: str, password: str) -> User:
        with self.db.session() as s:
            user = s.execute(select(User).where(User.username_key == username_key(str(username))))\
                .scalar_one_or_none()
        right, new_hash = self.hashing.verify(user.password_hash if user else None, str(password))
        if not right or user is None:
            raise ApiError(401, N_("wrong username or password"), "bad_credentials")
        if new_hash is not None:  # made with older parameters: store it as today's
            self._store_hash(user.id, user.password_hash, new_hash)
            user.password_hash = new_hash
        return user

    def _store_hash(self, user_id: int, old_hash: str, new_hash: str) -> None:
        """Replace the password hash, unless the password changed meanwhile."""
        with self.db.write_session() as s:
            s.execute(update(User).where(User.id == user_id, User.password_hash == old_hash)
                      .values(password_hash=new_hash))
            s.commit()

    def issue(self, user: User, kind: str, name: str | None = None, scope: str | None = None) -> str:
        if scope == "bot" and user.kind != "bot":
            raise ApiError(403, N_("only bot accounts get bot tokens: make this account a bot first"), "not_a_bot")
        token = security.new_token()
        expires = utcnow() + timedelta(days=self.session_days) if kind == "session" else None
        with self.db.write_session() as s:
            s.add(AuthToken(user_id=user.id, kind=kind, token_hash=security.token_hash(token), name=name,
                            scope=scope, created_at=utcnow(), expires_at=expires))
            s.commit()
        return token

    def user_for_token(self, token: str | None) -> User | None:
        found = self.token_owner(token)
        return found[0] if found else None

    def token_owner(self, token: str | None) -> tuple[User, str | None] | None:
        """(user, scope) of a valid token."""
        found = self._valid_token(token)
        return (found[1], found[0].scope) if found else None

    def _valid_token(self, token: str | None) -> tuple[AuthToken, User] | None:
        if not token or len(token) > 200:
            return None
        with self.db.session() as s:
            row = s.execute(select(AuthToken, User).join(User, User.id == AuthToken.user_id)
                            .where(AuthToken.token_hash == security.token_hash(token))).first()
        if row is None:
            return None
        tok, user = row
        if tok.revoked_at is not None:
            return None
        if tok.expires_at is not None and aware(tok.expires_at) < utcnow():
            return None
        return tok, user

    def _note_use(self, tok: AuthToken, address: str) -> None:
        """Remember when and from where a login session was last used (its owner's list of
        sessions), writing at most every SESSION_USE_STEP per session."""
        where = sessions.coarse_address(address)
        last = aware(tok.last_used_at) if tok.last_used_at else None
        if tok.kind != "session" or (last and utcnow() - last < sessions.SESSION_USE_STEP
                                     and tok.last_address == where):
            return
        with self.db.write_session() as s:
            s.execute(update(AuthToken).where(AuthToken.id == tok.id).values(last_used_at=utcnow(), last_address=where))
            s.commit()

    def revoke(self, token: str) -> None:
        with self.db.write_session() as s:
            s.execute(update(AuthToken).where(AuthToken.token_hash == security.token_hash(token))
                      .values(revoked_at=utcnow()))
            s.commit()

    def list_tokens(self, user: User) -> list[dict]:
        with self.db.session() as s:
            rows = s.execute(select(AuthToken).where(AuthToken.user_id == user.id, AuthToken.kind == "api",
                                                     AuthToken.revoked_at.is_(None))).scalars().all()
        return [{"id": t.id, "name": t.name, "scope": t.scope, "created_at": iso(t.created_at)} for t in rows]

    def revoke_id(self, user: User, token_id: int) -> None:
        with self.db.write_session() as s:
            res = s.execute(update(AuthToken).where(AuthToken.id == token_id, AuthToken.user_id == user.id,
                                                    AuthToken.revoked_at.is_(None)).values(revoked_at=utcnow()))
            if res.rowcount != 1:
                raise ApiError(404, N_("no such token"), "not_found")
            s.commit()

    def csrf_for(self, session_token: str) -> str:
        return security.csrf_token_for(self.secret_key, session_token)

    # ------------------------------------------------------------ request auth
    def from_request(self, request: Request) -> Auth:
        cached = getattr(request.state, "auth", None)
        if cached is not None:
            return cached
        header = request.headers.get("authorization", "")
        if header:
            scheme, _, token = header.partition(" ")
            if scheme.lower() != "bearer" or not token.strip():
                raise ApiError(401, N_("use 'Authorization: Bearer <token>'"), "bad_authorization")
            found = self._valid_token(token.strip())
            if found is None:
                raise ApiError(401, N_("that token is not valid (logged out, revoked or expired)"), "bad_token")
            auth = Auth(found[1], "bearer", scope=found[0].scope, token_id=found[0].id)
        else:
            cookie = request.cookies.get(security.SESSION_COOKIE)
            found = self._valid_token(cookie)
            auth = Auth(found[1], "cookie", cookie, token_id=found[0].id) if found else Auth(None)
        if found:
            self._note_use(found[0], request.client.host if request.client else "")
        request.state.auth = auth
        return auth


def checked_new_password(password: object) -> str:
    """The one rule for a new password: 8 to 200 characters."""
    if not isinstance(password, str) or not 8 <= len(password) <= 200:
        raise ApiError(422, N_("a password is 8 to 200 characters"), "invalid_password")
    return password


def get_accounts(request: Request) -> Accounts:
    return request.app.state.accounts


def optional_user(request: Request) -> User | None:
    return get_accounts(request).from_request(request).user


def _csrf_check(request: Request, auth: Auth, form_token: str | None = None) -> None:
    if auth.via == "cookie" and request.method in UNSAFE_METHODS:
        presented = request.headers.get(security.CSRF_HEADER) or form_token
        if not security.csrf_ok(get_accounts(request).secret_key, auth.session_token or "", presented):
            raise ApiError(403, N_("missing or wrong CSRF token: send the X-CSRF-Token header (the hd_csrf cookie)"),
                           "csrf")


def optional_user_checked(request: Request) -> User | None:
    """The logged-in user or None; a cookie session's state change must carry the CSRF token."""
    auth = get_accounts(request).from_request(request)
    if auth.user is not None:
        _csrf_check(request, auth)
    return auth.user


def current_user(request: Request) -> User:
    """The logged-in user; cookie-authenticated state changes must carry the CSRF token."""
    auth = get_accounts(request).from_request(request)
    if auth.user is None:
        raise ApiError(401, N_("log in first (session cookie or 'Authorization: Bearer <token>')"), "login_required")
    _csrf_check(request, auth)
    return auth.user
