#!/usr/bin/env python3
"""Writes a corpus of match requests only, for replay.py: POST /v1/matches/score
(two players, three players, partnerships, Hollywood, every preset and varied
profiles, with their malformed, misshapen and refused variants) and POST
/v1/matches/audit (the three formats, seeded or dealt, with their faults), the
same bodies corpus.py makes, in larger numbers.

    scripts/replay/match_corpus.py [--seed N] [--scores N] [--audits N] OUT.jsonl
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus  # noqa: E402


def main():
    args = sys.argv[1:]
    seed, scores, audits, out = 20261127, 8000, 2000, None
    while args:
        a = args.pop(0)
        if a == "--seed":
            seed = int(args.pop(0))
        elif a == "--scores":
            scores = int(args.pop(0))
        elif a == "--audits":
            audits = int(args.pop(0))
        else:
            out = a
    if out is None:
        sys.exit(__doc__)
    c = corpus.Corpus(seed, 1.0)
    rng = c.rng
    path = "/v1/matches/score"
    for _ in range(scores):
        x = rng.random()
        if x < 0.12:
            good, _ = corpus.match_score_body(rng)
            y = rng.random()
            if y < 0.3:
                body, tag = corpus.malformed(rng, good)
            elif y < 0.7:
                body, tag = corpus.invalid_shape(rng, good, "matches")
            else:
                body, tag = corpus.rule_errors(rng, "matches")
            tag = "error_" + tag
        else:
            body, tag = corpus.match_score_body(rng)
        c.add("POST " + path, "POST", path, body, tag=tag)
    path = "/v1/matches/audit"
    for _ in range(audits):
        if rng.random() < 0.06:
            good, _ = corpus.match_audit_body(rng)
            body, tag = corpus.invalid_shape(rng, good, "match_audit")
            tag = "error_" + tag
        else:
            body, tag = corpus.match_audit_body(rng)
        c.add("POST " + path, "POST", path, body, tag=tag)
    with open(out, "w") as f:
        for it in c.items:
            f.write(corpus.json.dumps(it, ensure_ascii=False) + "\n")
    print(f"{len(c.items)} requests written to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
