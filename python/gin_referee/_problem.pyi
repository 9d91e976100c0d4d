from typing import Any, Dict, Mapping, Union

class Problem(ValueError):
    """A refusal, with the service's problem+json document."""

    status: int
    code: str
    problem: Dict[str, Any]
    def __init__(self, document: Union[Mapping[str, Any], str, bytes]) -> None: ...
    @property
    def detail(self) -> str: ...
