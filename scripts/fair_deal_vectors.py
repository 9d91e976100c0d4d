#!/usr/bin/env python3
"""Test vectors of the provably fair deal (hmac-sha256-fisher-yates-v1), with
0, 1 or 2 jokers, computed with Python's hmac and hashlib only: an
implementation independent of the engine's, whose output the engine's tests
pin (crates/gin-rules/src/fair_deal.rs) and docs/RULES.md lists.

Run: python3 scripts/fair_deal_vectors.py
"""
import hashlib, hmac, sys

def deal(server_hex, client, nonce, jokers):
    key = bytes.fromhex(server_hex)
    buf = b""; block = 0
    def u32():
        nonlocal buf, block
        if len(buf) < 4:
            msg = f"{client}:{nonce}:{block}".encode()
            buf += hmac.new(key, msg, hashlib.sha256).digest()
            block += 1
        x = int.from_bytes(buf[:4], "big"); buf = buf[4:]
        return x
    def below(n):
        limit = 2**32 - (2**32 % n)
        while True:
            x = u32()
            if x < limit:
                return x % n
    deck = [r + s for s in "SHDC" for r in "A23456789TJQK"] + ["X1", "X2"][:jokers]
    for i in range(len(deck) - 1, 0, -1):
        j = below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    nd = deck[0:20:2]; d = deck[1:20:2]
    return hashlib.sha256(key).hexdigest(), nd, d, deck[20], deck[21:]

for server, client, nonce, jokers in [
    ("00" * 32, "player", 0, 0),
    ("00" * 32, "player", 0, 1),
    ("00" * 32, "player", 0, 2),
    ("5a" * 32, "client", 7, 2),
]:
    c, nd, d, up, st = deal(server, client, nonce, jokers)
    print(server, repr(client), nonce, jokers)
    print(" ", c); print(" ", " ".join(nd)); print(" ", " ".join(d)); print(" ", up); print(" ", " ".join(st), len(st))
