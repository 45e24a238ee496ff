"""Records of the cache of proven positions as the tests write them by hand."""

from __future__ import annotations

from service.engine.search.proof_number import Prover
from service.engine.search.proven_record import SEARCH, Origin

# What a request's alpha-beta search writes: sound on every board, so the store serves it everywhere.
ALPHA_BETA = Origin.of(SEARCH, [Prover.ALPHA_BETA])
