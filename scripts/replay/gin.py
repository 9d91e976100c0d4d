"""Just enough Gin Rummy in Python for scripts/replay/corpus.py to write
realistic requests: cards, an exact joker-free minimum-deadwood search, a
joker-aware one that is good enough to decide a bot's knock, the fair-deal
algorithm of POST /v1/deals (docs/RECEIPTS.md, "Provably fair deals"), and a bot that
plays a hand out into an audit transcript.

Nothing here is the referee: the corpus only needs requests that are mostly
legal and sometimes not, and the service's answers are what the replay
compares. Every random choice comes from the `random.Random` passed in.
"""
import hashlib
import hmac
from functools import lru_cache

RANKS = "A23456789TJQK"
SUITS = "SHDC"
DECK = [r + s for s in SUITS for r in RANKS]  # the /v1/deals order
INDEX = {c: i for i, c in enumerate(DECK)}
JOKERS = ["X1", "X2"]


def rank(card):
    return RANKS.index(card[0])


def suit(card):
    return SUITS.index(card[1])


def _value(card):
    if card[0] == "X":
        return 15
    return min(rank(card) + 1, 10)


VALUE = {c: _value(c) for c in DECK + JOKERS}


def value(card):
    return VALUE[card]


def card_at(s, r):
    return RANKS[r] + SUITS[s]


# --- joker-free melds as bit masks over DECK indices ------------------------
def _melds():
    melds = []
    for r in range(13):
        cards = [s * 13 + r for s in range(4)]
        for skip in range(4):
            melds.append(sum(1 << c for i, c in enumerate(cards) if i != skip))
        melds.append(sum(1 << c for c in cards))
    for s in range(4):
        for start in range(13):
            for end in range(start + 3, 14):
                melds.append(sum(1 << (s * 13 + r) for r in range(start, end)))
    return melds


MELDS = _melds()
# the melds by their lowest card, so that a hand looks only at its own cards'
MELDS_BY_LOW = [[m for m in MELDS if m & -m == 1 << i] for i in range(52)]
MASK_VALUE = {}


def mask_value(mask):
    v = MASK_VALUE.get(mask)
    if v is None:
        v = 0
        m = mask
        while m:
            low = m & -m
            v += value(DECK[low.bit_length() - 1])
            m ^= low
        MASK_VALUE[mask] = v
    return v


def mask_of(cards):
    m = 0
    for c in cards:
        m |= 1 << INDEX[c]
    return m


def cards_of(mask):
    return [DECK[i] for i in range(52) if mask >> i & 1]


@lru_cache(maxsize=200_000)
def best_melds(hand_mask):
    """(melded value, tuple of meld masks) maximising the melded value."""
    cands = []
    rest = hand_mask
    while rest:
        low = rest & -rest
        rest ^= low
        cands.extend(m for m in MELDS_BY_LOW[low.bit_length() - 1] if m & hand_mask == m)

    def search(i, used):
        best = (0, ())
        for j in range(i, len(cands)):
            m = cands[j]
            if m & used:
                continue
            v, rest = search(j + 1, used | m)
            v += mask_value(m)
            if v > best[0]:
                best = (v, (m,) + rest)
        return best

    return search(0, 0)


def deadwood(cards, joker_value=15, min_natural=2):
    """Minimum deadwood of cards (jokers allowed), and the melds found
    (each a list of cards, jokers written in place, with what they stand for)."""
    naturals = [c for c in cards if c[0] != "X"]
    jokers = [c for c in cards if c[0] == "X"]
    total = sum(value(c) for c in naturals)
    if not jokers:
        v, melds = best_melds(mask_of(naturals))
        return total - v, [(cards_of(m), {}) for m in melds]
    dead, melds = _wild_deadwood_cached(tuple(sorted(naturals)), tuple(sorted(jokers)), joker_value,
                                        min_natural, total)
    return dead, [(list(m), dict(n)) for m, n in melds]


@lru_cache(maxsize=100_000)
def _wild_deadwood_cached(naturals, jokers, joker_value, min_natural, total):
    dead, melds = _wild_deadwood(naturals, jokers, joker_value, min_natural, total)
    return dead, tuple((tuple(m), tuple(sorted(n.items()))) for m, n in melds)


def _wild_deadwood(naturals, jokers, joker_value, min_natural, total):
    hand = mask_of(naturals)
    n_j = len(jokers)
    # candidate melds: (natural mask, [stood-for cards in order of jokers used])
    cands = [(m, []) for m in MELDS if m & hand == m]
    for r in range(13):
        have = [s for s in range(4) if hand >> (s * 13 + r) & 1]
        missing = [s for s in range(4) if s not in have]
        from itertools import combinations
        for k in range(min_natural, len(have) + 1):
            for nat in combinations(have, k):
                for j in range(1, n_j + 1):
                    if 3 <= k + j <= 4 and j <= len(missing):
                        cands.append((sum(1 << (s * 13 + r) for s in nat),
                                      [card_at(s, r) for s in missing[:j]]))
    for s in range(4):
        for start in range(13):
            for end in range(start + 3, min(start + 11, 13) + 1):
                window = [s * 13 + r for r in range(start, end)]
                nat = [i for i in window if hand >> i & 1]
                gaps = [i for i in window if not hand >> i & 1]
                if 1 <= len(gaps) <= n_j and len(nat) >= min_natural:
                    cands.append((sum(1 << i for i in nat), [DECK[i] for i in gaps]))
    best = [0, ()]

    def search(i, used, jokers_left, stood, value_so_far, chosen):
        if value_so_far > best[0]:
            best[0], best[1] = value_so_far, tuple(chosen)
        for j in range(i, len(cands)):
            m, stands = cands[j]
            if m & used or len(stands) > jokers_left:
                continue
            smask = sum(1 << INDEX[c] for c in stands)
            if smask & (used | stood) or m & stood:
                continue
            chosen.append(cands[j])
            search(j + 1, used | m, jokers_left - len(stands), stood | smask,
                   value_so_far + mask_value(m) + joker_value * len(stands), chosen)
            chosen.pop()

    search(0, 0, n_j, 0, 0, [])
    # without any meld the jokers count joker_value each
    dead = total + joker_value * n_j - best[0]
    melds = []
    free = list(jokers)
    for m, stands in best[1]:
        pairs = [(c, c) for c in cards_of(m)]
        names = {}
        for c in stands:
            x = free.pop(0)
            names[x] = c
            pairs.append((c, x))
        pairs.sort(key=lambda p: (rank(p[0]), suit(p[0])))
        melds.append(([w for _, w in pairs], names))
    return dead, melds


def best_discard(cards, joker_value=15, min_natural=2):
    return _best_discard(tuple(sorted(cards)), joker_value, min_natural)


@lru_cache(maxsize=100_000)
def _best_discard(cards, joker_value, min_natural):
    """(deadwood after the best discard, that discard) for 11 cards; the
    highest card among equal choices, a joker never (it is kept)."""
    best = None
    for c in sorted(set(cards), key=lambda c: (-value(c), c)):
        if c[0] == "X" and any(x[0] != "X" for x in cards):
            continue
        rest = list(cards)
        rest.remove(c)
        d, _ = deadwood(rest, joker_value, min_natural)
        if best is None or d < best[0]:
            best = (d, c)
    return best


# --- POST /v1/deals, exactly as docs/RECEIPTS.md describes it ------------------
def fair_deal(server_seed_hex, client_seed, nonce, jokers=0):
    key = bytes.fromhex(server_seed_hex)
    stream = bytearray()
    block = [0]

    def u32():
        while len(stream) < 4:
            msg = f"{client_seed}:{nonce}:{block[0]}".encode()
            stream.extend(hmac.new(key, msg, hashlib.sha256).digest())
            block[0] += 1
        x = int.from_bytes(stream[:4], "big")
        del stream[:4]
        return x

    def below(n):
        limit = 2**32 - (2**32 % n)
        while True:
            x = u32()
            if x < limit:
                return x % n

    deck = DECK + JOKERS[:jokers]
    for i in range(len(deck) - 1, 0, -1):
        j = below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return {
        "non_dealer": deck[0:20:2],
        "dealer": deck[1:20:2],
        "upcard": deck[20],
        "stock": deck[21:],
    }


def commitment(server_seed_hex):
    return hashlib.sha256(bytes.fromhex(server_seed_hex)).hexdigest()


# --- a bot that plays a hand out -----------------------------------------------
def knock_limit(profile, upcard):
    """The knock limit of the presets the bot plays (and of simple overrides)."""
    name = profile if isinstance(profile, str) else (profile or {}).get("base", "standard")
    over = profile if isinstance(profile, dict) else {}
    limit = over.get("knock_limit", {"straight": 0, "oklahoma": "upcard"}.get(name, 10))
    if limit == "upcard":
        if upcard[0] == "X":
            return 10
        v = value(upcard)
        return over.get("ace_upcard_knock_limit", 0) if v == 1 else v
    return limit


def play_out(rng, deal, profile="standard", jokers=0, fiftieth=False, big_gin=False,
             knock_eagerness=0.7, declare=0.5):
    """Plays a hand from `deal` with two greedy bots. Returns (actions, outcome)
    where outcome is "knock", "void" or "fiftieth_void"."""
    jv = 15
    if isinstance(profile, dict):
        jv = profile.get("joker_deadwood", 15)
    hands = {"dealer": list(deal["dealer"]), "non_dealer": list(deal["non_dealer"])}
    stock = list(deal["stock"])
    pile = [deal["upcard"]]
    limit = knock_limit(profile, deal["upcard"])
    actions = []
    other = {"dealer": "non_dealer", "non_dealer": "dealer"}

    def dw(cards):
        return deadwood(cards, jv)[0]

    def finish_turn(seat, taken_from_pile=None):
        """The seat holds 11 cards: knock or discard. True when it knocked."""
        hand = hands[seat]
        if big_gin and dw(hand) == 0:
            act = {"player": seat, "action": "knock"}
            if rng.random() < declare:
                _, melds = deadwood(hand, jv)
                act["melds"] = [m for m, _ in melds]
                names = {k: v for _, n in melds for k, v in n.items()}
                if names:
                    act["jokers"] = names
            actions.append(act)
            return True
        d, discard = best_discard(hand, jv)
        if discard == taken_from_pile:
            # never the card just taken: the next best
            alts = [c for c in hand if c != taken_from_pile and c[0] != "X"] or [c for c in hand if c != taken_from_pile]
            discard = max(alts, key=lambda c: (value(c), c))
            rest = list(hand)
            rest.remove(discard)
            d = dw(rest)
        if d <= limit and (d == 0 or rng.random() < knock_eagerness):
            hand.remove(discard)
            act = {"player": seat, "action": "knock", "discard": discard}
            if rng.random() < declare:
                _, melds = deadwood(hand, jv)
                act["melds"] = [m for m, _ in melds]
                names = {k: v for _, n in melds for k, v in n.items()}
                if names:
                    act["jokers"] = names
            actions.append(act)
            pile.append(discard)
            return True
        hand.remove(discard)
        pile.append(discard)
        actions.append({"player": seat, "action": "discard", "card": discard})
        return False

    def wants(seat, card):
        with_card = best_discard(hands[seat] + [card], jv)[0]
        return with_card < dw(hands[seat])

    # the upcard offer
    seat = "non_dealer"
    taken = False
    for offered in ("non_dealer", "dealer"):
        if wants(offered, pile[-1]):
            card = pile.pop()
            hands[offered].append(card)
            actions.append({"player": offered, "action": "draw", "from": "discard_pile", "card": card})
            if finish_turn(offered, card):
                return actions, "knock"
            seat = other[offered]
            taken = True
            break
        actions.append({"player": offered, "action": "pass"})
    if not taken:
        seat = "non_dealer"
    floor = 2
    while True:
        if len(stock) <= floor:
            break
        top = pile[-1] if pile else None
        if top is not None and wants(seat, top):
            card = pile.pop()
            hands[seat].append(card)
            actions.append({"player": seat, "action": "draw", "from": "discard_pile", "card": card})
            came = card
        else:
            card = stock.pop(0)
            hands[seat].append(card)
            act = {"player": seat, "action": "draw", "from": "stock"}
            if rng.random() < 0.7:
                act["card"] = card
            actions.append(act)
            came = None
        if finish_turn(seat, came):
            return actions, "knock"
        seat = other[seat]
    if fiftieth:
        # the opponent of the player who drew the 50th card may take the
        # discard only to knock with it
        top = pile[-1]
        hand = hands[seat] + [top]
        d, discard = best_discard(hand, jv)
        if d <= limit and discard != top:
            pile.pop()
            hands[seat].append(top)
            actions.append({"player": seat, "action": "draw", "from": "discard_pile", "card": top})
            hands[seat].remove(discard)
            actions.append({"player": seat, "action": "knock", "discard": discard})
            return actions, "knock"
        actions.append({"player": seat, "action": "pass"})
        return actions, "fiftieth_void"
    return actions, "void"


def reply(rng, actions, deal, jv=15):
    """Maybe appends the defender's reply after a knock."""
    knock = actions[-1]
    defender = "dealer" if knock["player"] == "non_dealer" else "non_dealer"
    r = rng.random()
    if r < 0.45:
        return actions
    if r < 0.65:
        return actions + [{"player": defender, "action": "lay_off", "layoffs": []}]
    # the defender's own melds, layoffs left to the referee
    hand = _hand_at_end(deal, actions, defender)
    if hand is None:
        return actions
    _, melds = deadwood(hand, jv)
    act = {"player": defender, "action": "lay_off", "melds": [m for m, _ in melds]}
    names = {k: v for _, n in melds for k, v in n.items()}
    if names:
        act["jokers"] = names
    return actions + [act]


def _hand_at_end(deal, actions, seat):
    hands = {"dealer": list(deal["dealer"]), "non_dealer": list(deal["non_dealer"])}
    stock = list(deal["stock"])
    pile = [deal["upcard"]]
    try:
        for a in actions:
            p = a["player"]
            if a["action"] == "draw":
                hands[p].append(pile.pop() if a["from"] == "discard_pile" else stock.pop(0))
            elif a["action"] == "discard":
                hands[p].remove(a["card"])
                pile.append(a["card"])
            elif a["action"] == "knock" and a.get("discard"):
                hands[p].remove(a["discard"])
    except (ValueError, IndexError):
        return None
    return hands[seat]
