//! Fuzzing the request bodies: every request type through the service's JSON
//! reader ([`from_slice`]), and every POST endpoint of the real router in
//! process, with arbitrary JSON, well-shaped requests, and well-shaped requests
//! mutated (a value replaced, a member dropped or added, a byte flipped, the
//! text cut short).
//!
//! What must hold: no panic; a body that is not JSON is `malformed_json`, JSON of
//! the wrong shape is `invalid_body` with at least one error whose pointer
//! resolves in the document (a missing member: its parent resolves and it is
//! absent or null); and no endpoint ever answers 5xx. Case counts come from
//! `FUZZ_CASES` as in [`gin_rules::strategies`]; `scripts/fuzz.sh` runs these
//! properties (`fuzz::`) with many more.

use actix_web::http::StatusCode;
use actix_web::test::{TestRequest, call_service, init_service, read_body};
use actix_web::{App, web};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use utoipa_actix_web::AppExt;

use gin_contract::answers::audit::AuditRequest;
use gin_contract::answers::hands::{AnalyzeRequest, ScoreRequest};
use gin_contract::answers::layoffs::LayoffsRequest;
use gin_contract::answers::matches::MatchRequest;
use gin_contract::answers::melds::ValidateRequest;
use gin_contract::json::{from_slice, from_slice_tracked, may_spell_integers_as_floats};
use gin_referee::config::DEFAULT_BODY_LIMIT;
use gin_referee::http::json::BodyLimit;
use gin_referee::http::observe::Observe;
use gin_referee::http::problem::{PROBLEM_JSON, Problem, ProblemDocument};
use gin_referee::monitoring::metrics::Metrics;
use gin_rules::strategies::{config, deal, meldy_hand};
use gin_rules::{Card, CardSet, Preset, best_arrangement, min_deadwood};

/// Every member name a request body can hold, so that generated objects hit
/// real fields (and their type checks) rather than only `unknown_field`.
const FIELDS: &[&str] = &[
    "hand",
    "melds",
    "profile",
    "upcard",
    "all_arrangements",
    "knocker",
    "defender",
    "layoffs",
    "card",
    "meld",
    "base",
    "knock_limit",
    "ace_upcard_knock_limit",
    "spade_doubling",
    "gin_bonus",
    "big_gin_bonus",
    "undercut_bonus",
    "tie_is_undercut",
    "layoffs_on_gin",
    "stock_end",
    "target",
    "hollywood",
    "game_bonus",
    "box_bonus",
    "box_bonus_timing",
    "shutout",
    "shutout_bonus",
    "shutout_test",
    "settlement",
    "players",
    "hands",
    "knocker_deadwood",
    "defender_deadwood",
    "big_gin",
    "knocker_hand",
    "defender_hand",
    "void",
    "deal",
    "actions",
    "dealer",
    "non_dealer",
    "stock",
    "player",
    "action",
    "from",
    "discard",
];

fn card_text() -> impl Strategy<Value = String> {
    prop_oneof![
        18 => (0usize..52).prop_map(|i| deck()[i].to_string()),
        1 => prop_oneof![Just("10♥"), Just("as"), Just("1X"), Just(""), Just("TSS"), Just("♠A")]
            .prop_map(str::to_owned),
        // Jokers: read under the `jokers` preset, refused elsewhere.
        1 => prop_oneof![Just("X1"), Just("x2"), Just("X3")].prop_map(str::to_owned),
        1 => "\\PC{0,3}",
    ]
}

fn deck() -> Vec<Card> {
    Card::deck().collect()
}

fn string_value() -> impl Strategy<Value = String> {
    prop_oneof![
        card_text(),
        proptest::sample::select(FIELDS).prop_map(str::to_owned),
        proptest::sample::select(Preset::ALL.map(|p| p.name()).to_vec()).prop_map(str::to_owned),
        Just("upcard".to_owned()),
        any::<String>(),
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => proptest::sample::select(FIELDS).prop_map(str::to_owned),
        1 => any::<String>(),
        1 => Just("a/b~c".to_owned()),
    ]
}

fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        (0u64..=12).prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        // Integers spelt as floats take the respelling path.
        proptest::sample::select(vec![0.0, 3.0, -1.0, 1e2, 10.5, 1e300, -0.0, 4294967296.0])
            .prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
    ]
}

/// Any JSON document, a few levels deep, with keys and strings that often
/// mean something to the service.
fn arbitrary_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number(),
        string_value().prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 96, 12, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..12).prop_map(Value::Array),
            vec((key(), inner), 0..6)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
}

fn cards_json(cards: &[Card]) -> Value {
    Value::Array(cards.iter().map(|c| Value::String(c.to_string())).collect())
}

fn melds_json(hand: CardSet) -> Value {
    Value::Array(
        best_arrangement(hand, &gin_rules::JokerRules::NONE)
            .melds
            .iter()
            .map(|m| cards_json(&m.cards().to_vec()))
            .collect(),
    )
}

/// A hand as a client writes it: usually distinct cards in any notation,
/// sometimes the wrong number or a repeat.
fn hand_json() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => meldy_hand(10).prop_map(|h| cards_json(&h.to_vec())),
        2 => meldy_hand(11).prop_map(|h| cards_json(&h.to_vec())),
        1 => vec(card_text(), 0..14).prop_map(|cards| json!(cards)),
        1 => vec(0usize..52, 9..12).prop_map(|i| cards_json(&i.iter().map(|&i| deck()[i]).collect::<Vec<_>>())),
    ]
}

fn profile_json() -> impl Strategy<Value = Option<Value>> {
    let parameter = prop_oneof![
        Just(("knock_limit", json!("upcard"))),
        (0u64..12).prop_map(|n| ("knock_limit", json!(n))),
        (0u64..3).prop_map(|n| ("ace_upcard_knock_limit", json!(n))),
        any::<bool>().prop_map(|b| ("spade_doubling", json!(b))),
        (0u64..20_000).prop_map(|n| ("gin_bonus", json!(n))),
        prop_oneof![Just(Value::Null), (0u64..20_000).prop_map(Value::from)]
            .prop_map(|v| ("big_gin_bonus", v)),
        (0u64..20_000).prop_map(|n| ("undercut_bonus", json!(n))),
        any::<bool>().prop_map(|b| ("tie_is_undercut", json!(b))),
        any::<bool>().prop_map(|b| ("layoffs_on_gin", json!(b))),
        (0u64..20_000).prop_map(|n| ("target", json!(n))),
        any::<bool>().prop_map(|b| ("hollywood", json!(b))),
        proptest::sample::select(Preset::ALL.map(|p| p.name()).to_vec())
            .prop_map(|name| ("base", json!(name))),
    ];
    prop_oneof![
        3 => Just(None),
        2 => proptest::sample::select(Preset::ALL.map(|p| p.name()).to_vec()).prop_map(|n| Some(json!(n))),
        1 => Just(Some(json!("gin"))),
        2 => vec(parameter, 0..4).prop_map(|ps| {
            Some(Value::Object(ps.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()))
        }),
    ]
}

fn upcard_json() -> impl Strategy<Value = Option<Value>> {
    prop_oneof![Just(None), card_text().prop_map(|c| Some(json!(c))),]
}

fn object(members: Vec<(&str, Option<Value>)>) -> Value {
    Value::Object(
        members
            .into_iter()
            .filter_map(|(k, v)| v.map(|v| (k.to_owned(), v)))
            .collect(),
    )
}

fn validate_request() -> impl Strategy<Value = Value> {
    (
        prop_oneof![
            meldy_hand(10).prop_map(melds_json),
            vec(vec(card_text(), 0..5), 0..5).prop_map(|m| json!(m)),
        ],
        proptest::option::of(hand_json()),
    )
        .prop_map(|(melds, hand)| object(vec![("melds", Some(melds)), ("hand", hand)]))
}

fn analyze_request() -> impl Strategy<Value = Value> {
    (
        hand_json(),
        profile_json(),
        upcard_json(),
        proptest::option::of(any::<bool>()),
    )
        .prop_map(|(hand, profile, upcard, all)| {
            object(vec![
                ("hand", Some(hand)),
                ("profile", profile),
                ("upcard", upcard),
                ("all_arrangements", all.map(Value::Bool)),
            ])
        })
}

/// Both hands of a knock, disjoint, with declared melds and layoffs sometimes.
fn knock_request(with_layoffs: bool) -> impl Strategy<Value = Value> {
    (
        deal(),
        profile_json(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        vec((card_text(), 0u64..5), 0..4),
    )
        .prop_map(
            move |(
                (knocker, defender, upcard),
                profile,
                declare_knocker,
                declare_defender,
                lay,
                layoffs,
            )| {
                let knocker_set =
                    CardSet::from_distinct(knocker.iter().copied()).unwrap_or_default();
                let defender_set =
                    CardSet::from_distinct(defender.iter().copied()).unwrap_or_default();
                let layoffs = (with_layoffs && lay).then(|| {
                    Value::Array(
                        layoffs
                            .into_iter()
                            .map(|(card, meld)| json!({"card": card, "meld": meld}))
                            .collect(),
                    )
                });
                object(vec![
                    (
                        "knocker",
                        Some(object(vec![
                            ("hand", Some(cards_json(&knocker))),
                            ("melds", declare_knocker.then(|| melds_json(knocker_set))),
                        ])),
                    ),
                    (
                        "defender",
                        Some(object(vec![
                            ("hand", Some(cards_json(&defender))),
                            (
                                "melds",
                                (with_layoffs && declare_defender)
                                    .then(|| melds_json(defender_set)),
                            ),
                            ("layoffs", layoffs),
                        ])),
                    ),
                    ("profile", profile),
                    ("upcard", upcard.map(|c| json!(c.to_string()))),
                ])
            },
        )
}

/// A match: two players (sometimes not two distinct names) and a dozen hands
/// of each shape, counts in and out of range.
fn match_request() -> impl Strategy<Value = Value> {
    let name = prop_oneof![
        4 => proptest::sample::select(vec!["Mom", "Dad"]).prop_map(str::to_owned),
        1 => prop_oneof![Just(""), Just(" "), Just("Bob")].prop_map(str::to_owned),
    ];
    let counts = (
        name.clone(),
        prop_oneof![4 => 0u64..=30, 1 => any::<u32>().prop_map(u64::from)],
        prop_oneof![4 => 0u64..=98, 1 => 99u64..200],
        proptest::option::of(any::<bool>()),
        proptest::option::of((0usize..52).prop_map(|i| json!(deck()[i].to_string()))),
    )
        .prop_map(|(knocker, k, d, big_gin, upcard)| {
            object(vec![
                ("knocker", Some(json!(knocker))),
                ("knocker_deadwood", Some(json!(k))),
                ("defender_deadwood", Some(json!(d))),
                ("big_gin", big_gin.map(Value::Bool)),
                ("upcard", upcard),
            ])
        });
    let cards = (name.clone(), knock_request(true)).prop_map(|(knocker, knock)| {
        object(vec![
            ("knocker", Some(json!(knocker))),
            ("knocker_hand", knock.get("knocker").cloned()),
            ("defender_hand", knock.get("defender").cloned()),
            ("upcard", knock.get("upcard").cloned()),
        ])
    });
    let hand = prop_oneof![
        6 => counts,
        3 => cards,
        1 => Just(json!({"void": true})),
    ];
    (
        profile_json(),
        prop_oneof![
            6 => Just(json!(["Mom", "Dad"])),
            1 => vec(name, 0..4).prop_map(|names| json!(names)),
        ],
        vec(hand, 0..12),
    )
        .prop_map(|(profile, players, hands)| {
            object(vec![
                ("profile", profile),
                ("players", Some(players)),
                ("hands", Some(Value::Array(hands))),
            ])
        })
}

/// A hand played from a shuffled deck: the upcard offer, then turns of a draw
/// and a discard by mostly sensible players (keeping melds, throwing high
/// deadwood), ending in a knock when one can, in a stock run dry, or cut short.
/// Mostly legal, so the audit gets deep into a hand; mutations make the rest.
fn audit_request() -> impl Strategy<Value = Value> {
    use rand::{Rng, SeedableRng, seq::SliceRandom};
    (any::<u64>(), profile_json(), 0usize..80).prop_map(|(seed, profile, cut)| {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut deck = deck();
        deck.shuffle(&mut rng);
        let (dealer, rest) = deck.split_at(10);
        let (non_dealer, rest) = rest.split_at(10);
        let (upcard, stock) = (rest[0], rest[1..].to_vec());
        let deal = json!({
            "dealer": cards_json(dealer),
            "non_dealer": cards_json(non_dealer),
            "upcard": upcard.to_string(),
            "stock": cards_json(&stock),
        });
        let seats = ["non_dealer", "dealer"];
        let mut hands = [non_dealer.to_vec(), dealer.to_vec()];
        let mut pile = vec![upcard];
        let mut stock = stock.into_iter();
        let mut actions = Vec::new();
        // The upcard offer: each may take it, else the non-dealer draws.
        let mut turn = 0;
        for (offer, seat) in seats.iter().enumerate() {
            if rng.gen_bool(0.3) {
                turn = offer;
                break;
            }
            actions.push(json!({"player": seat, "action": "pass"}));
        }
        while actions.len() < cut {
            let hand = &mut hands[turn];
            let from_pile = !pile.is_empty() && rng.gen_bool(0.2);
            let taken = if from_pile { pile.pop() } else { stock.next() };
            let Some(taken) = taken else { break };
            let from = if from_pile { "discard_pile" } else { "stock" };
            actions.push(
                json!({"player": seats[turn], "action": "draw", "from": from,
                                "card": rng.gen_bool(0.5).then(|| taken.to_string())}),
            );
            hand.push(taken);
            // Throw the card whose loss leaves the least deadwood (not the one
            // just taken from the pile), or now and then any card.
            let set = CardSet::from_distinct(hand.iter().copied()).unwrap_or_default();
            let candidates: Vec<Card> = hand
                .iter()
                .copied()
                .filter(|&c| !(from_pile && c == taken))
                .collect();
            let throw = if rng.gen_bool(0.1) {
                candidates[rng.gen_range(0..candidates.len())]
            } else {
                candidates
                    .iter()
                    .copied()
                    .min_by_key(|&c| {
                        min_deadwood(
                            set.difference(CardSet::single(c)),
                            &gin_rules::JokerRules::NONE,
                        )
                    })
                    .unwrap_or(taken)
            };
            hand.retain(|&c| c != throw);
            let kept = CardSet::from_distinct(hand.iter().copied()).unwrap_or_default();
            if min_deadwood(kept, &gin_rules::JokerRules::NONE) <= 10 && rng.gen_bool(0.7) {
                let melds = rng.gen_bool(0.5).then(|| melds_json(kept));
                actions.push(json!({"player": seats[turn], "action": "knock",
                                    "discard": throw.to_string(), "melds": melds}));
                if rng.gen_bool(0.7) {
                    actions.push(json!({"player": seats[1 - turn], "action": "lay_off"}));
                }
                break;
            }
            actions.push(
                json!({"player": seats[turn], "action": "discard", "card": throw.to_string()}),
            );
            pile.push(throw);
            turn = 1 - turn;
        }
        object(vec![
            ("profile", profile),
            ("deal", Some(deal)),
            ("actions", Some(Value::Array(actions))),
        ])
    })
}

/// Every JSON Pointer in a document, the root (`""`) first.
fn pointers(value: &Value) -> Vec<String> {
    fn walk(value: &Value, at: String, out: &mut Vec<String>) {
        match value {
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    walk(item, format!("{at}/{i}"), out);
                }
            }
            Value::Object(members) => {
                for (k, member) in members {
                    let token = k.replace('~', "~0").replace('/', "~1");
                    walk(member, format!("{at}/{token}"), out);
                }
            }
            _ => {}
        }
        out.push(at);
    }
    let mut out = Vec::new();
    walk(value, String::new(), &mut out);
    out.reverse();
    out
}

/// One change to a document.
#[derive(Debug, Clone)]
enum Mutation {
    /// Replace the value at the n-th pointer.
    Replace(usize, Value),
    /// Remove the n-th value from its parent.
    Remove(usize),
    /// Add a member to the n-th value, when it is an object.
    Insert(usize, String, Value),
    /// Overwrite one byte of the serialised text.
    Byte(usize, u8),
    /// Cut the text short.
    Truncate(usize),
    /// Repeat a member in the text (JSON allows it, the schema does not).
    Duplicate(String, Value),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => (any::<usize>(), arbitrary_json()).prop_map(|(i, v)| Mutation::Replace(i, v)),
        2 => any::<usize>().prop_map(Mutation::Remove),
        2 => (any::<usize>(), key(), arbitrary_json()).prop_map(|(i, k, v)| Mutation::Insert(i, k, v)),
        1 => (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Byte(i, b)),
        1 => any::<usize>().prop_map(Mutation::Truncate),
        1 => (key(), arbitrary_json()).prop_map(|(k, v)| Mutation::Duplicate(k, v)),
    ]
}

/// Applies mutations to a document, returning the body text.
fn mutate(mut document: Value, mutations: &[Mutation]) -> Vec<u8> {
    let mut text_edits = Vec::new();
    for m in mutations {
        let all = pointers(&document);
        let pick = |i: &usize| all[i % all.len()].clone();
        match m {
            Mutation::Replace(i, v) => {
                if let Some(slot) = document.pointer_mut(&pick(i)) {
                    *slot = v.clone();
                }
            }
            Mutation::Remove(i) => {
                let target = pick(i);
                if let Some((parent, token)) = target.rsplit_once('/') {
                    let token = token.replace("~1", "/").replace("~0", "~");
                    match document.pointer_mut(parent) {
                        Some(Value::Object(members)) => {
                            members.remove(&token);
                        }
                        Some(Value::Array(items)) => {
                            if let Ok(index) = token.parse::<usize>()
                                && index < items.len()
                            {
                                items.remove(index);
                            }
                        }
                        _ => {}
                    }
                }
            }
            Mutation::Insert(i, k, v) => {
                if let Some(Value::Object(members)) = document.pointer_mut(&pick(i)) {
                    members.insert(k.clone(), v.clone());
                }
            }
            other => text_edits.push(other.clone()),
        }
    }
    let mut text = serde_json::to_vec(&document).unwrap_or_default();
    for edit in text_edits {
        match edit {
            Mutation::Byte(i, b) if !text.is_empty() => {
                let at = i % text.len();
                text[at] = b;
            }
            Mutation::Truncate(i) if !text.is_empty() => text.truncate(i % text.len()),
            Mutation::Duplicate(k, v) if text.first() == Some(&b'{') => {
                let member = format!("{}:{},", Value::String(k), v);
                let rest = if text.len() > 1 && text[1] == b'}' {
                    member.trim_end_matches(',').to_owned()
                } else {
                    member
                };
                text.splice(1..1, rest.into_bytes());
            }
            _ => {}
        }
    }
    text
}

/// A body for a request type: well-shaped, mutated, arbitrary JSON, or bytes,
/// in proportions `weights` (the extractor is fuzzed mostly with broken
/// bodies, the handlers mostly with well-shaped ones).
fn weighted_body(valid: BoxedStrategy<Value>, weights: [u32; 4]) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        weights[0] => valid.clone().prop_map(|v| serde_json::to_vec(&v).unwrap_or_default()),
        weights[1] => (valid, vec(mutation(), 1..4)).prop_map(|(v, ms)| mutate(v, &ms)),
        weights[2] => arbitrary_json().prop_map(|v| serde_json::to_vec(&v).unwrap_or_default()),
        weights[3] => vec(any::<u8>(), 0..64),
    ]
}

fn body(valid: BoxedStrategy<Value>) -> impl Strategy<Value = Vec<u8>> {
    weighted_body(valid, [3, 5, 2, 1])
}

fn handler_body(valid: BoxedStrategy<Value>) -> BoxedStrategy<Vec<u8>> {
    weighted_body(valid, [12, 4, 1, 1]).boxed()
}

/// Whether any object in the document repeats a member name. JSON allows it
/// (RFC 8259 only says names SHOULD be unique) but a pointer into such a
/// document is ambiguous: serde_json's `Value` keeps the last occurrence while
/// the typed pass may stop at the first.
fn has_duplicate_keys(body: &[u8]) -> bool {
    use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
    use std::fmt;

    struct Unique(bool);
    impl<'de> Deserialize<'de> for Unique {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Unique, D::Error> {
            d.deserialize_any(UniqueVisitor)
        }
    }
    struct UniqueVisitor;
    impl<'de> Visitor<'de> for UniqueVisitor {
        type Value = Unique;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("any JSON")
        }
        fn visit_bool<E>(self, _: bool) -> Result<Unique, E> {
            Ok(Unique(true))
        }
        fn visit_i64<E>(self, _: i64) -> Result<Unique, E> {
            Ok(Unique(true))
        }
        fn visit_u64<E>(self, _: u64) -> Result<Unique, E> {
            Ok(Unique(true))
        }
        fn visit_f64<E>(self, _: f64) -> Result<Unique, E> {
            Ok(Unique(true))
        }
        fn visit_str<E>(self, _: &str) -> Result<Unique, E> {
            Ok(Unique(true))
        }
        fn visit_unit<E>(self) -> Result<Unique, E> {
            Ok(Unique(true))
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Unique, A::Error> {
            let mut unique = true;
            while let Some(Unique(u)) = seq.next_element()? {
                unique &= u;
            }
            Ok(Unique(unique))
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Unique, A::Error> {
            let mut seen = std::collections::HashSet::new();
            let mut unique = true;
            while let Some(key) = map.next_key::<String>()? {
                unique &= seen.insert(key);
                unique &= map.next_value::<Unique>()?.0;
            }
            Ok(Unique(unique))
        }
    }
    !serde_json::from_slice::<Unique>(body).is_ok_and(|u| u.0)
}

/// The contract of `from_slice` for any input: see the module docs.
fn check_rejection(body: &[u8], problem: &Problem) -> Result<(), TestCaseError> {
    let text = String::from_utf8_lossy(body);
    prop_assert_eq!(problem.status, StatusCode::BAD_REQUEST, "{}", text);
    match serde_json::from_slice::<Value>(body) {
        // Valid JSON but for a number beyond a double, which serde_json refuses
        // as if it were a syntax error: the extractor calls it `invalid_body`
        // when nothing else is wrong, and there is no document to resolve
        // pointers in.
        Err(err) if err.to_string().starts_with("number out of range") => {
            if problem.code.as_str() == "invalid_body" {
                prop_assert!(!problem.errors.is_empty(), "{}", text);
            } else {
                prop_assert_eq!(problem.code.as_str(), "malformed_json", "{}", text);
            }
        }
        Err(_) => prop_assert_eq!(problem.code.as_str(), "malformed_json", "{}", text),
        // A profile's `base` naming no preset is its own code, as the profile
        // named by a string is.
        Ok(document)
            if problem.code.as_str() == "unknown_profile"
                && document
                    .pointer("/profile/base")
                    .is_some_and(Value::is_string) =>
        {
            prop_assert_eq!(problem.errors[0].pointer.as_str(), "/profile/base");
        }
        Ok(document) => {
            prop_assert_eq!(
                problem.code.as_str(),
                "invalid_body",
                "{}: {}",
                text,
                problem.detail
            );
            prop_assert!(!problem.errors.is_empty(), "{}", text);
            if has_duplicate_keys(body) {
                return Ok(());
            }
            for error in &problem.errors {
                let pointer = error.pointer.as_str();
                if error.code == "missing_field" {
                    let (parent, _) = pointer.rsplit_once('/').unwrap_or(("", ""));
                    prop_assert!(
                        document.pointer(parent).is_some(),
                        "{} in {}",
                        pointer,
                        text
                    );
                    // Absent, or null where null means absent.
                    prop_assert!(
                        document.pointer(pointer).is_none_or(Value::is_null),
                        "{} in {}",
                        pointer,
                        text
                    );
                } else {
                    prop_assert!(
                        document.pointer(pointer).is_some(),
                        "{} ({}) does not resolve in {}",
                        pointer,
                        error.code,
                        text
                    );
                }
            }
        }
    }
    Ok(())
}

fn check_from_slice<T: DeserializeOwned>(body: &[u8]) -> Result<(), TestCaseError> {
    // The fast path (no path tracking) decides exactly as the tracked one.
    if !may_spell_integers_as_floats(body) && !body.iter().all(u8::is_ascii_whitespace) {
        let fast = from_slice::<T>(body).err();
        let tracked = from_slice_tracked::<T>(body).err();
        prop_assert_eq!(fast, tracked, "{}", String::from_utf8_lossy(body));
    }
    match from_slice::<T>(body) {
        Ok(_) => {
            // Accepted: it was JSON.
            let document = serde_json::from_slice::<Value>(body);
            prop_assert!(document.is_ok(), "{}", String::from_utf8_lossy(body));
            Ok(())
        }
        Err(problem) => check_rejection(body, &problem),
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn validate_bodies(body in body(validate_request().boxed())) {
        check_from_slice::<ValidateRequest>(&body)?;
    }

    #[test]
    fn analyze_bodies(body in body(analyze_request().boxed())) {
        check_from_slice::<AnalyzeRequest>(&body)?;
    }

    #[test]
    fn layoffs_bodies(body in body(knock_request(false).boxed())) {
        check_from_slice::<LayoffsRequest>(&body)?;
    }

    #[test]
    fn score_bodies(body in body(knock_request(true).boxed())) {
        check_from_slice::<ScoreRequest>(&body)?;
    }

    #[test]
    fn match_bodies(body in body(match_request().boxed())) {
        check_from_slice::<MatchRequest>(&body)?;
    }

    #[test]
    fn audit_bodies(body in body(audit_request().boxed())) {
        check_from_slice::<AuditRequest>(&body)?;
    }
}

/// Every POST endpoint with the bodies its requests are drawn from.
fn endpoints() -> Vec<(&'static str, BoxedStrategy<Vec<u8>>)> {
    vec![
        (
            "/v1/melds/validate",
            handler_body(validate_request().boxed()),
        ),
        ("/v1/hands/analyze", handler_body(analyze_request().boxed())),
        ("/v1/layoffs", handler_body(knock_request(false).boxed())),
        ("/v1/hands/score", handler_body(knock_request(true).boxed())),
        ("/v1/matches/score", handler_body(match_request().boxed())),
        ("/v1/hands/audit", handler_body(audit_request().boxed())),
    ]
}

/// The real routes and middleware, in process: what a client reaches, minus
/// the socket. Bodies are generated up front (the handlers are async, proptest's
/// runner is not), so a failure reports the body rather than a shrunk case.
#[actix_web::test]
async fn no_endpoint_answers_5xx_to_any_body() {
    let metrics = web::Data::new(Metrics::new().expect("metrics"));
    let (app, _) = App::new()
        .app_data(BodyLimit(DEFAULT_BODY_LIMIT))
        .app_data(metrics.clone())
        .wrap(Observe::new(metrics))
        .into_utoipa_app()
        .configure(gin_referee::routes::configure)
        .split_for_parts();
    let app = init_service(app).await;
    let mut runner = TestRunner::new(config());
    let cases = config().cases;
    for (path, strategy) in endpoints() {
        let mut statuses = std::collections::BTreeMap::<u16, u32>::new();
        for _ in 0..cases {
            let body = strategy
                .new_tree(&mut runner)
                .expect("the strategy generates")
                .current();
            let request = TestRequest::post()
                .uri(path)
                .insert_header(("content-type", "application/json"))
                .set_payload(body.clone())
                .to_request();
            let response = call_service(&app, request).await;
            let status = response.status();
            let content_type = response
                .headers()
                .get("content-type")
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_owned();
            let answer = read_body(response).await;
            let shown = String::from_utf8_lossy(&body);
            assert!(
                !status.is_server_error(),
                "{path} answered {status} to {shown}: {}",
                String::from_utf8_lossy(&answer)
            );
            if status.is_success() {
                assert!(
                    serde_json::from_slice::<Value>(&answer).is_ok(),
                    "{path} {shown}"
                );
            } else {
                assert_eq!(content_type, PROBLEM_JSON, "{path} {status} {shown}");
                let problem: ProblemDocument =
                    serde_json::from_slice(&answer).expect("a problem document");
                assert_eq!(problem.status, status.as_u16(), "{path} {shown}");
            }
            *statuses.entry(status.as_u16()).or_default() += 1;
        }
        if std::env::var_os("FUZZ_STATS").is_some() {
            eprintln!("FUZZSTAT {path} {statuses:?}");
        }
    }
}

#[test]
fn mutations_keep_or_break_documents_without_panicking() {
    let document = json!({"a": [1, {"b/c": 2}], "d": {}});
    assert_eq!(pointers(&document)[0], "");
    assert!(pointers(&document).contains(&"/a/1/b~1c".to_owned()));
    let removed = mutate(document.clone(), &[Mutation::Remove(usize::MAX)]);
    assert!(serde_json::from_slice::<Value>(&removed).is_ok());
    let duplicated = mutate(json!({}), &[Mutation::Duplicate("k".into(), json!(1))]);
    assert_eq!(duplicated, br#"{"k":1}"#);
    assert!(has_duplicate_keys(br#"[{"a": {"k": 1, "k": 2}}]"#));
    assert!(!has_duplicate_keys(br#"[{"a": {"k": 1, "j": {"k": 2}}}]"#));
}
