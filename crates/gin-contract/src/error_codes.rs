//! The one table of error codes: every `code` a problem document can carry, at
//! its top level or in `errors[].code`, with its HTTP status, title and
//! description.
//!
//! Everything else is generated from this table: [`Problem`](super::problem::Problem)
//! takes its status, `type` and `title` from the code; each operation documents
//! its error responses with [`problem_responses!`](crate::problem_responses)
//! (one example per code); `GET /problems/{code}` serves the row; docs/ERRORS.md's
//! error table is [`markdown_table`] (a test compares them); `/metrics` counts
//! problems by code. Adding a code is one row here, plus its example in
//! [`ErrorCode::example`] (the compiler asks for it).
//!
//! The library's errors name no code: [`crate::rule_errors`] gives each error
//! type's variants their row in one exhaustive `match`, so a new variant
//! does not compile until it has one.

use http::StatusCode;

mod examples;
pub use examples::Example;

/// Where a code appears in a problem document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// As the problem's `code` (and usually again in its `errors[]`).
    Problem,
    /// Only in `errors[].code`, naming one fault inside a problem whose own
    /// code is broader (`invalid_body`, `invalid_melds`).
    Field,
}

/// Declares [`ErrorCode`]: one variant per row, its doc comment being the code's
/// description, served by `/problems/{code}` and written into docs/ERRORS.md.
macro_rules! error_codes {
    ($(
        $(#[doc = $doc:literal])+
        $variant:ident = ($code:literal, $status:ident, $scope:ident, $title:literal);
    )+) => {
        /// A stable snake_case error code (see the module docs).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum ErrorCode {
            $($(#[doc = $doc])+ $variant,)+
        }

        impl ErrorCode {
            /// Every code, in table order.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant),+];

            /// The code as clients see it.
            pub const fn as_str(self) -> &'static str {
                match self { $(ErrorCode::$variant => $code,)+ }
            }

            /// The status of a problem with this code (for a field code: of the
            /// problem it appears in).
            pub const fn status(self) -> StatusCode {
                match self { $(ErrorCode::$variant => StatusCode::$status,)+ }
            }

            /// Whether the code is a problem's own or only a field's.
            pub const fn scope(self) -> Scope {
                match self { $(ErrorCode::$variant => Scope::$scope,)+ }
            }

            /// The problem `title`: the same for every occurrence.
            pub const fn title(self) -> &'static str {
                match self { $(ErrorCode::$variant => $title,)+ }
            }

            /// The one-paragraph description, as written in the table's doc
            /// comments (one line per source line; see [`ErrorCode::description`]).
            const fn doc(self) -> &'static str {
                match self { $(ErrorCode::$variant => concat!($($doc, "\n"),+),)+ }
            }
        }
    };
}

error_codes! {
    // Reading the request.
    /// The body is not JSON at all: a syntax error, an empty body, or something
    /// after the value. `detail` says where the parser stopped.
    MalformedJson = ("malformed_json", BAD_REQUEST, Problem, "Malformed JSON");
    /// The body is JSON but not the shape the operation's schema describes: a
    /// missing or unknown field, a wrong type, a list too long, an unparseable
    /// card such as `"1X"`. Each fault is in `errors[]` with a JSON Pointer and
    /// one of the field codes `missing_field`, `unknown_field`, `invalid_type`,
    /// `invalid_length`, `unknown_variant`, `duplicate_field`, `invalid_value`,
    /// `too_many_items` or `too_long`.
    InvalidBody = ("invalid_body", BAD_REQUEST, Problem, "Invalid body");
    /// A profile names a preset that does not exist, written `"profile": "okla"`
    /// or `"profile": {"base": "okla"}`; the pointer is at the name and `detail`
    /// lists the presets.
    UnknownProfile = ("unknown_profile", BAD_REQUEST, Problem, "Unknown profile");
    /// A profile parameter is outside the range its schema states, such as a
    /// `gin_bonus` above 10000; the pointer names the parameter.
    InvalidProfile = ("invalid_profile", BAD_REQUEST, Problem, "Invalid profile");
    /// The request line or head is not HTTP/1.1 (a garbage request line, both
    /// `Content-Length` and `Transfer-Encoding`, two lengths), or its body could
    /// not be read to the end. The connection is closed.
    MalformedRequest = ("malformed_request", BAD_REQUEST, Problem, "Malformed request");
    /// The HTTP layer refused the request for a reason without a more specific
    /// code; `detail` gives it.
    BadRequest = ("bad_request", BAD_REQUEST, Problem, "Bad request");
    /// There is no resource at this path (`instance` repeats it), including
    /// `GET /v1/profiles/{name}` with a name that is not a preset.
    NotFound = ("not_found", NOT_FOUND, Problem, "Not found");
    /// The path exists but not with this method; the `Allow` header lists the
    /// methods it takes.
    MethodNotAllowed = ("method_not_allowed", METHOD_NOT_ALLOWED, Problem, "Method not allowed");
    /// Nothing the operation answers is acceptable to the request's `Accept`:
    /// e.g. exactly `image/svg+xml` on an operation that answers only JSON.
    /// `detail` lists the media types the operation offers.
    NotAcceptable = ("not_acceptable", NOT_ACCEPTABLE, Problem, "Not acceptable");
    /// The client took too long to send its request head or body. The
    /// connection is closed.
    RequestTimeout = ("request_timeout", REQUEST_TIMEOUT, Problem, "Request timeout");
    /// A bulk NDJSON request was not answered within `--batch-timeout`; lines
    /// after the one named in `detail` were not read. Once answers have started,
    /// this arrives as the stream's last line instead.
    BatchTimeout = ("batch_timeout", REQUEST_TIMEOUT, Problem, "Batch timeout");
    /// The body is larger than the operation's limit, as sent or once decoded.
    /// The connection is closed after this answer.
    PayloadTooLarge = ("payload_too_large", PAYLOAD_TOO_LARGE, Problem, "Payload too large");
    /// A line of a bulk NDJSON request (or an item of a bulk JSON array) is
    /// longer than `--batch-max-line-bytes`. Once answers have started, this
    /// arrives as the stream's last line.
    LineTooLong = ("line_too_long", PAYLOAD_TOO_LARGE, Problem, "Line too long");
    /// A bulk NDJSON request has more lines than `--batch-max-lines` (or a bulk
    /// JSON array more items). Once answers have started, this arrives as the
    /// stream's last line.
    TooManyLines = ("too_many_lines", PAYLOAD_TOO_LARGE, Problem, "Too many lines");
    /// The server could not hold the answers of a bulk request that its client
    /// had not read yet: its spool file (`--batch-spool-dir`) could not be
    /// created, written or read back (a full disk, an I/O error). Arrives as
    /// the stream's last line, after every answer still held; the lines after
    /// the last one answered were not read: send them again, or read the
    /// answers while sending.
    SpoolFailed = ("spool_failed", INSUFFICIENT_STORAGE, Problem, "Spool failed");
    /// The body was sent with a `Content-Type` the operation does not read
    /// (JSON operations read `application/json`, or a body without a
    /// `Content-Type`; bulk operations read `application/x-ndjson` or a JSON
    /// array as `application/json`).
    UnsupportedMediaType = ("unsupported_media_type", UNSUPPORTED_MEDIA_TYPE, Problem, "Unsupported media type");
    /// The body was sent in a `Content-Encoding` the operation does not read:
    /// JSON operations take gzip or deflate (one coding, named in the answer's
    /// `Accept-Encoding`); bulk operations take none for NDJSON, and gzip or
    /// deflate for a JSON array.
    UnsupportedContentEncoding = ("unsupported_content_encoding", UNSUPPORTED_MEDIA_TYPE, Problem, "Unsupported content encoding");
    /// The request head is over 128 KiB or has more than 96 header fields. The
    /// connection is closed.
    RequestHeadTooLarge = ("request_head_too_large", REQUEST_HEADER_FIELDS_TOO_LARGE, Problem, "Request head too large");
    // Who may call (where the service is started with API keys).
    /// The operation needs an API key (`Authorization: Bearer <key>`) and the
    /// request carried none, or one the service does not know. The answer
    /// carries `WWW-Authenticate: Bearer`; the body was not read.
    Unauthorized = ("unauthorized", UNAUTHORIZED, Problem, "Unauthorized");
    /// The API key is known but its scopes do not include this operation, or
    /// the request asked for a signed receipt (`"receipt": true`) with a key
    /// that lacks the `sign` scope (in a batch, that line's problem).
    Forbidden = ("forbidden", FORBIDDEN, Problem, "Forbidden");
    /// The API key has used its `rate` (requests per second) or has as many
    /// requests in flight as its `concurrency` allows; `Retry-After` says in
    /// how many seconds to try again. The body was not read.
    RateLimited = ("rate_limited", TOO_MANY_REQUESTS, Problem, "Rate limited");
    /// The server's memory budget (`--memory-budget`) is taken by the requests
    /// in flight, and room for this one did not come free within
    /// `--memory-wait-ms`: nothing of the request was kept or answered. Send it
    /// again after the `Retry-After` seconds (or to another replica). A body
    /// whose declared length could never fit the budget is a 413
    /// `payload_too_large` instead.
    Overloaded = ("overloaded", SERVICE_UNAVAILABLE, Problem, "Overloaded");
    /// A bug on the server's side. The cause is logged with the request id and
    /// never sent; please report it with the `X-Request-Id` of the answer.
    InternalError = ("internal_error", INTERNAL_SERVER_ERROR, Problem, "Internal error");

    // One fault of an invalid body, in `errors[].code` of `invalid_body`.
    /// A required field is missing; the pointer names the field itself.
    MissingField = ("missing_field", BAD_REQUEST, Field, "Missing field");
    /// A field the schema does not have (requests refuse unknown fields, so a
    /// misspelt optional field is not silently ignored).
    UnknownField = ("unknown_field", BAD_REQUEST, Field, "Unknown field");
    /// A value of the wrong JSON type, such as a number where a card belongs,
    /// a fraction where an integer belongs, or `null` in a field that is not
    /// nullable.
    InvalidType = ("invalid_type", BAD_REQUEST, Field, "Invalid type");
    /// A list or tuple of the wrong length for its schema.
    InvalidLength = ("invalid_length", BAD_REQUEST, Field, "Invalid length");
    /// A string that is not one of the values its schema enumerates.
    UnknownVariant = ("unknown_variant", BAD_REQUEST, Field, "Unknown variant");
    /// The same field twice in one object.
    DuplicateField = ("duplicate_field", BAD_REQUEST, Field, "Duplicate field");
    /// A value of the right type that cannot be read: a card such as `"1X"`,
    /// a number out of its range, a seed that is not hexadecimal.
    InvalidValue = ("invalid_value", BAD_REQUEST, Field, "Invalid value");
    /// A list longer than this server's ceiling for it (the served OpenAPI
    /// document states each as `maxItems`).
    TooManyItems = ("too_many_items", BAD_REQUEST, Field, "Too many items");
    /// A string longer than this server's ceiling for it (stated as
    /// `maxLength`).
    TooLong = ("too_long", BAD_REQUEST, Field, "Too long");

    // The rules: a well-formed request that cannot be answered.
    /// The same card appears twice where each card must be distinct: in one
    /// hand, in both hands, in a deal, or in a meld.
    DuplicateCard = ("duplicate_card", UNPROCESSABLE_ENTITY, Problem, "Duplicate card");
    /// A hand holds a joker (`X1`, `X2`) the profile's deck does not: any
    /// joker under a profile without jokers (the default), `X2` under
    /// `"jokers": 1`. Play with the `jokers` preset, or `"jokers": 1` or `2`
    /// in the profile; the pointer is at the joker.
    JokerNotInDeck = ("joker_not_in_deck", UNPROCESSABLE_ENTITY, Problem, "Joker not in deck");
    /// A hand or deal with a number of cards the rules do not allow (a hand
    /// holds 10, or 11 right after the draw; a deal holds 10, 10, the upcard
    /// and at most 31 stock cards, one more per joker of the profile).
    WrongCardCount = ("wrong_card_count", UNPROCESSABLE_ENTITY, Problem, "Wrong card count");
    /// A recorded hand draws from the stock past the cards its deal lists
    /// without naming the card drawn, so the record does not say which card
    /// it was; name it in the draw (`"card"`) or list it in the stock.
    UnrecordedDraw = ("unrecorded_draw", UNPROCESSABLE_ENTITY, Problem, "Unrecorded draw");
    /// Declared melds that are not a legal arrangement of the hand; `errors[]`
    /// names each faulty meld with a meld fault (`too_short`, `mixed_ranks`, ...)
    /// or a card in two melds or not in the hand. Also a bot's move asked in a
    /// record that breaks this rule (the audit's violation of this name,
    /// `errors[0]` pointing at the action).
    InvalidMelds = ("invalid_melds", UNPROCESSABLE_ENTITY, Problem, "Invalid melds");
    /// A card is declared in two melds of one arrangement.
    CardInTwoMelds = ("card_in_two_melds", UNPROCESSABLE_ENTITY, Field, "Card in two melds");
    /// A declared meld holds a card that is not in the hand (in `errors[]` of
    /// `invalid_melds`); or, as the problem's code, a bot was asked to move in a
    /// record where a player discards or knocks with a card it does not hold (the
    /// audit's violation of this name, `errors[0]` pointing at the action).
    CardNotInHand = ("card_not_in_hand", UNPROCESSABLE_ENTITY, Problem, "Card not in hand");
    /// A meld of fewer than three cards.
    TooShort = ("too_short", UNPROCESSABLE_ENTITY, Field, "Too short");
    /// Cards of different ranks, two of which share a rank: neither a set nor
    /// a run.
    MixedRanks = ("mixed_ranks", UNPROCESSABLE_ENTITY, Field, "Mixed ranks");
    /// Distinct ranks in more than one suit: a run is in one suit.
    MixedSuits = ("mixed_suits", UNPROCESSABLE_ENTITY, Field, "Mixed suits");
    /// One suit, but the ranks are not consecutive.
    Gap = ("gap", UNPROCESSABLE_ENTITY, Field, "Gap");
    /// A run that would need the king followed by the ace: the ace is low only.
    WrapAround = ("wrap_around", UNPROCESSABLE_ENTITY, Field, "Wrap around");
    /// A declared meld holds a joker with fewer natural cards than the
    /// profile's `joker_min_natural`.
    TooFewNaturals = ("too_few_naturals", UNPROCESSABLE_ENTITY, Field, "Too few naturals");
    /// A declared meld holds a joker that the knocker's `jokers` does not map
    /// to a card, or `jokers` names a joker no declared meld holds.
    JokerStandsFor = ("joker_stands_for", UNPROCESSABLE_ENTITY, Field, "Joker stands for");
    /// Profile parameters that are each in range but mean nothing together,
    /// such as a knock limit from the upcard in a profile without one.
    InvalidProfileCombination = ("invalid_profile_combination", UNPROCESSABLE_ENTITY, Problem, "Invalid profile combination");
    /// The profile takes its knock limit from the upcard (Oklahoma) and the
    /// request has no `upcard`.
    UpcardRequired = ("upcard_required", UNPROCESSABLE_ENTITY, Problem, "Upcard required");
    /// The knocker's deadwood is over the hand's knock limit. Also a bot's move
    /// asked in a record that breaks this rule (the audit's violation of this
    /// name, `errors[0]` pointing at the action).
    KnockOverLimit = ("knock_over_limit", UNPROCESSABLE_ENTITY, Problem, "Knock over limit");
    /// Big gin is claimed under a profile that does not score it. Also a bot's
    /// move asked in a record that breaks this rule (the audit's violation of
    /// this name, `errors[0]` pointing at the action).
    BigGinNotAllowed = ("big_gin_not_allowed", UNPROCESSABLE_ENTITY, Problem, "Big gin not allowed");
    /// Big gin is claimed with deadwood: big gin means all eleven cards meld.
    BigGinWithDeadwood = ("big_gin_with_deadwood", UNPROCESSABLE_ENTITY, Problem, "Big gin with deadwood");
    /// Big gin is claimed for eleven cards that do not all meld. Also a bot's
    /// move asked in a record that breaks this rule (the audit's violation of
    /// this name, `errors[0]` pointing at the action).
    NotBigGin = ("not_big_gin", UNPROCESSABLE_ENTITY, Problem, "Not big gin");
    /// A deadwood count no ten-card hand can have (above 98, or a defender
    /// count in a gin hand that no hand reaches).
    ImpossibleCount = ("impossible_count", UNPROCESSABLE_ENTITY, Problem, "Impossible count");
    /// Layoffs are declared against a gin hand or under a profile that forbids
    /// them. Also a bot's move asked in a record that breaks this rule (the
    /// audit's violation of this name, `errors[0]` pointing at the action).
    LayoffsNotAllowed = ("layoffs_not_allowed", UNPROCESSABLE_ENTITY, Problem, "Layoffs not allowed");
    /// A declared layoff names a card the defender does not hold. Also a bot's
    /// move asked in a record that breaks this rule (the audit's violation of
    /// this name, `errors[0]` pointing at the action).
    LayoffCardNotInHand = ("layoff_card_not_in_hand", UNPROCESSABLE_ENTITY, Problem, "Layoff card not in hand");
    /// A declared layoff lays off the same card twice. Also a bot's move asked in
    /// a record that breaks this rule (the audit's violation of this name,
    /// `errors[0]` pointing at the action).
    LayoffCardRepeated = ("layoff_card_repeated", UNPROCESSABLE_ENTITY, Problem, "Layoff card repeated");
    /// A declared layoff names a meld the knocker did not lay down. Also a bot's
    /// move asked in a record that breaks this rule (the audit's violation of
    /// this name, `errors[0]` pointing at the action).
    LayoffMeldNotFound = ("layoff_meld_not_found", UNPROCESSABLE_ENTITY, Problem, "Layoff meld not found");
    /// A declared layoff does not extend the meld it names (as that meld stands
    /// after the layoffs before it). Also a bot's move asked in a record that
    /// breaks this rule (the audit's violation of this name, `errors[0]` pointing
    /// at the action).
    LayoffDoesNotFit = ("layoff_does_not_fit", UNPROCESSABLE_ENTITY, Problem, "Layoff does not fit");
    /// A match with more hands than `--max-match-hands`.
    TooManyHands = ("too_many_hands", UNPROCESSABLE_ENTITY, Problem, "Too many hands");
    /// A player's name is empty or only spaces.
    BlankPlayerName = ("blank_player_name", UNPROCESSABLE_ENTITY, Problem, "Blank player name");
    /// Two players (or teams) of a match have the same name, or one rated
    /// result names a player twice.
    DuplicatePlayerName = ("duplicate_player_name", UNPROCESSABLE_ENTITY, Problem, "Duplicate player name");
    /// A hand names a player who is not in the match, or a rated result's
    /// winner is not among its players.
    UnknownPlayer = ("unknown_player", UNPROCESSABLE_ENTITY, Problem, "Unknown player");
    /// A hand comes after the game already ended.
    GameOver = ("game_over", UNPROCESSABLE_ENTITY, Problem, "Game over");
    /// A hand names the same player as knocker and defender.
    SamePlayerTwice = ("same_player_twice", UNPROCESSABLE_ENTITY, Problem, "Same player twice");
    /// A void hand lists its players in an order the three-player rotation
    /// does not allow.
    KnockerNotFirst = ("knocker_not_first", UNPROCESSABLE_ENTITY, Problem, "Knocker not first");
    /// In a three-player match, a hand is not played by the two players the
    /// rotation gives (the loser of a hand sits out the next). Also a bot's move
    /// asked in a record that breaks this rule (the audit's violation of this
    /// name, `errors[0]` pointing at the action).
    RotationBroken = ("rotation_broken", UNPROCESSABLE_ENTITY, Problem, "Rotation broken");
    /// In a partnership match, a deal's two tables do not each seat one player of
    /// each team, or seat a player twice. Also a bot's move asked in a record
    /// that breaks this rule (the audit's violation of this name, `errors[0]`
    /// pointing at the action).
    PairingBroken = ("pairing_broken", UNPROCESSABLE_ENTITY, Problem, "Pairing broken");
    /// Hollywood scoring is asked for three players or for teams, for which no
    /// source defines it.
    HollywoodNotDefined = ("hollywood_not_defined", UNPROCESSABLE_ENTITY, Problem, "Hollywood not defined");
    /// A team's name is empty or only spaces.
    BlankTeamName = ("blank_team_name", UNPROCESSABLE_ENTITY, Problem, "Blank team name");
    /// A match names both `players` and `teams`, or neither; or a rated
    /// result does not pair them with what goes with them (`players` with a
    /// `winner`, `teams` of at least one player with one rank each).
    PlayersOrTeams = ("players_or_teams", UNPROCESSABLE_ENTITY, Problem, "Players or teams");
    /// A live match state asked for a player's view (`seat`) and the public's
    /// (`"spectator": true`) at once: a view is one or the other.
    SeatOrSpectator = ("seat_or_spectator", UNPROCESSABLE_ENTITY, Problem, "Seat or spectator");
    /// A hand in a shape the match's format does not take: a partnership deal
    /// in a two-player match, a plain hand among teams, a hand without
    /// `non_dealer` in a three-player audit.
    WrongHandShape = ("wrong_hand_shape", UNPROCESSABLE_ENTITY, Problem, "Wrong hand shape");
    /// A client seed longer than the server accepts for a provably fair deal.
    ClientSeedTooLong = ("client_seed_too_long", UNPROCESSABLE_ENTITY, Problem, "Client seed too long");
    /// A request asked for a signed receipt (`"receipt": true`) where no
    /// signing key is configured: the Python module in-process until
    /// `gin_referee.signing_key(pem)` is called. The service always has a key.
    SigningKeyRequired = ("signing_key_required", UNPROCESSABLE_ENTITY, Problem, "Signing key required");
    /// A rated result whose arithmetic leaves the range of a double: its teams'
    /// ratings thousands of points apart (an outcome the model holds certain),
    /// or a sigma so small that its square is zero. The pointer names the result.
    RatingsOutOfRange = ("ratings_out_of_range", UNPROCESSABLE_ENTITY, Problem, "Ratings out of range");
    /// A bot was asked to move (`/v1/hands/move`, `/v1/matches/move`) for a
    /// seat that has nothing to play now: the other seat is to act, the hand
    /// is over, the match is between hands (`deal`) or over, or the player
    /// sits this hand out. The pointer is at `seat`; ask the state who acts.
    NotToAct = ("not_to_act", UNPROCESSABLE_ENTITY, Problem, "Not to act");
    // A bot asked to move (`/v1/hands/move`, `/v1/matches/move`) in a record
    // that breaks a rule answers with the violation's own code, as the audit
    // names it, and `errors[0]` pointing at the action: no bot plays after an
    // illegal action. These rows are the violations only a record can show;
    // the others share the row of the same fault above (`card_not_in_hand`,
    // `knock_over_limit`, the layoff codes, ...).
    /// A bot was asked to move in a record where a player acts while the other is
    /// to act: the audit's violation of this name, `errors[0]` pointing at the
    /// action.
    WrongPlayer = ("wrong_player", UNPROCESSABLE_ENTITY, Problem, "Wrong player");
    /// A bot was asked to move in a record where the first turn does not follow
    /// the upcard offer (the non-dealer is offered the upcard first, then the
    /// dealer, then the non-dealer draws from the stock): the audit's violation
    /// of this name, `errors[0]` pointing at the action.
    UpcardOfferViolated = ("upcard_offer_violated", UNPROCESSABLE_ENTITY, Problem, "Upcard offer violated");
    /// A bot was asked to move in a record where a player passes outside the
    /// upcard offer and the 50th-card offer: the audit's violation of this name,
    /// `errors[0]` pointing at the action.
    PassNotAllowed = ("pass_not_allowed", UNPROCESSABLE_ENTITY, Problem, "Pass not allowed");
    /// A bot was asked to move in a record where a player discards or knocks
    /// before drawing: the audit's violation of this name, `errors[0]` pointing
    /// at the action.
    MustDrawFirst = ("must_draw_first", UNPROCESSABLE_ENTITY, Problem, "Must draw first");
    /// A bot was asked to move in a record where a player draws twice in one
    /// turn: the audit's violation of this name, `errors[0]` pointing at the
    /// action.
    AlreadyDrew = ("already_drew", UNPROCESSABLE_ENTITY, Problem, "Already drew");
    /// A bot was asked to move in a record where a draw names a card that is not
    /// the one on top: the audit's violation of this name, `errors[0]` pointing
    /// at the action.
    ExpectedCardMismatch = ("expected_card_mismatch", UNPROCESSABLE_ENTITY, Problem, "Expected card mismatch");
    /// A bot was asked to move in a record where a player discards, or knocks
    /// with, the card just taken from the discard pile: the audit's violation of
    /// this name, `errors[0]` pointing at the action.
    DiscardJustTaken = ("discard_just_taken", UNPROCESSABLE_ENTITY, Problem, "Discard just taken");
    /// A bot was asked to move in a record where a player draws from the stock
    /// when only its last two cards remain: the audit's violation of this name,
    /// `errors[0]` pointing at the action.
    StockExhausted = ("stock_exhausted", UNPROCESSABLE_ENTITY, Problem, "Stock exhausted");
    /// A bot was asked to move in a record where under the tournament 50th-card
    /// rule, a player takes the discard and does not knock: the audit's violation
    /// of this name, `errors[0]` pointing at the action.
    FiftiethCardTakeWithoutKnock = ("fiftieth_card_take_without_knock", UNPROCESSABLE_ENTITY, Problem, "Fiftieth card taken without a knock");
    /// A bot was asked to move in a record where a player lays off before anyone
    /// knocked: the audit's violation of this name, `errors[0]` pointing at the
    /// action.
    LayOffWithoutKnock = ("lay_off_without_knock", UNPROCESSABLE_ENTITY, Problem, "Lay-off without a knock");
    /// A bot was asked to move in a record where under `joker_pickup_must_meld`,
    /// a joker taken from the pile is not melded that turn: the audit's violation
    /// of this name, `errors[0]` pointing at the action.
    JokerNotMelded = ("joker_not_melded", UNPROCESSABLE_ENTITY, Problem, "Joker not melded");
    /// A bot was asked to move in a record where a player acts after the hand
    /// became void at the end of the stock: the audit's violation of this name,
    /// `errors[0]` pointing at the action.
    HandIsVoid = ("hand_is_void", UNPROCESSABLE_ENTITY, Problem, "Hand is void");
    /// A bot was asked to move in a record where a player acts after the hand
    /// ended with a knock and the defender's reply: the audit's violation of this
    /// name, `errors[0]` pointing at the action.
    ActionAfterHandEnded = ("action_after_hand_ended", UNPROCESSABLE_ENTITY, Problem, "Action after hand ended");
    /// A bot was asked to move in a record where a deal given by its seeds has a
    /// server seed that does not hash to the commitment given with it: the
    /// audit's violation of this name, `errors[0]` pointing at the action.
    DealCommitmentMismatch = ("deal_commitment_mismatch", UNPROCESSABLE_ENTITY, Problem, "Deal commitment mismatch");
    /// A bot was asked to move in a record where a match's hand is dealt by the
    /// wrong player under the profile's `next_dealer`: the audit's violation of
    /// this name, `errors[0]` pointing at the action.
    WrongDealer = ("wrong_dealer", UNPROCESSABLE_ENTITY, Problem, "Wrong dealer");
    /// A bot was asked to move in a record where a match's hand is recorded after
    /// the game ended: the audit's violation of this name, `errors[0]` pointing
    /// at the action.
    HandAfterGameEnd = ("hand_after_game_end", UNPROCESSABLE_ENTITY, Problem, "Hand after game end");
    /// A bot was asked to move in a record where a match's hand stops before its
    /// end and another hand follows: the audit's violation of this name,
    /// `errors[0]` pointing at the action.
    HandUnfinished = ("hand_unfinished", UNPROCESSABLE_ENTITY, Problem, "Hand unfinished");
    /// A bot was asked to move in a record where a match's seeded deal has a
    /// commitment or client seed that is not the match's, or a hand is given by
    /// its cards in a seeded match: the audit's violation of this name,
    /// `errors[0]` pointing at the action.
    DealSeedsDiffer = ("deal_seeds_differ", UNPROCESSABLE_ENTITY, Problem, "Deal seeds differ");
    /// A bot was asked to move in a record where a match's seeded deal has a
    /// nonce no greater than the previous hand's: the audit's violation of this
    /// name, `errors[0]` pointing at the action.
    DealNonceNotIncreasing = ("deal_nonce_not_increasing", UNPROCESSABLE_ENTITY, Problem, "Deal nonce not increasing");
}

impl ErrorCode {
    /// The code named `code`, if the table has it.
    pub fn from_name(code: &str) -> Option<ErrorCode> {
        ErrorCode::ALL.iter().copied().find(|c| c.as_str() == code)
    }

    /// The description as one paragraph.
    pub fn description(self) -> String {
        self.doc()
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The problem `type`: the path where this server describes the code.
    pub fn type_uri(self) -> String {
        format!("{TYPE_PATH}{}", self.as_str())
    }
}

/// The path under which the service describes each code; a problem's `type`
/// is this path and the code, relative to the service's own URL (RFC 9457
/// allows a relative reference, resolved against the request's URL).
pub const TYPE_PATH: &str = "/problems/";

/// The error table of docs/ERRORS.md, in Markdown: code, status, title, description.
pub fn markdown_table() -> String {
    let mut table = String::from("| code | status | where | meaning |\n|---|---|---|---|\n");
    for code in ErrorCode::ALL {
        let place = match code.scope() {
            Scope::Problem => "`code`",
            Scope::Field => "`errors[].code`",
        };
        table.push_str(&format!(
            "| `{}` | {} | {place} | {} |\n",
            code.as_str(),
            code.status().as_u16(),
            code.description().replace('|', "\\|"),
        ));
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn codes_are_unique_snake_case_and_titled() {
        let mut seen = HashSet::new();
        for code in ErrorCode::ALL {
            let name = code.as_str();
            assert!(seen.insert(name), "{name} twice");
            assert!(
                name.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{name} is not snake_case"
            );
            assert!(!code.title().is_empty());
            assert!(code.description().len() > 20, "{name} lacks a description");
            assert_eq!(ErrorCode::from_name(name), Some(*code));
        }
    }

    #[test]
    fn every_status_is_an_error_status() {
        for code in ErrorCode::ALL {
            assert!(
                code.status().is_client_error() || code.status().is_server_error(),
                "{code:?}"
            );
        }
    }

    #[test]
    fn an_examples_field_code_is_in_the_table_and_shares_its_status_class() {
        for code in ErrorCode::ALL {
            if let Some((pointer, field)) = code.example().error {
                assert!(pointer.is_empty() || pointer.starts_with('/'), "{code:?}");
                assert_eq!(field.status(), code.status(), "{code:?} -> {field:?}");
            }
        }
    }

    #[test]
    fn the_markdown_table_has_a_row_per_code() {
        let table = markdown_table();
        assert_eq!(table.lines().count(), ErrorCode::ALL.len() + 2);
        assert!(table.contains("| `duplicate_card` | 422 | `code` |"));
    }
}
