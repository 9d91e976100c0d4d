//! One example occurrence of each code, for the documentation: the OpenAPI
//! document's examples of every operation's error answers and the served
//! `/problems/{code}` pages.

use super::ErrorCode;

/// One example occurrence of a code, for the documentation.
#[derive(Debug, Clone, Copy)]
pub struct Example {
    /// The `detail` of the example.
    pub detail: &'static str,
    /// The pointer and field code of its `errors[]` entry, if it has one.
    pub error: Option<(&'static str, ErrorCode)>,
}

impl ErrorCode {
    /// An example occurrence: a `detail` and, where the code points into the
    /// body, the pointer and field code of its `errors[]` entry.
    // A table of data, hence its length: one row per code, the match keeping
    // it exhaustive.
    pub fn example(self) -> Example {
        use ErrorCode::*;
        let (detail, at) = match self {
            MalformedJson => (
                "the body is not valid JSON: expected `,` or `}` at line 1 column 18",
                None,
            ),
            InvalidBody => (
                "the body does not match the request schema at /hand/3: invalid card \"1X\"",
                Some(("/hand/3", InvalidValue)),
            ),
            UnknownProfile => (
                "unknown profile \"okla\"; the presets are standard, oklahoma, straight, tournament, hollywood, pagat, schneider, open-gin, partnership, jokers, eaai",
                Some(("/profile", UnknownProfile)),
            ),
            InvalidProfile => (
                "invalid value for gin_bonus: 10001 is above the maximum of 10000",
                Some(("/profile/gin_bonus", InvalidProfile)),
            ),
            MalformedRequest => ("the body could not be read: connection reset", None),
            BadRequest => ("Bad Request: a header value is not valid", None),
            NotFound => ("no resource at /v1/nothing-here", None),
            MethodNotAllowed => ("GET is not allowed here; the methods are: POST", None),
            NotAcceptable => (
                "nothing in Accept \"image/svg+xml\" is offered here; this operation answers application/json",
                None,
            ),
            RequestTimeout => ("the request body did not arrive in time", None),
            BatchTimeout => (
                "a batch must be answered within 600 s (--batch-timeout); lines after 120000 were not read",
                None,
            ),
            PayloadTooLarge => ("the body is larger than the limit of 65536 bytes", None),
            LineTooLong => (
                "line 3 is longer than 65536 bytes (--batch-max-line-bytes)",
                None,
            ),
            TooManyLines => ("a batch has at most 10000000 lines", None),
            SpoolFailed => (
                "the server could not hold the answers not yet read (--batch-spool-dir): No space left on device (os error 28); the lines after the last one answered were not read",
                None,
            ),
            UnsupportedMediaType => (
                "expected Content-Type application/json, got text/plain",
                None,
            ),
            UnsupportedContentEncoding => (
                "Content-Encoding br is not supported: send the body as is, or in one of gzip, deflate (one coding, not stacked)",
                None,
            ),
            RequestHeadTooLarge => ("the request head is too large", None),
            SigningKeyRequired => (
                "a receipt needs a signing key: call gin_referee.signing_key(pem) first",
                None,
            ),
            RatingsOutOfRange => (
                "/results/0: the ratings of this result's teams are too far apart (or a sigma too small) for the model's arithmetic",
                Some(("/results/0", RatingsOutOfRange)),
            ),
            Unauthorized => (
                "this operation needs an API key: send `Authorization: Bearer <key>`",
                None,
            ),
            Forbidden => (
                "the API key \"desk\" may not call analyze_hand: its scopes are audit_hand, audit_match",
                None,
            ),
            RateLimited => (
                "the API key \"batch\" is over its rate of 50 requests per second: retry after 1 s",
                None,
            ),
            Overloaded => (
                "the server's memory budget is in use by other requests: this one was not read; send it again after 1 s",
                None,
            ),
            InternalError => (
                "the server failed to handle this request; the cause has been logged",
                None,
            ),
            MissingField => (
                "the body does not match the request schema at /hand: missing field `hand`",
                Some(("/hand", MissingField)),
            ),
            UnknownField => (
                "the body does not match the request schema at /hnad: unknown field `hnad`, expected one of `hand`, `profile`, `upcard`, `all_arrangements`",
                Some(("/hnad", UnknownField)),
            ),
            InvalidType => (
                "the body does not match the request schema at /hand/0: invalid type: integer `7`, expected a card such as \"7S\"",
                Some(("/hand/0", InvalidType)),
            ),
            InvalidLength => (
                "the body does not match the request schema at /melds/0: invalid length 2, expected 3 or more cards",
                Some(("/melds/0", InvalidLength)),
            ),
            UnknownVariant => (
                "the body does not match the request schema at /profile/knock_limit: unknown variant `upcrd`, expected `upcard`",
                Some(("/profile/knock_limit", UnknownVariant)),
            ),
            DuplicateField => (
                "the body does not match the request schema at /hand: duplicate field `hand`",
                Some(("/hand", DuplicateField)),
            ),
            InvalidValue => (
                "the body does not match the request schema at /hand/3: invalid card \"1X\"",
                Some(("/hand/3", InvalidValue)),
            ),
            TooManyItems => (
                "/hands: 10001 hands; at most 10000 are accepted",
                Some(("/hands", TooManyItems)),
            ),
            TooLong => (
                "/players/0: 65 characters; at most 64 are accepted",
                Some(("/players/0", TooLong)),
            ),
            DuplicateCard => (
                "7S appears twice in the hand",
                Some(("/hand/4", DuplicateCard)),
            ),
            JokerNotInDeck => (
                "X1 is not in the deck: this profile plays without jokers (use the \"jokers\" preset, or \"jokers\": 1 or 2 in the profile)",
                Some(("/hand/3", JokerNotInDeck)),
            ),
            WrongCardCount => (
                "the hand must hold 10 or 11 cards, not 9",
                Some(("/hand", WrongCardCount)),
            ),
            UnrecordedDraw => (
                "the deal is impossible: action 2 draws from the stock past the 0 cards it lists without naming the card drawn",
                Some(("/actions/2/card", UnrecordedDraw)),
            ),
            InvalidMelds => (
                "the declared melds are not a legal arrangement of the hand",
                Some(("/knocker/melds/1", WrapAround)),
            ),
            CardInTwoMelds => (
                "the declared melds are not a legal arrangement of the hand",
                Some(("/knocker/melds/1/0", CardInTwoMelds)),
            ),
            CardNotInHand => (
                "the declared melds are not a legal arrangement of the hand",
                Some(("/knocker/melds/0/2", CardNotInHand)),
            ),
            TooShort | MixedRanks | MixedSuits | Gap | WrapAround => (
                "the declared melds are not a legal arrangement of the hand",
                Some(("/knocker/melds/0", self)),
            ),
            TooFewNaturals => (
                "the knocker's declared melds are not legal",
                Some(("/knocker/melds/0", TooFewNaturals)),
            ),
            JokerStandsFor => (
                "the knocker's declared melds are not legal",
                Some(("/knocker/melds/0/1", JokerStandsFor)),
            ),
            InvalidProfileCombination => (
                "ace_upcard_knock_limit applies only when knock_limit is \"upcard\"",
                Some(("/profile/ace_upcard_knock_limit", InvalidProfileCombination)),
            ),
            UpcardRequired => (
                "the profile takes its knock limit from the upcard: send \"upcard\"",
                Some(("/upcard", UpcardRequired)),
            ),
            KnockOverLimit => (
                "the knocker's deadwood is 12, over the knock limit of 10",
                Some(("/knocker/hand", KnockOverLimit)),
            ),
            BigGinNotAllowed => (
                "the profile does not score big gin",
                Some(("/hands/0/big_gin", BigGinNotAllowed)),
            ),
            BigGinWithDeadwood => (
                "big gin is claimed with 3 points of deadwood",
                Some(("/hands/0/knocker_deadwood", BigGinWithDeadwood)),
            ),
            NotBigGin => (
                "big gin is claimed but the eleven cards leave 4 points of deadwood",
                Some(("/knocker/hand", NotBigGin)),
            ),
            ImpossibleCount => (
                "no ten-card hand has 99 points of deadwood",
                Some(("/hands/0/defender_deadwood", ImpossibleCount)),
            ),
            LayoffsNotAllowed => (
                "the defender cannot lay off on a gin hand",
                Some(("/defender/layoffs/0", LayoffsNotAllowed)),
            ),
            LayoffCardNotInHand => (
                "layoff 0: the defender does not hold 9H",
                Some(("/defender/layoffs/0", LayoffCardNotInHand)),
            ),
            LayoffCardRepeated => (
                "layoff 1: 9H is laid off twice",
                Some(("/defender/layoffs/1", LayoffCardRepeated)),
            ),
            LayoffMeldNotFound => (
                "layoff 0: the knocker has no meld 3",
                Some(("/defender/layoffs/0", LayoffMeldNotFound)),
            ),
            LayoffDoesNotFit => (
                "layoff 0: 9H does not extend meld 0",
                Some(("/defender/layoffs/0", LayoffDoesNotFit)),
            ),
            TooManyHands => ("the match has 501 hands; at most 500 are accepted", None),
            BlankPlayerName => (
                "player 1 has a blank name",
                Some(("/players/1", BlankPlayerName)),
            ),
            DuplicatePlayerName => (
                "two players are called Ann",
                Some(("/players/1", DuplicatePlayerName)),
            ),
            UnknownPlayer => (
                "hand 0 names Eve, who is not a player",
                Some(("/hands/0/knocker", UnknownPlayer)),
            ),
            GameOver => (
                "hand 6 comes after the game ended at hand 5",
                Some(("/hands/6", GameOver)),
            ),
            SamePlayerTwice => (
                "hand 0 names Ann as knocker and defender",
                Some(("/hands/0/defender", SamePlayerTwice)),
            ),
            KnockerNotFirst => (
                "hand 2 lists Cy first, who did not knock",
                Some(("/hands/2/players", KnockerNotFirst)),
            ),
            RotationBroken => (
                "hand 1 is played by Ann and Bob, but Bob lost hand 0 and sits out",
                Some(("/hands/1", RotationBroken)),
            ),
            PairingBroken => (
                "deal 0 seats Ann and Cy, partners, at one table",
                Some(("/hands/0/tables/0", PairingBroken)),
            ),
            HollywoodNotDefined => (
                "Hollywood scoring is not defined for three players",
                Some(("/profile", HollywoodNotDefined)),
            ),
            BlankTeamName => (
                "a team has a blank name",
                Some(("/teams/0/name", BlankTeamName)),
            ),
            PlayersOrTeams => (
                ": a match names either players or teams",
                Some(("", PlayersOrTeams)),
            ),
            SeatOrSpectator => (
                "/spectator: a view is a player's (`seat`) or the public's (`spectator`), not both",
                Some(("/spectator", SeatOrSpectator)),
            ),
            WrongHandShape => (
                "/hands/0: a two-player match takes hands, not partnership deals",
                Some(("/hands/0", WrongHandShape)),
            ),
            ClientSeedTooLong => (
                "the client seed is 400 bytes of UTF-8; at most 256 are accepted",
                Some(("/client_seed", ClientSeedTooLong)),
            ),
            NotToAct => (
                "/seat: the dealer is not to act: the non-dealer is",
                Some(("/seat", NotToAct)),
            ),
            WrongPlayer => (
                "the record breaks a rule at /actions/3/player: the dealer drew, but the non-dealer was to act; no bot plays after an illegal action",
                Some(("/actions/3/player", WrongPlayer)),
            ),
            UpcardOfferViolated => (
                "the record breaks a rule at /actions/0/player: the dealer acted first, but the upcard is offered to the non-dealer first; no bot plays after an illegal action",
                Some(("/actions/0/player", UpcardOfferViolated)),
            ),
            PassNotAllowed => (
                "the record breaks a rule at /actions/4/action: the non-dealer passed outside the upcard offer; no bot plays after an illegal action",
                Some(("/actions/4/action", PassNotAllowed)),
            ),
            MustDrawFirst => (
                "the record breaks a rule at /actions/3/action: the dealer discarded before drawing; no bot plays after an illegal action",
                Some(("/actions/3/action", MustDrawFirst)),
            ),
            AlreadyDrew => (
                "the record breaks a rule at /actions/4/action: the dealer drew twice in one turn; no bot plays after an illegal action",
                Some(("/actions/4/action", AlreadyDrew)),
            ),
            ExpectedCardMismatch => (
                "the record breaks a rule at /actions/2/card: the non-dealer drew 9C from the stock, but its top card is 4D; no bot plays after an illegal action",
                Some(("/actions/2/card", ExpectedCardMismatch)),
            ),
            DiscardJustTaken => (
                "the record breaks a rule at /actions/4/card: the dealer discarded 7H, the card it just took from the discard pile; no bot plays after an illegal action",
                Some(("/actions/4/card", DiscardJustTaken)),
            ),
            StockExhausted => (
                "the record breaks a rule at /actions/60/action: the dealer drew from the stock with only two cards left in it; no bot plays after an illegal action",
                Some(("/actions/60/action", StockExhausted)),
            ),
            FiftiethCardTakeWithoutKnock => (
                "the record breaks a rule at /actions/62/action: the non-dealer took the 50th card and did not knock; no bot plays after an illegal action",
                Some(("/actions/62/action", FiftiethCardTakeWithoutKnock)),
            ),
            LayOffWithoutKnock => (
                "the record breaks a rule at /actions/5/action: the dealer tried to lay off, but nobody has knocked; no bot plays after an illegal action",
                Some(("/actions/5/action", LayOffWithoutKnock)),
            ),
            JokerNotMelded => (
                "the record breaks a rule at /actions/1/card: the non-dealer took X1 from the pile and discarded without melding it; no bot plays after an illegal action",
                Some(("/actions/1/card", JokerNotMelded)),
            ),
            HandIsVoid => (
                "the record breaks a rule at /actions/61: the dealer acted after the hand became void; no bot plays after an illegal action",
                Some(("/actions/61", HandIsVoid)),
            ),
            ActionAfterHandEnded => (
                "the record breaks a rule at /actions/9: the non-dealer acted after the hand ended; no bot plays after an illegal action",
                Some(("/actions/9", ActionAfterHandEnded)),
            ),
            DealCommitmentMismatch => (
                "the record breaks a rule at /deal/server_seed: the server seed does not hash to the commitment; no bot plays after an illegal action",
                Some(("/deal/server_seed", DealCommitmentMismatch)),
            ),
            WrongDealer => (
                "the record breaks a rule at /hands/1/dealer: hand 1 is dealt by Ann, but Bob deals it under next_dealer loser; no bot plays after an illegal action",
                Some(("/hands/1/dealer", WrongDealer)),
            ),
            HandAfterGameEnd => (
                "the record breaks a rule at /hands/3: hand 3 comes after the game ended at hand 2; no bot plays after an illegal action",
                Some(("/hands/3", HandAfterGameEnd)),
            ),
            HandUnfinished => (
                "the record breaks a rule at /hands/0/actions: hand 0 stops before its end and hand 1 follows; no bot plays after an illegal action",
                Some(("/hands/0/actions", HandUnfinished)),
            ),
            DealSeedsDiffer => (
                "the record breaks a rule at /hands/1/deal/commitment: hand 1's commitment is not the match's; no bot plays after an illegal action",
                Some(("/hands/1/deal/commitment", DealSeedsDiffer)),
            ),
            DealNonceNotIncreasing => (
                "the record breaks a rule at /hands/1/deal/nonce: hand 1's nonce 1 is not more than hand 0's 1; no bot plays after an illegal action",
                Some(("/hands/1/deal/nonce", DealNonceNotIncreasing)),
            ),
        };
        Example { detail, error: at }
    }
}
