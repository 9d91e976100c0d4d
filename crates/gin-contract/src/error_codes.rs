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
    /// names each faulty meld with a meld fault (`too_short`, `mixed_ranks`,
    /// ...) or a card in two melds or not in the hand.
    InvalidMelds = ("invalid_melds", UNPROCESSABLE_ENTITY, Problem, "Invalid melds");
    /// A card is declared in two melds of one arrangement.
    CardInTwoMelds = ("card_in_two_melds", UNPROCESSABLE_ENTITY, Field, "Card in two melds");
    /// A declared meld holds a card that is not in the hand.
    CardNotInHand = ("card_not_in_hand", UNPROCESSABLE_ENTITY, Field, "Card not in hand");
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
    /// The knocker's deadwood is over the hand's knock limit.
    KnockOverLimit = ("knock_over_limit", UNPROCESSABLE_ENTITY, Problem, "Knock over limit");
    /// Big gin is claimed under a profile that does not score it.
    BigGinNotAllowed = ("big_gin_not_allowed", UNPROCESSABLE_ENTITY, Problem, "Big gin not allowed");
    /// Big gin is claimed with deadwood: big gin means all eleven cards meld.
    BigGinWithDeadwood = ("big_gin_with_deadwood", UNPROCESSABLE_ENTITY, Problem, "Big gin with deadwood");
    /// Big gin is claimed for eleven cards that do not all meld.
    NotBigGin = ("not_big_gin", UNPROCESSABLE_ENTITY, Problem, "Not big gin");
    /// A deadwood count no ten-card hand can have (above 98, or a defender
    /// count in a gin hand that no hand reaches).
    ImpossibleCount = ("impossible_count", UNPROCESSABLE_ENTITY, Problem, "Impossible count");
    /// Layoffs are declared against a gin hand or under a profile that forbids
    /// them.
    LayoffsNotAllowed = ("layoffs_not_allowed", UNPROCESSABLE_ENTITY, Problem, "Layoffs not allowed");
    /// A declared layoff names a card the defender does not hold.
    LayoffCardNotInHand = ("layoff_card_not_in_hand", UNPROCESSABLE_ENTITY, Problem, "Layoff card not in hand");
    /// A declared layoff lays off the same card twice.
    LayoffCardRepeated = ("layoff_card_repeated", UNPROCESSABLE_ENTITY, Problem, "Layoff card repeated");
    /// A declared layoff names a meld the knocker did not lay down.
    LayoffMeldNotFound = ("layoff_meld_not_found", UNPROCESSABLE_ENTITY, Problem, "Layoff meld not found");
    /// A declared layoff does not extend the meld it names (as that meld stands
    /// after the layoffs before it).
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
    /// rotation gives (the loser of a hand sits out the next).
    RotationBroken = ("rotation_broken", UNPROCESSABLE_ENTITY, Problem, "Rotation broken");
    /// In a partnership match, a deal's two tables do not each seat one player
    /// of each team, or seat a player twice.
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
    /// A bot was asked to move in a record that has a violation: no bot plays
    /// after an illegal action. `errors[0]` is the violation as the audit
    /// reports it: its `code` is the audit's (`wrong_player`, `wrong_dealer`,
    /// ...; docs/AUDITS.md) and its `pointer` is into the request.
    IllegalRecord = ("illegal_record", UNPROCESSABLE_ENTITY, Problem, "Illegal record");
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
            // The field code of its `errors[0]` is the audit's violation
            // code, outside this table: the example leaves it out.
            IllegalRecord => (
                "the record is illegal at /actions/3/card (card_not_in_hand): the dealer discarded 9C, which it does not hold; no bot plays after a violation",
                None,
            ),
        };
        Example { detail, error: at }
    }
}

/// The path under which the service describes each code; a problem's `type`
/// is this path and the code, relative to the service's own URL (RFC 9457
/// allows a relative reference, resolved against the request's URL).
pub const TYPE_PATH: &str = "/problems/";

/// One example occurrence of a code, for the documentation.
#[derive(Debug, Clone, Copy)]
pub struct Example {
    /// The `detail` of the example.
    pub detail: &'static str,
    /// The pointer and field code of its `errors[]` entry, if it has one.
    pub error: Option<(&'static str, ErrorCode)>,
}

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
