//! One scripted transcript per violation code.

use super::*;

pub(super) struct Case {
    pub(super) rule: &'static str,
    pub(super) profile: Profile,
    pub(super) deal: Deal,
    pub(super) actions: Vec<Action>,
    pub(super) at: usize,
    pub(super) code: ViolationCode,
}

/// One scripted transcript per violation code (some codes have several).
pub(super) fn cases() -> Vec<Case> {
    use ViolationCode::*;
    let standard = Profile::default();
    let tournament = Preset::Tournament.profile();
    let big_gin = profile(r#"{"big_gin_bonus": 31}"#);
    let hearts = "4H 5H 6H";
    // The dealer can take the 50th card (TS) to knock gin, discarding KH.
    let mut fiftieth = deal_with("7S 8S 9S JD QD KD 3C 4C 5C KH", NON_DEALER, "2C", "");
    let ts = fiftieth
        .stock
        .iter()
        .position(|&c| c == card("TS"))
        .unwrap();
    let ts = fiftieth.stock.remove(ts);
    fiftieth.stock.insert(STOCK_SIZE - STOCK_RESERVE - 1, ts);
    let case = |rule, profile: &Profile, deal: &Deal, actions, at, code| Case {
        rule,
        profile: profile.clone(),
        deal: deal.clone(),
        actions,
        at,
        code,
    };
    let k = knock_deal();
    let joker_upcard = super::jokers::joker_deal(2, DEALER, NON_DEALER, "X1", "2H");
    let must_meld = profile(r#"{"base": "jokers", "joker_pickup_must_meld": true}"#);
    vec![
        case(
            "a joker taken from the pile is discarded away under joker_pickup_must_meld",
            &must_meld,
            &joker_upcard,
            script("N pile X1; N discard KC"),
            1,
            JokerNotMelded,
        ),
        case(
            "a player draws while the other must discard",
            &standard,
            &k,
            script("N pass; D pass; N stock; D stock"),
            3,
            WrongPlayer,
        ),
        case(
            "a player draws twice in a row across turns",
            &standard,
            &k,
            script("N pass; D pass; N stock; N discard KC; N stock"),
            4,
            WrongPlayer,
        ),
        case(
            "the dealer takes the upcard before the non-dealer passed",
            &standard,
            &k,
            script("D pile 2C"),
            0,
            UpcardOfferViolated,
        ),
        case(
            "the non-dealer draws from the stock instead of answering the offer",
            &standard,
            &k,
            script("N stock"),
            0,
            UpcardOfferViolated,
        ),
        case(
            "the non-dealer draws before the dealer answered the offer",
            &standard,
            &k,
            script("N pass; N stock"),
            1,
            UpcardOfferViolated,
        ),
        case(
            "the dealer draws from the stock during its offer",
            &standard,
            &k,
            script("N pass; D stock"),
            1,
            UpcardOfferViolated,
        ),
        case(
            "after two passes the non-dealer takes the upcard after all",
            &standard,
            &k,
            script("N pass; D pass; N pile"),
            2,
            UpcardOfferViolated,
        ),
        case(
            "after two passes the dealer draws first",
            &standard,
            &k,
            script("N pass; D pass; D stock"),
            2,
            WrongPlayer,
        ),
        case(
            "a pass on an ordinary turn",
            &standard,
            &k,
            script("N pass; D pass; N stock; N discard KC; D pass"),
            4,
            PassNotAllowed,
        ),
        case(
            "a pass after two passes",
            &standard,
            &k,
            script("N pass; D pass; N pass"),
            2,
            PassNotAllowed,
        ),
        case(
            "a pass after drawing",
            &standard,
            &k,
            script("N pass; D pass; N stock; N pass"),
            3,
            PassNotAllowed,
        ),
        case(
            "a discard before drawing",
            &standard,
            &k,
            script("N discard KC"),
            0,
            MustDrawFirst,
        ),
        case(
            "a knock before drawing",
            &standard,
            &k,
            script("N pass; D pass; N stock; N discard KC; D knock KH"),
            4,
            MustDrawFirst,
        ),
        case(
            "a second draw in one turn",
            &standard,
            &k,
            script("N pass; D pass; N stock; N pile"),
            3,
            AlreadyDrew,
        ),
        case(
            "the transcript names the wrong stock card",
            &standard,
            &k,
            script("N pass; D pass; N stock 5C"),
            2,
            ExpectedCardMismatch,
        ),
        case(
            "the transcript names the wrong upcard",
            &standard,
            &k,
            script("N pile 3C"),
            0,
            ExpectedCardMismatch,
        ),
        case(
            "a discard of the opponent's card",
            &standard,
            &k,
            script("N pass; D pass; N stock 2H; N discard 7S"),
            3,
            CardNotInHand,
        ),
        case(
            "a knock card not held",
            &standard,
            &k,
            script("N pass; D pass; N stock; N knock 7S"),
            3,
            CardNotInHand,
        ),
        case(
            "the upcard taken and discarded at once",
            &standard,
            &k,
            script("N pile 2C; N discard 2C"),
            1,
            DiscardJustTaken,
        ),
        case(
            "a pile card taken and used as the knock card",
            &standard,
            &k,
            script("N pass; D pass; N stock; N discard 2H; D pile 2H; D knock 2H"),
            5,
            DiscardJustTaken,
        ),
        case(
            "the last two stock cards drawn under the 50th-card rule",
            &tournament,
            &k,
            run_down_and(&k, "D stock"),
            2 + 57 + 1,
            StockExhausted,
        ),
        case(
            "the 50th-card discard taken without knocking",
            &tournament,
            &fiftieth,
            run_down_and(&fiftieth, "D pile TS; D discard KH"),
            2 + 57 + 2,
            FiftiethCardTakeWithoutKnock,
        ),
        case(
            "a knock with 33 deadwood",
            &standard,
            &k,
            script("N pass; D pass; N stock; N knock 9C"),
            3,
            KnockOverLimit,
        ),
        case(
            "a knock of 2 in a gin-only game",
            &Preset::Straight.profile(),
            &k,
            script("N pass; D pass; N stock; N knock KC"),
            3,
            KnockOverLimit,
        ),
        case(
            "declared melds leave 11 deadwood",
            &standard,
            &k,
            with(
                script("N pass; D pass; N stock"),
                vec![Action {
                    player: Seat::NonDealer,
                    play: Move::Knock {
                        discard: Some(card("KC")),
                        melds: melds(&["AS 2S 3S", hearts]),
                        jokers: StandsFor::default(),
                    },
                }],
            ),
            3,
            KnockOverLimit,
        ),
        case(
            "a declared meld that is not a meld",
            &standard,
            &k,
            with(
                script("N pass; D pass; N stock"),
                vec![declared_knock("4H 5H 6H 2H")],
            ),
            3,
            InvalidMelds,
        ),
        case(
            "the defender declares a meld that is not one",
            &standard,
            &k,
            with(
                script("N pass; D pass; N stock"),
                vec![
                    declared_knock(hearts),
                    Action {
                        player: Seat::Dealer,
                        play: Move::LayOff {
                            melds: melds(&["7S 8S TS"]),
                            layoffs: None,
                            jokers: StandsFor::default(),
                        },
                    },
                ],
            ),
            4,
            InvalidMelds,
        ),
        case(
            "a knock without a discard where big gin is not played",
            &standard,
            &k,
            script("N pass; D pass; N stock; N knock"),
            3,
            BigGinNotAllowed,
        ),
        case(
            "big gin claimed with deadwood",
            &big_gin,
            &k,
            script("N pass; D pass; N stock; N knock"),
            3,
            NotBigGin,
        ),
        case(
            "a layoff before any knock",
            &standard,
            &k,
            script("N pass; D pass; N stock; N discard KC; D reply"),
            4,
            LayOffWithoutKnock,
        ),
        case(
            "a layoff onto gin",
            &standard,
            &gin_deal(),
            with(
                script("N pass; D pass; N stock 3H"),
                vec![declared_knock("3H 4H 5H 6H"), layoffs(&[("7H", 1)])],
            ),
            4,
            LayoffsNotAllowed,
        ),
        case(
            "a layoff of a card the defender does not hold",
            &standard,
            &k,
            with(
                script("N pass; D pass; N stock"),
                vec![declared_knock(hearts), layoffs(&[("3H", 1)])],
            ),
            4,
            LayoffCardNotInHand,
        ),
        case(
            "the same card laid off twice",
            &standard,
            &k,
            with(
                script("N pass; D pass; N stock"),
                vec![declared_knock(hearts), layoffs(&[("7H", 1), ("7H", 1)])],
            ),
            4,
            LayoffCardRepeated,
        ),
        case(
            "a layoff onto a meld that does not exist",
            &standard,
            &k,
            with(
                script("N pass; D pass; N stock"),
                vec![declared_knock(hearts), layoffs(&[("7H", 3)])],
            ),
            4,
            LayoffMeldNotFound,
        ),
        case(
            "a layoff that does not fit its meld",
            &standard,
            &k,
            with(
                script("N pass; D pass; N stock"),
                vec![declared_knock(hearts), layoffs(&[("7H", 0)])],
            ),
            4,
            LayoffDoesNotFit,
        ),
        case(
            "a draw after the hand went void",
            &standard,
            &k,
            run_down_and(&k, "D stock"),
            2 + 57 + 1,
            HandIsVoid,
        ),
        case(
            "a draw after the 50th-card discard was passed",
            &tournament,
            &k,
            run_down_and(&k, "D pass; N pile"),
            2 + 57 + 2,
            HandIsVoid,
        ),
        case(
            "a draw after the knock",
            &standard,
            &k,
            script("N pass; D pass; N stock; N knock KC; D stock"),
            4,
            ActionAfterHandEnded,
        ),
        case(
            "a second reply",
            &standard,
            &k,
            script("N pass; D pass; N stock; N knock KC; D reply; D reply"),
            5,
            ActionAfterHandEnded,
        ),
        case(
            "the knocker lays off",
            &standard,
            &k,
            script("N pass; D pass; N stock; N knock KC; N reply"),
            4,
            WrongPlayer,
        ),
    ]
}
