"""marshmallow's import-time patterns compiled on first use, to shorten the start: the app's import leaves
them uncompiled, and the validators that use them answer exactly as with patterns compiled at once."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from marshmallow import ValidationError, validate

from service.http.deferred_patterns import DeferredPattern, compiled_on_first_use

ADDRESSES = {
    "a@b.com": True,
    "x@bücher.de": True,
    "someone@[192.168.0.1]": True,
    "a@b": False,
    "a@-b.com": False,
    "a@b.c": False,
    "no-at-sign": False,
    "two@@example.com": False,
}


def test_the_apps_import_leaves_marshmallows_email_pattern_uncompiled() -> None:
    probe = (
        "import service.app, marshmallow.validate as v; "
        "print(type(v.Email.DOMAIN_REGEX).__name__, v.Email.DOMAIN_REGEX._compiled)"
    )
    shown = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert shown.split() == ["DeferredPattern", "None"]


@pytest.mark.parametrize(("address", "valid"), ADDRESSES.items())
def test_the_email_validator_answers_as_with_compiled_patterns(address: str, valid: bool) -> None:
    if valid:
        assert validate.Email()(address) == address
    else:
        with pytest.raises(ValidationError):
            validate.Email()(address)
    domain = validate.Email.DOMAIN_REGEX
    part = address.rsplit("@", 1)[-1]
    assert bool(domain.match(part)) == bool(re.compile(domain.pattern, domain.flags).match(part))


def test_only_the_named_modules_calls_are_deferred() -> None:
    with compiled_on_first_use("some.module"):
        here = re.compile("a+", re.IGNORECASE)
        there = eval("re.compile('b+')", {"__name__": "some.module", "re": re})
    assert isinstance(here, re.Pattern)
    assert isinstance(there, DeferredPattern) and there._compiled is None
    assert there.fullmatch("bbb") and not there.fullmatch("a") and isinstance(there._compiled, re.Pattern)
    assert re.compile is not None and isinstance(re.compile("c"), re.Pattern)  # restored on leaving
