#!/usr/bin/env python3
"""Writes the replay corpus: one request per line, as JSON
`{"op": "POST /v1/hands/analyze", "tag": "...", "method": "POST", "path": "...",
"headers": {...}, "body": "..."}` (or `"body_b64"` for bytes that are not UTF-8
text, such as gzip bodies). Deterministic: the same seed writes the same file.

    scripts/replay/corpus.py [OUT.jsonl] [--seed N] [--scale F]

OUT defaults to scripts/replay/corpus.jsonl (not committed: it is regenerated in
a few seconds). --scale multiplies every operation's count (default 1: about
24,000 requests).

The requests cover every operation of openapi/openapi.json (and the routes
outside it: /api-docs/openapi.json, /docs/, unknown paths, wrong methods), every
preset and profile overrides, jokers, three players and partnership matches,
hand and match audits played out by a bot from shuffled and seeded deals (legal,
then mutated into illegal ones), receipts, and the error paths (malformed JSON,
unknown fields, wrong card counts, duplicates, jokers not in the deck, bad
profiles, oversize bodies, wrong content types and encodings).
"""
import base64
import gzip
import json
import os
import random
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gin  # noqa: E402
from gin import DECK, JOKERS, RANKS, SUITS, value  # noqa: E402

PRESETS = ["standard", "oklahoma", "straight", "tournament", "hollywood", "pagat",
           "schneider", "open-gin", "partnership", "jokers"]
JSON = "application/json"
NDJSON = "application/x-ndjson"
ERROR_CODES_HINT = [
    # GET /problems lists them; these are asked for by name as well (the
    # corpus is written without a server, so the list is the base's plus
    # some unknown ones).
    "malformed_json", "invalid_body", "unknown_profile", "invalid_profile",
    "invalid_profile_combination", "malformed_request", "payload_too_large",
    "unsupported_media_type", "not_found", "method_not_allowed", "request_timeout",
    "duplicate_card", "wrong_card_count", "knock_over_limit", "invalid_melds",
    "not_big_gin", "big_gin_not_allowed", "upcard_required", "layoffs_not_allowed",
    "layoff_card_not_in_hand", "layoff_card_repeated", "layoff_meld_not_found",
    "layoff_does_not_fit", "joker_not_in_deck", "game_over", "big_gin_with_deadwood",
    "impossible_count", "blank_player_name", "duplicate_player_name", "unknown_player",
    "same_player_twice", "rotation_broken", "pairing_broken", "hollywood_not_defined",
    "blank_team_name", "players_or_teams", "wrong_hand_shape", "client_seed_too_long",
    "unrecorded_draw", "batch_timeout", "internal_error", "line_too_long",
    "too_many_lines", "no-such-code", "INVALID_BODY", "%2e%2e", "a" * 300,
]


class Corpus:
    def __init__(self, seed, scale):
        self.rng = random.Random(seed)
        self.scale = scale
        self.items = []

    def n(self, count):
        return max(1, int(count * self.scale))

    def add(self, op, method, path, body=None, ctype=JSON, headers=None, tag=""):
        h = {}
        if ctype is not None and body is not None:
            h["content-type"] = ctype
        h.update(headers or {})
        item = {"op": op, "tag": tag, "method": method, "path": path, "headers": h}
        if body is None:
            pass
        elif isinstance(body, bytes):
            try:
                item["body"] = body.decode("utf-8")
            except UnicodeDecodeError:
                item["body_b64"] = base64.b64encode(body).decode()
        elif isinstance(body, str):
            item["body"] = body
        else:
            item["body"] = self.dumps(body)
        self.items.append(item)

    def dumps(self, obj):
        r = self.rng.random()
        if r < 0.6:
            return json.dumps(obj)
        if r < 0.9:
            return json.dumps(obj, separators=(",", ":"))
        return json.dumps(obj, indent=2, ensure_ascii=self.rng.random() < 0.5)


# --- cards and hands ------------------------------------------------------------
SPELL_SUIT = {"S": ["S", "s", "♠"], "H": ["H", "h", "♥"], "D": ["D", "d", "♦"], "C": ["C", "c", "♣"]}


def spell(rng, card):
    """Another accepted spelling of a card (10 for T, any case, suit symbols)."""
    if card[0] == "X":
        return card if rng.random() < 0.7 else card.lower()
    r, s = card[0], card[1]
    if r == "T" and rng.random() < 0.5:
        r = "10"
    elif rng.random() < 0.3:
        r = r.lower()
    return r + rng.choice(SPELL_SUIT[s])


def respell(rng, obj, p=0.15):
    """Respells the cards of a body (for a share of requests)."""
    if rng.random() >= p:
        return obj

    def walk(o, key=None):
        if isinstance(o, str) and (o in DECK or o in JOKERS) and key not in ("stands_for_key",):
            return spell(rng, o)
        if isinstance(o, list):
            return [walk(x) for x in o]
        if isinstance(o, dict):
            # keys of a jokers map are joker names; keep them
            return {k: walk(v, k) for k, v in o.items()}
        return o
    return walk(obj)


def random_hand(rng, n, jokers=0, deck=None):
    pool = list(deck or DECK)
    hand = rng.sample(pool, n - jokers) + JOKERS[:jokers]
    rng.shuffle(hand)
    return hand


def adversarial_hand(rng, n, jokers=0):
    width = rng.randint(3, 4)
    low = rng.randint(0, 13 - width)
    pool = [c for c in DECK if low <= gin.rank(c) < low + width]
    k = min(n - jokers, len(pool))
    hand = rng.sample(pool, k)
    if k < n - jokers:
        hand += rng.sample([c for c in DECK if c not in hand], n - jokers - k)
    hand += JOKERS[:jokers]
    rng.shuffle(hand)
    return hand


WORST = ["4S 5S 4H 5H 4D 5D 6D 4C 5C 6C", "2S 3S 2H 3H 2D 3D 2C 3C 4C 6C",
         "9S 8H 9H TH 8D 9D TD 8C 9C TC"]
WILD_WORST = ["7H 9H TH 7D TD 7C 8C TC X1 X2", "9S TS JS JH 8D 9D 9C JC X1 X2",
              "JS QS TH QH JD KD JC QC X1 X2", "6S 8S TS 6H 7H 8H 6D 8D X1 X2"]


def meld_cards(rng, used):
    """A random joker-free meld not touching `used`."""
    for _ in range(100):
        if rng.random() < 0.5:
            r = rng.randrange(13)
            meld = [RANKS[r] + s for s in rng.sample(SUITS, rng.choice([3, 3, 4]))]
        else:
            s = rng.choice(SUITS)
            length = rng.choice([3, 3, 4, 5])
            low = rng.randrange(0, 14 - length)
            meld = [RANKS[low + i] + s for i in range(length)]
        if used.isdisjoint(meld):
            return meld
    return None


def knock_hand(rng, limit=10, max_dead=None, jokers=0):
    """A knocker's 10 cards built from melds plus low deadwood; with jokers,
    each of `jokers` melds has one card replaced by a joker. Returns
    (hand, melds, jokers_map, used)."""
    while True:
        used = set()
        melds = []
        while sum(len(m) for m in melds) < 7:
            m = meld_cards(rng, used)
            if m is None:
                break
            if sum(len(x) for x in melds) + len(m) > 10:
                break
            melds.append(m)
            used.update(m)
        size = sum(len(m) for m in melds)
        if size < 6:
            continue
        rest = [c for c in DECK if c not in used]
        dead_budget = rng.randint(0, limit if max_dead is None else max_dead)
        dead = []
        for c in rng.sample(rest, len(rest)):
            if len(dead) == 10 - size:
                break
            if value(c) <= dead_budget - sum(value(d) for d in dead) or rng.random() < 0.01:
                dead.append(c)
        if len(dead) != 10 - size:
            continue
        jmap = {}
        written = [list(m) for m in melds]
        for j in range(jokers):
            if j < len(written):
                m = written[j]
                i = rng.randrange(len(m)) if len(m) > 3 else rng.choice([0, len(m) - 1, 1])
                jmap[JOKERS[j]] = m[i]
                m[i] = JOKERS[j]
        hand = [c for m in written for c in m] + dead
        rng.shuffle(hand)
        return hand, written, jmap, used | set(dead)


def defender_hand(rng, used, jokers=0, jokers_taken=()):
    pool = [c for c in DECK if c not in used]
    free_jokers = [j for j in JOKERS[:jokers] if j not in jokers_taken]
    k = rng.randint(0, len(free_jokers)) if free_jokers else 0
    hand = rng.sample(pool, 10 - k) + free_jokers[:k]
    rng.shuffle(hand)
    return hand


# --- profiles --------------------------------------------------------------------
OVERRIDES = {
    "knock_limit": lambda r: r.choice([0, 5, 9, 10, "upcard"]),
    "ace_upcard_knock_limit": lambda r: r.choice([0, 1]),
    "spade_doubling": lambda r: r.random() < 0.5,
    "gin_bonus": lambda r: r.choice([0, 20, 25, 31, 10000]),
    "big_gin_bonus": lambda r: r.choice([None, 31, 50]),
    "undercut_bonus": lambda r: r.choice([0, 10, 20, 25]),
    "tie_is_undercut": lambda r: r.random() < 0.5,
    "scoreless_hand_won": lambda r: r.random() < 0.5,
    "layoffs_on_gin": lambda r: r.random() < 0.5,
    "stock_end": lambda r: r.choice(["void", "fiftieth_card"]),
    "next_dealer": lambda r: r.choice(["alternate", "winner"]),
    "target": lambda r: r.choice([1, 50, 100, 125, 150, 250]),
    "hollywood": lambda r: r.random() < 0.3,
    "game_bonus": lambda r: r.choice([0, 100, 200]),
    "box_bonus": lambda r: r.choice([0, 20, 25]),
    "box_bonus_timing": lambda r: r.choice(["end_of_game", "each_hand"]),
    "shutout": lambda r: r.choice(["double_hand_points_and_game_bonus", "double_total",
                                   "flat_bonus", "double_game_bonus"]),
    "shutout_bonus": lambda r: r.choice([0, 100]),
    "shutout_test": lambda r: r.choice(["scored_nothing", "won_no_hand"]),
    "settlement": lambda r: r.choice(["totals_and_net", "winner_scores_difference"]),
    "jokers": lambda r: r.choice([0, 1, 2]),
    "joker_deadwood": lambda r: r.choice([0, 15, 25]),
    "joker_min_natural": lambda r: r.choice([1, 2, 3]),
    "joker_layoff": lambda r: r.random() < 0.5,
    "joker_pickup_must_meld": lambda r: r.random() < 0.5,
}
BAD_PROFILES = [
    "okla", "Standard", "", {"base": "okla"}, {"base": "standard", "gin_bonus": 10001},
    {"base": "standard", "ace_upcard_knock_limit": 5}, {"knock_limit": 11}, {"jokers": 3},
    {"base": "jokers", "joker_deadwood": 10}, {"base": "jokers", "joker_min_natural": 0},
    {"gin_bonus": -1}, {"gin_bonus": "x"}, {"gin_bonus": 2.5}, {"colour": "red"},
    {"target": 0}, {"knock_limit": "upper"}, 7, ["standard"], {"shutout": "nope"},
    {"base": 5}, {"jokers": 1e400}, {"jokers": -1},
]


def profile_for(rng, jokers=0, allow_hollywood=True):
    """(profile or None, has upcard-dependent limit, joker count)."""
    r = rng.random()
    if jokers:
        if r < 0.5:
            return "jokers", False, 2
        over = {"base": rng.choice(["standard", "jokers", "pagat", "oklahoma"]), "jokers": jokers}
        for k in rng.sample(["joker_deadwood", "joker_min_natural", "joker_layoff",
                             "joker_pickup_must_meld", "gin_bonus", "knock_limit"], rng.randint(0, 3)):
            over[k] = OVERRIDES[k](rng)
        return over, over["base"] == "oklahoma" or over.get("knock_limit") == "upcard", jokers
    if r < 0.35:
        return None, False, 0
    if r < 0.8:
        p = rng.choice([x for x in PRESETS if x != "jokers" and (allow_hollywood or x != "hollywood")])
        return p, p == "oklahoma", 0
    over = {}
    if rng.random() < 0.8:
        over["base"] = rng.choice([x for x in PRESETS if x != "jokers"])
    keys = [k for k in OVERRIDES if not k.startswith("joker")]
    for k in rng.sample(keys, rng.randint(1, 4)):
        over[k] = OVERRIDES[k](rng)
    if not allow_hollywood:
        over.pop("hollywood", None)
        if over.get("base") == "hollywood":
            over["base"] = "standard"
    upcard = over.get("base") == "oklahoma" and "knock_limit" not in over or over.get("knock_limit") == "upcard"
    return over, upcard, 0


def with_profile(rng, body, profile, needs_upcard, hand_cards, key="upcard"):
    if profile is not None:
        body["profile"] = profile
    if needs_upcard or rng.random() < 0.1:
        if rng.random() < 0.95 or not needs_upcard:
            rest = [c for c in DECK if c not in hand_cards]
            body[key] = rng.choice(rest)
    return body


# --- operations --------------------------------------------------------------------
def analyze_body(rng):
    r = rng.random()
    n = 11 if rng.random() < 0.4 else 10
    jokers = 0
    if rng.random() < 0.3:
        jokers = rng.choice([1, 2])
    if r < 0.6:
        hand = random_hand(rng, n, jokers)
        tag = f"random{n}_j{jokers}"
    elif r < 0.8:
        hand = adversarial_hand(rng, n, jokers)
        tag = f"adversarial{n}_j{jokers}"
    elif r < 0.9:
        hand, _, _, used = knock_hand(rng, jokers=jokers)
        if n == 11:
            hand = hand + [rng.choice([c for c in DECK if c not in used])]
        tag = f"meldy{n}_j{jokers}"
    else:
        if jokers:
            hand = rng.choice(WILD_WORST).split()
        else:
            hand = rng.choice(WORST).split()
        if n == 11:
            hand = hand + [rng.choice([c for c in DECK if c not in hand])]
        jokers = sum(1 for c in hand if c[0] == "X")
        tag = f"worst{n}_j{jokers}"
    profile, up, _ = profile_for(rng, jokers)
    if jokers == 2 and isinstance(profile, dict):
        profile["jokers"] = 2
    body = {"hand": hand}
    with_profile(rng, body, profile, up, hand)
    if n == 10 and rng.random() < 0.2:
        body["all_arrangements"] = True
    elif rng.random() < 0.05:
        body["all_arrangements"] = False
    return respell(rng, body), tag


def validate_body(rng):
    r = rng.random()
    if r < 0.4:
        hand, melds, _, _ = knock_hand(rng)
        body = {"melds": melds}
        if rng.random() < 0.7:
            body["hand"] = hand
        tag = "valid_melds"
    elif r < 0.8:
        hand = random_hand(rng, rng.choice([10, 11]))
        melds = []
        i = 0
        while i < len(hand) - 2 and rng.random() < 0.8:
            k = rng.choice([3, 3, 4])
            melds.append(hand[i:i + k])
            i += k
        body = {"melds": melds}
        if rng.random() < 0.6:
            body["hand"] = hand
        tag = "random_melds"
    else:
        hand, melds, _, _ = knock_hand(rng)
        melds = [list(m) for m in melds]
        kind = rng.randrange(5)
        if kind == 0 and len(melds) > 1:
            melds[1][0] = melds[0][0]  # a card in two melds
        elif kind == 1:
            melds.append(["KS", "AS", "2S"])  # no wrap
        elif kind == 2:
            melds[0] = melds[0][:2]
        elif kind == 3:
            melds.append([])
        else:
            hand = hand[:-1] + [hand[0]]  # duplicate in hand: 422
        body = {"melds": melds, "hand": hand}
        tag = "faulty_melds"
    return respell(rng, body), tag


def knock_body(rng, for_layoffs=False):
    """A /v1/hands/score (or /v1/layoffs) body."""
    r = rng.random()
    jokers = 0
    if r < 0.25:
        jokers = rng.choice([1, 2])
    profile, up, _ = profile_for(rng, jokers)
    if jokers == 2 and isinstance(profile, dict):
        profile["jokers"] = 2
    limit = 10
    if profile in ("straight",):
        limit = 0
    elif isinstance(profile, dict) and isinstance(profile.get("knock_limit"), int):
        limit = profile["knock_limit"]
    is_gin = rng.random() < 0.15
    jk = rng.randint(0, jokers) if jokers else 0
    hand, melds, jmap, used = knock_hand(rng, limit=0 if is_gin else limit, jokers=jk)
    knocker = {"hand": hand}
    tag = f"knock_j{jokers}"
    if rng.random() < 0.5 or jmap:
        if rng.random() < 0.85:
            knocker["melds"] = melds
            if jmap:
                knocker["jokers"] = jmap
            tag += "_declared"
    big = False
    if not for_layoffs and rng.random() < 0.05:
        # big gin: 11 melded cards under a big-gin profile
        extra = [c for c in DECK if c not in used]
        knocker = {"hand": hand + [rng.choice(extra)]}
        profile = {"base": "standard", "big_gin_bonus": 31}
        big = True
        tag = "big_gin_try"
    defender = {"hand": defender_hand(rng, used, jokers, list(jmap))}
    if not for_layoffs and not big and rng.random() < 0.3:
        # declared layoffs: each defender card that extends a knocker meld
        lay = []
        for c in defender["hand"]:
            if c[0] == "X":
                continue
            for i, m in enumerate(melds):
                nat = [x for x in m if x[0] != "X"]
                if all(x[0] == c[0] for x in nat) and len(m) == 3:
                    lay.append({"card": c, "meld": i})
                    break
                if all(x[1] == c[1] for x in nat) and len(set(x[0] for x in nat)) == len(nat):
                    ranks = sorted(gin.rank(x) for x in nat)
                    if gin.rank(c) in (ranks[0] - 1, ranks[-1] + 1) and len(nat) == len(m):
                        lay.append({"card": c, "meld": i})
                        break
        joker = next((c for c in defender["hand"] if c[0] == "X"), None)
        if joker and rng.random() < 0.7:
            for i, m in enumerate(melds):
                if all(x[0] != "X" for x in m) and len(set(x[1] for x in m)) == 1:
                    ranks = sorted(gin.rank(x) for x in m)
                    if ranks[-1] < 12:
                        lay.append({"card": joker, "meld": i,
                                    "stands_for": RANKS[ranks[-1] + 1] + m[0][1]})
                        tag += "_joker_layoff"
                        break
        if lay or rng.random() < 0.3:
            defender["layoffs"] = lay
            tag += "_layoffs"
    body = {"knocker": knocker, "defender": defender}
    with_profile(rng, body, profile, up, hand + defender["hand"])
    if not for_layoffs and rng.random() < 0.1:
        body["receipt"] = rng.random() < 0.8
    return respell(rng, body), tag


def seeds(rng):
    return "%064x" % rng.getrandbits(256)


def deal_body(rng):
    r = rng.random()
    body = {"server_seed": seeds(rng), "client_seed": rng.choice(
        ["player", "", "é" * 10, "ü:1:2", "casino-42", "x" * 256, str(rng.random())]),
        "nonce": rng.choice([0, 1, 2, rng.randrange(2**53), 2**53 - 1])}
    if rng.random() < 0.3:
        body["jokers"] = rng.choice([0, 1, 2])
    tag = "deal"
    if r < 0.15:
        tag = "deal_error"
        k = rng.randrange(9)
        if k == 0:
            body["server_seed"] = body["server_seed"][:63]
        elif k == 1:
            body["server_seed"] = "zz" + body["server_seed"][2:]
        elif k == 2:
            body["nonce"] = 2**53
        elif k == 3:
            body["nonce"] = -1
        elif k == 4:
            body["client_seed"] = "é" * 200
        elif k == 5:
            body["jokers"] = 3
        elif k == 6:
            del body["nonce"]
        elif k == 7:
            body["nonce"] = 1.5
        else:
            body["extra"] = True
    if rng.random() < 0.1:
        body["server_seed"] = body["server_seed"].upper()
    return body, tag


def deal_cards(rng, jokers=0, recorder=False):
    if rng.random() < 0.5:
        deck = DECK + JOKERS[:jokers]
        deck = rng.sample(deck, len(deck))
        deal = {"non_dealer": deck[0:20:2], "dealer": deck[1:20:2], "upcard": deck[20],
                "stock": deck[21:]}
        spec = dict(deal)
    else:
        ss = seeds(rng)
        cs = rng.choice(["player", "table-7", "é"])
        nonce = rng.randrange(1000)
        deal = gin.fair_deal(ss, cs, nonce, jokers)
        spec = {"seeds": {"server_seed": ss, "client_seed": cs, "nonce": nonce},
                "commitment": gin.commitment(ss)}
    return deal, spec


MUTATIONS = ["wrong_player", "discard_not_held", "discard_taken", "knock_over", "wrong_card",
             "extra_after_end", "drop_action", "duplicate_action", "draw_empty_pile",
             "truncate", "bad_commitment", "layoff_not_held"]


def mutate(rng, actions, deal, spec):
    actions = [dict(a) for a in actions]
    kind = rng.choice(MUTATIONS)
    if not actions:
        return actions, spec, "empty"
    i = rng.randrange(len(actions))
    a = actions[i]
    if kind == "wrong_player":
        a["player"] = "dealer" if a["player"] == "non_dealer" else "non_dealer"
    elif kind == "discard_not_held":
        for a in actions:
            if a["action"] == "discard":
                a["card"] = deal["stock"][-1]
                break
    elif kind == "discard_taken":
        for j, a in enumerate(actions[:-1]):
            if a["action"] == "draw" and a.get("from") == "discard_pile" and actions[j + 1]["action"] == "discard":
                actions[j + 1]["card"] = a["card"]
                break
        else:
            kind = "wrong_card"
    if kind == "knock_over":
        for a in actions:
            if a["action"] == "discard":
                a["action"] = "knock"
                a["discard"] = a.pop("card")
                break
    elif kind == "wrong_card":
        for a in actions:
            if a["action"] == "draw" and "card" in a:
                a["card"] = rng.choice(DECK)
                break
    elif kind == "extra_after_end":
        actions.append({"player": "dealer", "action": "draw", "from": "stock"})
    elif kind == "drop_action":
        del actions[i]
    elif kind == "duplicate_action":
        actions.insert(i, dict(a))
    elif kind == "draw_empty_pile":
        actions.insert(i, {"player": a["player"], "action": "draw", "from": "discard_pile"})
    elif kind == "truncate":
        actions = actions[:i]
    elif kind == "bad_commitment":
        if "commitment" in spec:
            spec = dict(spec, commitment="0" * 64)
        else:
            actions = actions[:i]
    elif kind == "layoff_not_held":
        actions.append({"player": "dealer", "action": "lay_off", "layoffs": [{"card": "AS", "meld": 0}]})
    return actions, spec, kind


def audit_record(rng, jokers=0):
    """(body, tag) of a /v1/hands/audit request played out by the bot."""
    if jokers:
        profile = rng.choice(["jokers", {"base": "jokers", "joker_pickup_must_meld": True},
                              {"base": "standard", "jokers": 1}, {"base": "jokers", "joker_deadwood": 25}])
        if isinstance(profile, dict) and profile.get("jokers") == 1:
            jokers = 1
    else:
        profile = rng.choice([None, "standard", "oklahoma", "straight", "tournament", "pagat",
                              "open-gin", "schneider", {"base": "standard", "big_gin_bonus": 31},
                              {"base": "oklahoma", "ace_upcard_knock_limit": 1},
                              {"base": "tournament", "knock_limit": 5}])
    deal, spec = deal_cards(rng, jokers)
    stock_end = profile in ("tournament",) or (isinstance(profile, dict) and profile.get("base") == "tournament")
    big = isinstance(profile, dict) and "big_gin_bonus" in profile
    actions, outcome = gin.play_out(rng, deal, profile or "standard", jokers, fiftieth=stock_end,
                                    big_gin=big, knock_eagerness=rng.choice([0.3, 0.7, 1.0]),
                                    declare=rng.choice([0.0, 0.5, 1.0]))
    jv = profile.get("joker_deadwood", 15) if isinstance(profile, dict) else 15
    if outcome == "knock":
        actions = gin.reply(rng, actions, deal, jv)
    tag = f"playout_{outcome}_j{jokers}"
    if "stock" in spec and rng.random() < 0.2:
        # as a recorder has it: only the cards drawn from the stock
        drawn = sum(1 for a in actions if a["action"] == "draw" and a["from"] == "stock")
        spec = dict(spec, stock=spec["stock"][:rng.randint(0, drawn)])
        for a in actions:
            if a["action"] == "draw" and a["from"] == "stock" and "card" not in a:
                a["card"] = None  # filled below
        # name every stock draw so that the record is complete
        stock = deal["stock"]
        k = 0
        for a in actions:
            if a["action"] == "draw" and a["from"] == "stock":
                a["card"] = stock[k]
                k += 1
        tag += "_recorder"
    if rng.random() < 0.35:
        actions, spec, kind = mutate(rng, actions, deal, spec)
        tag += "_mut_" + kind
    elif rng.random() < 0.1:
        actions = actions[:rng.randrange(len(actions) + 1)]
        tag += "_unfinished"
    body = {"deal": spec, "actions": actions}
    if profile is not None:
        body["profile"] = profile
    if rng.random() < 0.1:
        body["receipt"] = True
    return body, tag, deal, actions, outcome


def deadwood_guess(deal, actions, seat, jv=15):
    hand = gin._hand_at_end(deal, actions, seat)
    return gin.deadwood(hand, jv)[0] if hand else 99


def match_audit_body(rng):
    r = rng.random()
    if r < 0.6:
        players = ["Ann", "Bob"]
        kind = "two"
    elif r < 0.8:
        players = ["Ann", "Bob", "Cy"]
        kind = "three"
    else:
        players = None
        kind = "teams"
    jokers = 2 if rng.random() < 0.15 else 0
    profile = "jokers" if jokers else rng.choice([None, "standard", "oklahoma", "pagat", "schneider",
                                                  "open-gin", "partnership", "tournament",
                                                  {"base": "standard", "next_dealer": "winner"},
                                                  {"base": "standard", "target": 50}])
    if kind == "teams" and profile is None and rng.random() < 0.5:
        profile = "partnership"
    seeded = rng.random() < 0.4
    ss, cs, nonce = seeds(rng), rng.choice(["club", "é"]), rng.randrange(100)

    def one_hand(dealer, non_dealer):
        nonlocal nonce
        if seeded:
            nonce += rng.choice([1, 1, 2])
            deal = gin.fair_deal(ss, cs, nonce, jokers)
            spec = {"seeds": {"server_seed": ss, "client_seed": cs, "nonce": nonce},
                    "commitment": gin.commitment(ss)}
        else:
            deck = rng.sample(DECK + JOKERS[:jokers], 52 + jokers)
            deal = {"non_dealer": deck[0:20:2], "dealer": deck[1:20:2], "upcard": deck[20], "stock": deck[21:]}
            spec = deal
        actions, outcome = gin.play_out(rng, deal, profile or "standard", jokers,
                                        fiftieth=profile == "tournament", knock_eagerness=0.9,
                                        declare=0.3)
        if outcome == "knock":
            actions = gin.reply(rng, actions, deal)
        rec = {"dealer": dealer, "deal": spec, "actions": actions}
        if non_dealer and (kind != "two" or rng.random() < 0.7):
            rec["non_dealer"] = non_dealer
        # the knocker's seat and a guess of who won (for the rotation)
        winner = None
        if outcome == "knock":
            k = actions[-1] if actions[-1]["action"] == "knock" else actions[-2]
            kseat = k["player"]
            dseat = "dealer" if kseat == "non_dealer" else "non_dealer"
            kd = deadwood_guess(deal, actions, kseat)
            dd = deadwood_guess(deal, actions, dseat)
            names = {"dealer": dealer, "non_dealer": non_dealer}
            winner = names[kseat] if kd < dd or kd == 0 else names[dseat]
        return rec, winner

    hands = []
    count = rng.randint(1, 6)
    if kind == "two":
        dealer = rng.choice(players)
        for _ in range(count):
            other = players[1] if dealer == players[0] else players[0]
            rec, _ = one_hand(dealer, other)
            hands.append(rec)
            dealer = other
    elif kind == "three":
        pair = rng.sample(players, 2)
        for _ in range(count):
            rec, winner = one_hand(pair[0], pair[1])
            hands.append(rec)
            if winner:
                out = [p for p in players if p not in pair][0]
                pair = [winner, out] if rng.random() < 0.5 else [out, winner]
    else:
        teams = [{"name": "North-South", "players": ["Ann", "Cy"]},
                 {"name": "East-West", "players": ["Bob", "Dee"]}]
        a1, a2 = teams[0]["players"]
        b1, b2 = teams[1]["players"]
        for d in range(count):
            pairs = [(a1, b1), (a2, b2)] if d % 2 == 0 else [(a1, b2), (a2, b1)]
            tables = []
            for p, q in pairs:
                dealer, other = (p, q) if rng.random() < 0.5 else (q, p)
                rec, _ = one_hand(dealer, other)
                tables.append(rec)
            if rng.random() < 0.3:
                tables.reverse()
            hands.append({"tables": tables})
    body = {"hands": hands}
    if kind == "teams":
        body["teams"] = teams
    else:
        body["players"] = players
    if profile is not None:
        body["profile"] = profile
    tag = f"match_audit_{kind}_{'seeded' if seeded else 'cards'}_j{jokers}"
    if rng.random() < 0.25:
        m = rng.randrange(5)
        if m == 0 and len(hands) > 1 and kind == "two":
            hands[1]["dealer"] = hands[0]["dealer"]
            tag += "_wrong_dealer"
        elif m == 1 and seeded and kind != "teams":
            hands[-1]["deal"] = dict(hands[-1]["deal"], commitment="ab" * 32)
            tag += "_bad_commitment"
        elif m == 2 and kind != "teams":
            hands[0]["actions"] = hands[0]["actions"][:3]
            tag += "_unfinished_first"
        elif m == 3:
            body["claimed"] = {"final": {p: {"total": rng.randrange(400)} for p in (players or ["North-South", "East-West"])}}
            tag += "_claimed"
        else:
            body["claimed"] = {"complete": rng.random() < 0.5, "winner": None}
            tag += "_claimed_complete"
    return body, tag


def cut_actions(rng, actions):
    """A prefix of a hand's actions: a hand still in play (most of the time)."""
    return actions[:rng.randrange(len(actions) + 1)]


def bot(rng):
    """A bot of the move operations: mostly the cheap ones, `strong` with few samples."""
    x = rng.random()
    if x < 0.45:
        b = {"name": "random"}
    elif x < 0.9:
        b = {"name": "simple"}
    else:
        b = {"name": "strong", "samples": rng.randint(1, 3)}
    if rng.random() < 0.7:
        b["seed"] = rng.randrange(2**32)
    return b


BAD_BOTS = [{"name": "nobody"}, {}, {"name": "strong", "samples": 0}, {"name": "random", "seed": -1},
            {"name": "simple", "knob": 1}, "simple", {"name": "strong", "samples": 257}]


def hand_state_body(rng, move=False):
    """(body, tag) of /v1/hands/state (or /v1/hands/move): a played-out hand,
    mostly cut short, seen from a seat (or as the referee)."""
    body, tag, *_ = audit_record(rng, jokers=2 if rng.random() < 0.2 else 0)
    body.pop("receipt", None)
    if rng.random() < 0.7:
        body["actions"] = cut_actions(rng, body["actions"])
        tag += "_cut"
    seats = ["dealer", "non_dealer"]
    if move:
        body["seat"] = rng.choice(seats)
        body["bot"] = bot(rng)
    elif rng.random() < 0.7:
        body["seat"] = rng.choice(seats)
    if rng.random() < 0.3:
        body["openspiel"] = rng.random() < 0.8
    x = rng.random()
    if x < 0.04:
        body["seat"] = rng.choice(["north", "", 1, None])
        tag += "_error_seat"
    elif x < 0.07 and move:
        body["bot"] = rng.choice(BAD_BOTS)
        tag += "_error_bot"
    elif x < 0.09:
        body["spectator"] = True
        tag += "_error_unknown_field"
    return body, ("move_" if move else "state_") + tag


def match_state_body(rng, move=False):
    """(body, tag) of /v1/matches/state (or /v1/matches/move): a match audit's
    body with its last hand (or deal) mostly cut short, seen by a player, the
    public or the referee."""
    body, tag = match_audit_body(rng)
    body.pop("claimed", None)
    hands = body["hands"]
    if hands and rng.random() < 0.75:
        last = hands[-1]
        for table in last.get("tables", [last]):
            table["actions"] = cut_actions(rng, table["actions"])
        tag += "_cut"
    names = body.get("players") or [p for t in body.get("teams", []) for p in t["players"]]
    x = rng.random()
    if move:
        body["seat"] = rng.choice(names) if x < 0.95 else rng.choice(["Zed", ""])
        body["bot"] = bot(rng) if rng.random() < 0.97 else rng.choice(BAD_BOTS)
    elif x < 0.6:
        body["seat"] = rng.choice(names)
    elif x < 0.8:
        body["spectator"] = True
    elif x < 0.83:
        body["seat"], body["spectator"] = rng.choice(names), True
    elif x < 0.86:
        body["seat"] = "Zed"
    if rng.random() < 0.3:
        body["openspiel"] = rng.random() < 0.8
    return body, ("move_" if move else "state_") + tag


def count_hand(rng, knocker, defender=None, big=False):
    kd = 0 if rng.random() < 0.2 else rng.randint(1, 10)
    h = {"knocker": knocker, "knocker_deadwood": kd, "defender_deadwood": rng.randint(0, 90)}
    if defender:
        h["defender"] = defender
    if big and kd == 0 and rng.random() < 0.3:
        h["big_gin"] = True
    return h


def hand_points(h):
    kd, dd = h["knocker_deadwood"], h["defender_deadwood"]
    if kd == 0:
        return True, 25 + dd
    if kd < dd:
        return True, dd - kd
    return False, 25 + kd - dd


def match_score_body(rng):
    r = rng.random()
    profile, up, _ = profile_for(rng, 0, allow_hollywood=True)
    target = profile.get("target", 100) if isinstance(profile, dict) else 100
    big = isinstance(profile, dict) and bool(profile.get("big_gin_bonus"))
    if r < 0.55:
        players = rng.choice([["Mom", "Dad"], ["Elder", "Younger"], ["Ann", "Bob"], ["é" * 40, "b"]])
        hands, totals = [], {p: 0 for p in players}
        for _ in range(rng.randint(0, 14)):
            x = rng.random()
            who = rng.choice(players)
            if x < 0.1:
                hands.append({"void": True})
                continue
            if x < 0.3:
                while True:
                    body, tag = knock_body(rng)
                    text = json.dumps([body["knocker"], body["defender"]]).upper()
                    if '"X' not in text and "big_gin" not in tag:
                        break
                h = {"knocker": who, "knocker_hand": body["knocker"], "defender_hand": body["defender"]}
                if "upcard" in body or up:
                    h["upcard"] = body.get("upcard") or rng.choice([c for c in DECK if c not in text])
                hands.append(h)
                totals[who] += 20  # about what a knock scores
                if max(totals.values()) >= target and rng.random() < 0.8:
                    break
                continue
            h = count_hand(rng, who, big=big)
            if up:
                h["upcard"] = rng.choice(DECK)
            won, pts = hand_points(h)
            winner = who if won else [p for p in players if p != who][0]
            totals[winner] += pts
            hands.append(h)
            if max(totals.values()) >= target and rng.random() < 0.8:
                break
        body = {"players": players, "hands": hands}
        tag = "two_players"
    elif r < 0.8:
        players = ["Ann", "Bob", "Cy"]
        pair = rng.sample(players, 2)
        hands, totals = [], {p: 0 for p in players}
        for _ in range(rng.randint(1, 12)):
            if rng.random() < 0.1:
                hands.append({"void": True, "players": list(pair)})
                continue
            k, d = pair if rng.random() < 0.5 else pair[::-1]
            h = count_hand(rng, k, d, big=big)
            if up:
                h["upcard"] = rng.choice(DECK)
            won, pts = hand_points(h)
            winner = k if won else d
            totals[winner] += pts
            hands.append(h)
            out = [p for p in players if p not in pair][0]
            pair = [winner, out]
            if max(totals.values()) >= target and rng.random() < 0.8:
                break
        if rng.random() < 0.1 and hands:
            hands.append(dict(hands[-1]))  # likely breaks the rotation
        body = {"players": players, "hands": hands}
        if isinstance(profile, dict):
            profile.pop("hollywood", None)
            if profile.get("base") == "hollywood":
                profile["base"] = "standard"
        elif profile == "hollywood" and rng.random() < 0.8:
            profile = "standard"
        tag = "three_players"
    else:
        teams = [{"name": "North-South", "players": ["Ann", "Cy"]}, {"name": "East-West", "players": ["Bob", "Dee"]}]
        a1, a2 = teams[0]["players"]
        b1, b2 = teams[1]["players"]
        hands = []
        team = {a1: 0, a2: 0, b1: 1, b2: 1}
        totals = [0, 0]
        for d in range(rng.randint(1, 10)):
            pairs = [(a1, b1), (a2, b2)] if d % 2 == 0 else [(a1, b2), (a2, b1)]
            tables = []
            net = 0
            for p, q in pairs:
                if rng.random() < 0.1:
                    tables.append({"void": True, "players": [p, q]})
                else:
                    k, dd = (p, q) if rng.random() < 0.5 else (q, p)
                    h = count_hand(rng, k, dd, big=big)
                    if up:
                        h["upcard"] = rng.choice(DECK)
                    won, pts = hand_points(h)
                    net += pts if team[k if won else dd] == 0 else -pts
                    tables.append(h)
            hands.append({"tables": tables})
            totals[0 if net > 0 else 1] += abs(net)
            if max(totals) >= min(target, 100) and rng.random() < 0.85:
                break
        body = {"teams": teams, "hands": hands}
        if profile is None and rng.random() < 0.5:
            profile = "partnership"
        tag = "partnership"
    if profile is not None:
        body["profile"] = profile
    if rng.random() < 0.1:
        body["receipt"] = True
    return body, tag


# --- the error bodies ------------------------------------------------------------------
def malformed(rng, good):
    text = json.dumps(good)
    k = rng.randrange(10)
    if k == 0:
        return text[: rng.randrange(1, len(text))], "truncated_json"
    if k == 1:
        return text + " x", "trailing_garbage"
    if k == 2:
        return "", "empty_body"
    if k == 3:
        return "null", "null_body"
    if k == 4:
        return text.replace('"', "'"), "single_quotes"
    if k == 5:
        return "[" * 2000 + "]" * 2000, "deeply_nested"
    if k == 6:
        return '{"hand": ["7S", "7H",], }', "trailing_comma"
    if k == 7:
        return b'{"hand": ["7S\xff"]}', "invalid_utf8"
    if k == 8:
        return "\ufeff" + text, "bom"
    return text + "\n" + text, "two_values"


def invalid_shape(rng, good, op):
    body = json.loads(json.dumps(good))
    k = rng.randrange(10)
    keys = list(body.keys())
    if k == 0:
        body["unexpected"] = 1
        return body, "unknown_field"
    if k == 1 and keys:
        del body[rng.choice(keys)]
        return body, "missing_field"
    if k == 2 and keys:
        body[rng.choice(keys)] = rng.choice([5, "x", [], {}, True, None, 1.5])
        return body, "wrong_type"
    if k == 3:
        return [body], "array_body"
    if k == 4:
        return rng.choice([5, "x", True]), "scalar_body"
    if k == 5:
        s = json.dumps(body)
        for c in DECK:
            if f'"{c}"' in s:
                return json.loads(s.replace(f'"{c}"', '"1X"', 1)), "unparseable_card"
        return {"hand": ["1X"]}, "unparseable_card"
    if k == 6:
        s = json.dumps(body)
        return json.loads(s.replace('"', '"', 1)) if False else dict(body, **{keys[0] if keys else "a": {"nested": {"deep": [1, 2, {"x": None}]}}}), "nested_wrong_type"
    if k == 7:
        return dict(body, hand=DECK + DECK[:5]) if "hand" in body else dict(body, melds=[DECK[:3]] * 70), "too_many_items"
    if k == 8:
        body["receipt"] = "yes"
        return body, "receipt_wrong_type"
    first = keys[0] if keys else "hand"
    return json.loads("{" + f'"{first}": 1, "{first}": 2' + "}"), "duplicate_field"


def rule_errors(rng, op):
    """Bodies that are JSON of the right shape but impossible (mostly 422)."""
    T = ["7S", "7H", "7D", "7C", "8H", "9H", "KS", "QD", "2C", "3D"]
    K = ["3H", "4H", "5H", "9S", "9H", "9D", "3C", "4C", "5C", "AH"]
    D = ["6H", "2H", "JS", "JH", "JD", "7S", "7H", "7C", "4D", "5S"]
    if op == "analyze":
        cases = [({"hand": T[:9]}, "wrong_card_count"), ({"hand": T[:1] + T[:9]}, "duplicate_card"),
                 ({"hand": T[:9] + ["X1"]}, "joker_not_in_deck"),
                 ({"hand": T[:9] + ["X2"], "profile": {"jokers": 1}}, "joker_x2_one_joker"),
                 ({"hand": T, "profile": "oklahoma"}, "upcard_required"),
                 ({"hand": DECK}, "wrong_card_count_52"), ({"hand": []}, "empty_hand"),
                 ({"hand": T + ["X3"], "profile": "jokers"}, "bad_joker_name"),
                 ({"hand": random_hand(rng, rng.choice([1, 5, 9, 12, 20]))}, "wrong_card_count"),
                 ({"hand": T, "upcard": "7S", "profile": "oklahoma"}, "upcard_in_hand"),
                 ({"hand": T, "profile": rng.choice(BAD_PROFILES)}, "bad_profile")]
    elif op in ("score", "layoffs"):
        dup = K[:9] + ["6H"]
        cases = [({"knocker": {"hand": dup}, "defender": {"hand": D}}, "duplicate_card"),
                 ({"knocker": {"hand": K[:9]}, "defender": {"hand": D}}, "wrong_card_count"),
                 ({"knocker": {"hand": ["KS", "QD", "TC", "9C", "8D", "6C", "5H", "3S", "2D", "AC"]}, "defender": {"hand": D}}, "knock_over_limit"),
                 ({"knocker": {"hand": K, "melds": [["3H", "4H", "9S"]]}, "defender": {"hand": D}}, "invalid_melds"),
                 ({"knocker": {"hand": K + ["KS"]}, "defender": {"hand": D}, "profile": {"base": "standard", "big_gin_bonus": 31}}, "not_big_gin"),
                 ({"knocker": {"hand": ["3H", "4H", "5H", "9S", "9H", "9D", "3C", "4C", "5C", "6C", "9C"]}, "defender": {"hand": D}}, "big_gin_not_allowed"),
                 ({"knocker": {"hand": K}, "defender": {"hand": D}, "profile": "oklahoma"}, "upcard_required"),
                 ({"knocker": {"hand": K[:9] + ["X1"]}, "defender": {"hand": D}}, "joker_not_in_deck"),
                 ({"knocker": {"hand": K}, "defender": {"hand": D}, "profile": rng.choice(BAD_PROFILES)}, "bad_profile"),
                 ({"knocker": {"hand": K, "melds": [["3H", "4H", "5H"], ["3H", "4H", "5H"]]}, "defender": {"hand": D}}, "meld_twice"),
                 ({"knocker": {"hand": ["5H", "X1", "7H", "9S", "9H", "9D", "3C", "4C", "5C", "AH"], "melds": [["5H", "X1", "7H"]], "jokers": {"X1": "KS"}}, "defender": {"hand": D}, "profile": "jokers"}, "joker_stands_wrong"),
                 ({"knocker": {"hand": ["5H", "X1", "7H", "9S", "9H", "9D", "3C", "4C", "5C", "AH"], "melds": [["5H", "X1", "7H"]]}, "defender": {"hand": D}, "profile": "jokers"}, "joker_unnamed")]
        if op == "score":
            melds = [["3H", "4H", "5H"], ["9S", "9H", "9D"], ["3C", "4C", "5C"]]
            G = ["3H", "4H", "5H", "9S", "9H", "9D", "3C", "4C", "5C", "6C"]
            cases += [({"knocker": {"hand": G}, "defender": {"hand": D, "layoffs": [{"card": "6H", "meld": 0}]}}, "layoffs_not_allowed"),
                      ({"knocker": {"hand": K, "melds": melds}, "defender": {"hand": D, "layoffs": [{"card": "2S", "meld": 0}]}}, "layoff_card_not_in_hand"),
                      ({"knocker": {"hand": K, "melds": melds}, "defender": {"hand": D, "layoffs": [{"card": "6H", "meld": 0}, {"card": "6H", "meld": 0}]}}, "layoff_card_repeated"),
                      ({"knocker": {"hand": K, "melds": melds}, "defender": {"hand": D, "layoffs": [{"card": "6H", "meld": 9}]}}, "layoff_meld_not_found"),
                      ({"knocker": {"hand": K, "melds": melds}, "defender": {"hand": D, "layoffs": [{"card": "6H", "meld": 4294967295}]}}, "layoff_meld_max"),
                      ({"knocker": {"hand": K, "melds": melds}, "defender": {"hand": D, "layoffs": [{"card": "6H", "meld": 4294967296}]}}, "layoff_meld_over_u32"),
                      ({"knocker": {"hand": K, "melds": melds}, "defender": {"hand": D, "layoffs": [{"card": "JS", "meld": 0}]}}, "layoff_does_not_fit"),
                      ({"knocker": {"hand": K, "melds": melds}, "defender": {"hand": D[:9] + ["X2"], "layoffs": [{"card": "X2", "meld": 0, "stands_for": "6H"}]}, "profile": "jokers"}, "joker_layoff_taken"),
                      ({"knocker": {"hand": K, "melds": melds}, "defender": {"hand": D[:9] + ["X2"], "layoffs": [{"card": "X2", "meld": 0, "stands_for": "2H"}]}, "profile": {"base": "jokers", "joker_layoff": False}}, "joker_layoff_off"),
                      ({"knocker": {"hand": K, "melds": melds}, "defender": {"hand": D[:9] + ["X2"], "layoffs": [{"card": "X2", "meld": 0}]}, "profile": "jokers"}, "joker_layoff_no_stands_for")]
    elif op == "validate":
        cases = [({"melds": [["7S", "7H", "7D"]], "hand": T[:1] + T[:9]}, "duplicate_card"),
                 ({"melds": [DECK[:3]] * 65}, "too_many_melds"),
                 ({"melds": [["X1", "7H", "7D"]]}, "joker_in_validate"),
                 ({"melds": [["7S", "7S", "7S"]]}, "repeated_card_in_meld"),
                 ({"melds": [], "hand": []}, "empty"),
                 ({"melds": [["QS", "KS", "AS"]], "hand": None}, "wrap_run")]
    elif op == "deals":
        cases = [deal_body(rng) for _ in range(3)]
    elif op == "matches":
        def cnt(k, kd, dd, **kw):
            return dict({"knocker": k, "knocker_deadwood": kd, "defender_deadwood": dd}, **kw)
        s0 = [cnt("Mom", 5, 15), cnt("Mom", 0, 6), cnt("Mom", 4, 2), cnt("Mom", 10, 43),
              cnt("Dad", 0, 10), cnt("Mom", 0, 11), {"void": True}]
        teams = [{"name": "NS", "players": ["Ann", "Cy"]}, {"name": "EW", "players": ["Bob", "Dee"]}]
        cases = [({"players": ["Mom", "Dad"], "hands": s0}, "game_over"),
                 ({"players": ["Mom", "Dad"], "hands": s0[:6]}, "seed_000"),
                 ({"players": ["Mom", "Dad"], "hands": s0[:6], "profile": "schneider"}, "seed_000_schneider"),
                 ({"players": ["Mom", "Dad"], "hands": [cnt("Mom", 3, 20, big_gin=True)], "profile": {"base": "standard", "big_gin_bonus": 31}}, "big_gin_with_deadwood"),
                 ({"players": ["Mom", "Dad"], "hands": [cnt("Mom", 0, 99)]}, "impossible_count"),
                 ({"players": [" ", "Dad"], "hands": []}, "blank_player_name"),
                 ({"players": ["Mom", "Mom"], "hands": []}, "duplicate_player_name"),
                 ({"players": ["Mom", "Dad"], "hands": [cnt("Eve", 5, 15)]}, "unknown_player"),
                 ({"players": ["Ann", "Bob", "Cy"], "hands": [cnt("Ann", 4, 20, defender="Ann")]}, "same_player_twice"),
                 ({"players": ["Ann", "Bob", "Cy"], "hands": [cnt("Ann", 4, 20, defender="Bob")] * 2}, "rotation_broken"),
                 ({"teams": teams, "hands": [{"tables": [cnt("Ann", 3, 15, defender="Cy"), cnt("Dee", 2, 12, defender="Bob")]}]}, "pairing_broken"),
                 ({"profile": "hollywood", "players": ["Ann", "Bob", "Cy"], "hands": []}, "hollywood_not_defined"),
                 ({"teams": [dict(teams[0], name=""), teams[1]], "hands": []}, "blank_team_name"),
                 ({"hands": []}, "players_or_teams"),
                 ({"players": ["Mom", "Dad"], "teams": teams, "hands": []}, "players_and_teams"),
                 ({"players": ["Mom", "Dad"], "hands": [{"tables": [cnt("Mom", 5, 15), cnt("Dad", 5, 15)]}]}, "wrong_hand_shape"),
                 ({"players": ["Mom", "Dad"], "hands": [cnt("Mom", 5, 15)], "profile": "oklahoma"}, "upcard_required"),
                 ({"players": ["Mom", "Dad"], "hands": [cnt("Mom", 5, 15)], "profile": rng.choice(BAD_PROFILES)}, "bad_profile"),
                 ({"players": ["Mom", "Dad"], "hands": [{"void": False}]}, "void_false"),
                 ({"players": ["Mom"], "hands": []}, "one_player"),
                 ({"players": ["A", "B", "C", "D"], "hands": []}, "four_players")]
    else:
        cases = []
    return rng.choice(cases)


# --- writing the corpus ----------------------------------------------------------------
def batch_lines(rng, maker, n_lines):
    lines = []
    tags = []
    for i in range(n_lines):
        x = rng.random()
        if x < 0.04:
            lines.append("")
            continue
        if x < 0.08:
            lines.append(rng.choice(["not json", "{", "[1,2]", "null", '{"hand": "x"}', "5"]))
            continue
        body, tag = maker()
        if not isinstance(body, dict):
            lines.append(json.dumps(body))
            continue
        if rng.random() < 0.3:
            body = dict(body, id=rng.choice([i, f"line-{i}", {"nested": [i, None]}, None, 1.5]))
        lines.append(json.dumps(body, separators=(",", ":")) if rng.random() < 0.5 else json.dumps(body))
        tags.append(tag)
    end = "\n" if rng.random() < 0.8 else ("\r\n" if rng.random() < 0.5 else "")
    sep = "\r\n" if end == "\r\n" else "\n"
    return sep.join(lines) + end


def build(c):
    rng = c.rng
    P = "POST"

    # -- GET operations -------------------------------------------------------------
    for _ in range(c.n(300)):
        c.add("GET /healthz", "GET", "/healthz")
    for _ in range(c.n(300)):
        c.add("GET /readyz", "GET", "/readyz")
    for _ in range(c.n(300)):
        c.add("GET /v1/profiles", "GET", "/v1/profiles")
    for i in range(c.n(400)):
        name = PRESETS[i % len(PRESETS)] if rng.random() < 0.8 else rng.choice(
            ["okla", "Standard", "STANDARD", "open_gin", "", "%20", "jokers%00", "x" * 500, "hollywood/", "a.b"])
        c.add("GET /v1/profiles/{name}", "GET", "/v1/profiles/" + name)
    for _ in range(c.n(300)):
        c.add("GET /problems", "GET", "/problems")
    for i in range(c.n(400)):
        code = ERROR_CODES_HINT[i % len(ERROR_CODES_HINT)]
        c.add("GET /problems/{code}", "GET", "/problems/" + code)
    for _ in range(c.n(300)):
        c.add("GET /v1/keys", "GET", "/v1/keys")
    for _ in range(c.n(200)):
        c.add("GET /api-docs/openapi.json", "GET", "/api-docs/openapi.json")
    for _ in range(c.n(100)):
        c.add("GET /docs/", "GET", rng.choice(["/docs/", "/docs", "/docs/index.html", "/docs/swagger-ui.css", "/docs/nothing.js"]))
    for _ in range(c.n(250)):
        path = rng.choice(["/", "/v1", "/v1/", "/v2/hands/analyze", "/v1/hands/analyse", "/v1/hands",
                           "/v1/hands/state", "/HEALTHZ", "/healthz/", "/v1/profiles/standard/x",
                           "/v1/hands/analyze/batch/x", "/metrics/x", "/v1/deals/1", "/%ff", "/v1/keys?x=1",
                           "/healthz?verbose=true", "/v1/profiles?name=standard"])
        c.add("GET (other paths)", "GET", path)
    for _ in range(c.n(250)):
        method, path = rng.choice([("GET", "/v1/hands/analyze"), ("PUT", "/v1/hands/score"), ("DELETE", "/v1/profiles"),
                                   ("POST", "/healthz"), ("POST", "/v1/profiles"), ("PATCH", "/v1/deals"),
                                   ("GET", "/v1/hands/audit/batch"), ("POST", "/v1/keys"), ("HEAD", "/healthz"),
                                   ("OPTIONS", "/v1/hands/analyze"), ("POST", "/problems"), ("HEAD", "/v1/profiles")])
        body = '{"hand": []}' if method in ("POST", "PUT", "PATCH") else None
        c.add("wrong method", method, path, body)

    # -- single POST operations, weighted: {op: (count, maker)} ----------------------------
    def make_error(kind_op, good_maker, op_key):
        x = rng.random()
        good, _ = good_maker()
        if x < 0.3:
            body, tag = malformed(rng, good)
        elif x < 0.7:
            body, tag = invalid_shape(rng, good, op_key)
        else:
            body, tag = rule_errors(rng, op_key)
        return body, "error_" + tag

    singles = [
        ("POST /v1/hands/analyze", "/v1/hands/analyze", 6500, lambda: analyze_body(rng), "analyze"),
        ("POST /v1/melds/validate", "/v1/melds/validate", 1500, lambda: validate_body(rng), "validate"),
        ("POST /v1/layoffs", "/v1/layoffs", 1600, lambda: knock_body(rng, for_layoffs=True), "layoffs"),
        ("POST /v1/hands/score", "/v1/hands/score", 2200, lambda: knock_body(rng), "score"),
        ("POST /v1/deals", "/v1/deals", 800, lambda: deal_body(rng), "deals"),
        ("POST /v1/matches/score", "/v1/matches/score", 1500, lambda: match_score_body(rng), "matches"),
    ]
    for op, path, count, maker, key in singles:
        for _ in range(c.n(count)):
            if rng.random() < 0.12:
                body, tag = make_error(op, maker, key)
            else:
                body, tag = maker()
            c.add(op, P, path, body, tag=tag)

    def audit_maker():
        body, tag, *_ = audit_record(rng, jokers=2 if rng.random() < 0.2 else 0)
        return body, tag

    for _ in range(c.n(2200)):
        if rng.random() < 0.06:
            good, _ = audit_maker()
            body, tag = malformed(rng, good) if rng.random() < 0.4 else invalid_shape(rng, good, "audit")
            tag = "error_" + tag
        elif rng.random() < 0.04:
            body, tag = rule_errors_audit(rng)
        else:
            body, tag = audit_maker()
        c.add("POST /v1/hands/audit", P, "/v1/hands/audit", respell(rng, body, 0.05), tag=tag)
    # the live state and the bots' moves, of a hand and of a match
    lives = [
        ("POST /v1/hands/state", "/v1/hands/state", 1200, lambda: hand_state_body(rng), "state"),
        ("POST /v1/hands/move", "/v1/hands/move", 700, lambda: hand_state_body(rng, move=True), "hand_move"),
        ("POST /v1/matches/state", "/v1/matches/state", 900, lambda: match_state_body(rng), "match_state"),
        ("POST /v1/matches/move", "/v1/matches/move", 600, lambda: match_state_body(rng, move=True), "match_move"),
    ]
    for op, path, count, maker, key in lives:
        for _ in range(c.n(count)):
            if rng.random() < 0.05:
                good, _ = maker()
                body, tag = malformed(rng, good) if rng.random() < 0.5 else invalid_shape(rng, good, key)
                tag = "error_" + tag
            else:
                body, tag = maker()
            c.add(op, P, path, body, tag=tag)
    for _ in range(c.n(600)):
        if rng.random() < 0.06:
            good, _ = match_audit_body(rng)
            body, tag = invalid_shape(rng, good, "match_audit")
            tag = "error_" + tag
        else:
            body, tag = match_audit_body(rng)
        c.add("POST /v1/matches/audit", P, "/v1/matches/audit", body, tag=tag)

    # -- batches ---------------------------------------------------------------------------
    batches = [
        ("POST /v1/hands/analyze/batch", "/v1/hands/analyze/batch", lambda: analyze_body(rng), 400, 40),
        ("POST /v1/melds/validate/batch", "/v1/melds/validate/batch", lambda: validate_body(rng), 300, 30),
        ("POST /v1/layoffs/batch", "/v1/layoffs/batch", lambda: knock_body(rng, for_layoffs=True), 300, 20),
        ("POST /v1/hands/score/batch", "/v1/hands/score/batch", lambda: knock_body(rng), 300, 20),
        ("POST /v1/hands/audit/batch", "/v1/hands/audit/batch", audit_maker, 300, 6),
    ]
    for op, path, maker, count, max_lines in batches:
        for _ in range(c.n(count)):
            x = rng.random()
            if x < 0.85:
                body = batch_lines(rng, maker, rng.randint(1, max_lines))
                c.add(op, P, path, body, ctype=NDJSON, tag="ndjson")
            elif x < 0.9:
                items = [maker()[0] for _ in range(rng.randint(1, 4))]
                c.add(op, P, path, json.dumps(items), ctype=JSON, tag="json_array")
            elif x < 0.95:
                line = json.dumps(maker()[0])
                c.add(op, P, path, line + "\n" + "{" + " " * 70000 + "}\n" + line + "\n", ctype=NDJSON, tag="line_too_long")
            else:
                c.add(op, P, path, "", ctype=rng.choice([NDJSON, "application/x-ndjson; charset=utf-8", "text/plain"]), tag="empty_or_ctype")

    # -- content types, encodings and sizes on every JSON operation ----------------------------
    json_ops = [(op, path, maker) for op, path, _, maker, _ in singles] + [
        ("POST /v1/hands/audit", "/v1/hands/audit", audit_maker),
        ("POST /v1/matches/audit", "/v1/matches/audit", lambda: match_audit_body(rng))]
    for op, path, maker in json_ops:
        for _ in range(c.n(60)):
            body, _ = maker()
            text = json.dumps(body)
            k = rng.randrange(9)
            if k == 0:
                c.add(op, P, path, text, ctype=rng.choice(["text/plain", "application/xml", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded", NDJSON]), tag="ctype_refused")
            elif k == 1:
                c.add(op, P, path, text, ctype=None, tag="ctype_missing")
            elif k == 2:
                c.add(op, P, path, text, ctype=rng.choice(["application/json; charset=utf-8", "APPLICATION/JSON", "application/problem+json", "application/vnd.api+json"]), tag="ctype_variant")
            elif k == 3:
                c.add(op, P, path, gzip.compress(text.encode(), mtime=0), headers={"content-encoding": "gzip"}, tag="gzip")
            elif k == 4:
                c.add(op, P, path, zlib.compress(text.encode()), headers={"content-encoding": "deflate"}, tag="deflate")
            elif k == 5:
                c.add(op, P, path, text, headers={"content-encoding": rng.choice(["br", "zstd", "compress"])}, tag="encoding_refused")
            elif k == 6:
                limit = 1048576 if "matches/audit" in path else 65536
                c.add(op, P, path, text[:-1] + " " * (limit + 10 - len(text)) + "}", tag="oversize")
            elif k == 7:
                c.add(op, P, path, gzip.compress((text[:-1] + " " * 300000 + "}").encode(), mtime=0),
                      headers={"content-encoding": "gzip"}, tag="gzip_oversize")
            else:
                c.add(op, P, path, text, headers={"x-request-id": f"replay-{rng.randrange(10**6)}"}, tag="request_id")

    # -- limits: long names, many melds, big numbers ------------------------------------------
    for _ in range(c.n(150)):
        k = rng.randrange(5)
        if k == 0:
            c.add("POST /v1/matches/score", P, "/v1/matches/score",
                  {"players": ["a" * rng.choice([40, 41, 1000]), "b"], "hands": []}, tag="limit_name")
        elif k == 1:
            c.add("POST /v1/melds/validate", P, "/v1/melds/validate",
                  {"melds": [["7S", "7H", "7D"]] * rng.choice([64, 65])}, tag="limit_melds")
        elif k == 2:
            c.add("POST /v1/matches/score", P, "/v1/matches/score",
                  {"players": ["A", "B"], "hands": [{"void": True}] * rng.choice([500, 501])}, tag="limit_hands")
        elif k == 3:
            c.add("POST /v1/hands/audit", P, "/v1/hands/audit",
                  {"deal": deal_cards(rng)[1], "actions": [{"player": "dealer", "action": "pass"}] * rng.choice([256, 257])}, tag="limit_actions")
        else:
            c.add("POST /v1/matches/score", P, "/v1/matches/score",
                  {"players": ["A", "B"], "hands": [{"knocker": "A", "knocker_deadwood": rng.choice([11, 2**31, 2**64, -1]), "defender_deadwood": rng.choice([130, 131, 10**20])}]}, tag="limit_numbers")

    # -- GET /metrics, spread through the corpus (its counters are cumulative) ---------------
    items = c.items
    rng.shuffle(items)
    for _ in range(c.n(300)):
        items.insert(rng.randrange(len(items) + 1), {"op": "GET /metrics", "tag": "", "method": "GET",
                                                     "path": "/metrics", "headers": {}})
    return items


def rule_errors_audit(rng):
    deal, spec = deal_cards(rng)
    k = rng.randrange(6)
    if k == 0:
        spec = json.loads(json.dumps(deal))
        spec["dealer"][0] = spec["non_dealer"][0]
        return {"deal": spec, "actions": []}, "error_audit_duplicate_card"
    if k == 1:
        spec = dict(deal, dealer=deal["dealer"][:2])
        return {"deal": spec, "actions": []}, "error_audit_wrong_card_count"
    if k == 2:
        return {"deal": {"seeds": {"server_seed": "00" * 32, "client_seed": "é" * 200, "nonce": 0},
                         "commitment": gin.commitment("00" * 32)}, "actions": []}, "error_client_seed_too_long"
    if k == 3:
        spec = dict(deal, stock=[])
        return {"deal": spec, "actions": [{"player": "non_dealer", "action": "pass"},
                                          {"player": "dealer", "action": "pass"},
                                          {"player": "non_dealer", "action": "draw", "from": "stock"}]}, "error_unrecorded_draw"
    if k == 4:
        spec = dict(deal, upcard="X1")
        return {"deal": spec, "actions": []}, "error_joker_not_in_deck"
    return {"deal": spec, "actions": [], "profile": rng.choice(BAD_PROFILES)}, "error_bad_profile"


def main():
    args = sys.argv[1:]
    seed, scale = 20261126, 1.0
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus.jsonl")
    while args:
        a = args.pop(0)
        if a == "--seed":
            seed = int(args.pop(0))
        elif a == "--scale":
            scale = float(args.pop(0))
        else:
            out = a
    c = Corpus(seed, scale)
    items = build(c)
    with open(out, "w") as f:
        for it in items:
            f.write(json.dumps(it, ensure_ascii=False) + "\n")
    counts = {}
    for it in items:
        counts[it["op"]] = counts.get(it["op"], 0) + 1
    print(f"{len(items)} requests written to {out}", file=sys.stderr)
    for op in sorted(counts):
        print(f"  {counts[op]:6d}  {op}", file=sys.stderr)


if __name__ == "__main__":
    main()
