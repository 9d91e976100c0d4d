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
