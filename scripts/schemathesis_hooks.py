"""Schemathesis hooks: the NDJSON media type of the batch endpoints.

The document describes an NDJSON body as an array whose items are its lines
(OpenAPI 3.1 has no item schema for sequential media types). Generated arrays
are sent one item per line; an example given as NDJSON text is sent as is.
Answers are read back line by line and validated as that array.
"""

import json

import schemathesis


@schemathesis.serializer("application/x-ndjson")
def ndjson(ctx, value):
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode()
    items = value if isinstance(value, list) else [value]
    return b"".join(json.dumps(item).encode() + b"\n" for item in items)


@schemathesis.deserializer("application/x-ndjson")
def ndjson_lines(ctx, response):
    text = response.content.decode(response.encoding or "utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


# Codes any request can meet before or around its operation: the transport's
# (an unusual method, a head the server refuses) and the safety net's. Every
# other problem code must be one its operation documents.
ANY_OPERATION = {
    "not_found",
    "method_not_allowed",
    "malformed_request",
    "request_head_too_large",
    "request_timeout",
    "bad_request",
}


@schemathesis.check
def problem_code_is_documented(ctx, response, case):
    """A problem's `code` is one its operation lists for that status.

    Each operation documents its error responses with one example per code,
    keyed by the code (crates/gin-contract/src/error_codes.rs); this check holds every answer
    to them, so an operation cannot answer a code it does not document.
    """
    media = response.headers.get("content-type", [""])
    media = media[0] if isinstance(media, list) else media
    if not media.startswith("application/problem+json"):
        return None
    code = json.loads(response.content).get("code")
    if code in ANY_OPERATION:
        return None
    raw = case.operation.definition.raw
    documented = (
        raw.get("responses", {})
        .get(str(response.status_code), {})
        .get("content", {})
        .get("application/problem+json", {})
        .get("examples", {})
    )
    if code not in documented:
        raise AssertionError(
            f"{case.operation.label} answered {response.status_code} `{code}`, "
            f"which it does not document for that status (documented: {sorted(documented)})"
        )
    return None
