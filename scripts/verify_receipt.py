#!/usr/bin/env python3
"""Verify a gin-referee receipt offline, independently of the service.

    python3 scripts/verify_receipt.py REQUEST.json ANSWER.json KEYS.json

REQUEST.json is the request body as sent, ANSWER.json the service's answer
(with its `receipt`), KEYS.json the service's `GET /v1/keys`. Prints the
receipt's payload and exits 0 when the signature and both digests hold;
exits 1 saying what failed otherwise.

Uses `cryptography` (OpenSSL's Ed25519) and `rfc8785` (Trail of Bits' JCS),
neither of which the service uses: `pip install cryptography rfc8785`.
"""

import base64
import hashlib
import json
import sys

import rfc8785
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def digest(document):
    return base64.urlsafe_b64encode(hashlib.sha256(rfc8785.dumps(document)).digest()).rstrip(b"=").decode()


def verify(request, answer, keys):
    """The receipt's payload; raises ValueError saying what does not hold."""
    answer = dict(answer)
    receipt = answer.pop("receipt", None)
    if receipt is None:
        raise ValueError("the answer has no receipt")
    header_b64, payload_b64, signature_b64 = receipt.split(".")
    header = json.loads(b64url_decode(header_b64))
    if header.get("alg") != "EdDSA":
        raise ValueError(f"unexpected alg {header.get('alg')!r}")
    key = next((k for k in keys["keys"] if k["kid"] == header.get("kid")), None)
    if key is None:
        raise ValueError(f"no key {header.get('kid')!r} in the key set")
    public = Ed25519PublicKey.from_public_bytes(b64url_decode(key["x"]))
    try:
        public.verify(b64url_decode(signature_b64), f"{header_b64}.{payload_b64}".encode())
    except InvalidSignature:
        raise ValueError("the signature does not verify") from None
    payload = json.loads(b64url_decode(payload_b64))
    if payload["request"] != digest(request):
        raise ValueError("the request is not the one signed")
    if payload["response"] != digest(answer):
        raise ValueError("the answer is not the one signed")
    return payload


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    request, answer, keys = (json.load(open(path, encoding="utf-8")) for path in argv[1:])
    try:
        payload = verify(request, answer, keys)
    except ValueError as error:
        print(f"receipt does NOT verify: {error}", file=sys.stderr)
        return 1
    print(json.dumps(payload, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
