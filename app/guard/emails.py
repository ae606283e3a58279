"""Which email addresses the site accepts, with the reason it refuses one.

Mail goes only to addresses that work on the public Internet: a plain dot-atom local
part (no quotes, no comments: mail servers and mail programs disagree about those) and
a domain name of at least two labels (no address literals such as [127.0.0.1], no
names of one label such as "localhost", which reach the server's own network).
International domain names are accepted and kept as written (lower-cased)."""
from __future__ import annotations

import re

from ..core.errors import ApiError
from ..i18n import N_

MAX_ADDRESS = 254   # RFC 5321: the longest path a server must accept, less the brackets
MAX_LOCAL = 64
MAX_LABEL = 63
# RFC 5322 atext: what a dot-atom local part may hold besides the dots
LOCAL_ATOM = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+\Z")
LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\Z")
# the values of the reasons below (each a message of the catalogues, said where it is refused)
LIMITS = {"most": MAX_ADDRESS, "most_local": MAX_LOCAL}


def email_problem(address: str) -> str | None:
    """Why an address is refused (a sentence for the player, its values in LIMITS), or None."""
    if not address:
        return N_("the email address is empty")
    if any(c.isspace() or ord(c) < 0x20 or ord(c) == 0x7F for c in address):
        return N_("an email address has no spaces or control characters")
    if len(address) > MAX_ADDRESS:
        return N_("an email address has at most {most} characters")
    if address.count("@") != 1:
        return (N_("an email address has one @ between the name and the domain")
                if "@" in address else N_("an email address needs an @ and a domain, like name@example.org"))
    local, domain = address.split("@")
    return local_problem(local) or domain_problem(domain)


def local_problem(local: str) -> str | None:
    if not local:
        return N_("the part before the @ is empty")
    if len(local) > MAX_LOCAL:
        return N_("the part before the @ has at most {most_local} characters")
    if local.startswith(".") or local.endswith(".") or ".." in local:
        return N_("the part before the @ may not start or end with a dot, or have two dots in a row")
    if not all(LOCAL_ATOM.match(atom) for atom in local.split(".")):
        return N_("the part before the @ may hold letters, digits, dots and ! # $ % & ' * + / = ? ^ _ ` { | } ~ -")
    return None


def domain_problem(domain: str) -> str | None:
    if not domain:
        return N_("the domain after the @ is empty")
    if domain.startswith("["):
        return N_("the domain must be a name, not an address in brackets")
    labels = domain.lower().split(".")
    if len(labels) < 2:
        return N_("the domain needs a dot, like example.org")
    if any(not label for label in labels):
        return N_("the domain may not start or end with a dot, or have two dots in a row")
    try:  # international names are checked in the form DNS sees them
        ascii_labels = [label.encode("idna").decode("ascii") for label in labels]
    except UnicodeError:
        ascii_labels = ["-"]  # too long or not encodable: refused below with the rule
    if any(len(label) > MAX_LABEL or not LABEL.match(label) for label in ascii_labels):
        return N_("each part of the domain is 1 to 63 letters, digits or hyphens, "
                  "not starting or ending with a hyphen")
    if labels[-1].isdigit():
        return N_("the domain must be a name, not a numeric address")
    return None


def checked_email(raw: str) -> str:
    """The address to store (surrounding spaces removed, the domain lower-cased), or a
    422 `invalid_email` saying what is wrong with it."""
    address = raw.strip() if isinstance(raw, str) else ""
    problem = email_problem(address) if isinstance(raw, str) else N_("an email address is text")
    if problem:
        raise ApiError(422, problem, "invalid_email", LIMITS)
    local, domain = address.split("@")
    return f"{local}@{domain.lower()}"
