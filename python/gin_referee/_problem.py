"""``gin_referee.Problem``: the service's problem+json answers as an exception."""

from __future__ import annotations

import json
from typing import Any, Dict, Mapping, Union


class Problem(ValueError):
    """A request the referee refuses, as the HTTP service would refuse it.

    The exception carries the same RFC 9457 problem document the service
    answers with ``application/problem+json`` (see ``docs/ERRORS.md`` for every
    code). It is a :class:`ValueError`, so code that already catches bad
    values keeps working.

    Attributes:
        status: the HTTP status the service would answer (400, 422, ...).
        code: the stable snake_case error code (``"duplicate_card"``,
            ``"wrong_card_count"``, ...): branch on this, not on the text.
        problem: the whole problem document as a dict: ``type``, ``title``,
            ``status``, ``detail``, ``code`` and, where the input has an
            offending part, ``errors`` (each a ``pointer``, a ``code`` and a
            ``message``). For the vectorised functions the pointer is into the
            argument: ``"/3"`` is its item 3.
    """

    status: int
    code: str
    problem: Dict[str, Any]

    def __init__(self, document: Union[Mapping[str, Any], str, bytes]) -> None:
        if isinstance(document, (bytes, bytearray, memoryview)):
            document = json.loads(bytes(document))
        elif isinstance(document, str):
            document = json.loads(document)
        self.problem = dict(document)
        self.status = int(self.problem.get("status", 500))
        self.code = str(self.problem.get("code", "internal_error"))
        super().__init__(str(self.problem.get("detail") or self.code))

    @property
    def detail(self) -> str:
        """The problem's ``detail``: what went wrong, for people."""
        return str(self.problem.get("detail", ""))

    def __str__(self) -> str:
        return f"{self.code} ({self.status}): {self.detail}"

    def __repr__(self) -> str:
        return f"Problem({self.problem!r})"

    def __reduce__(self):  # type: ignore[override]
        # Spark and multiprocessing send exceptions between processes by
        # pickling them; rebuild from the document.
        return (Problem, (self.problem,))


def refusal(
    code: str,
    title: str,
    detail: str,
    pointer: str = "",
    field: str = "",
    message: str = "",
) -> Problem:
    """A problem raised by the Python half itself, shaped as the service's:
    400 ``code`` with ``title``, and one ``errors[]`` entry (``field`` at
    ``pointer``, saying ``message`` or else ``detail``) when ``field`` is
    given."""
    document: Dict[str, Any] = {
        "type": f"/problems/{code}",
        "title": title,
        "status": 400,
        "detail": detail,
        "code": code,
    }
    if field:
        document["errors"] = [{"pointer": pointer, "code": field, "message": message or detail}]
    return Problem(document)
