//! `POST /v1/deals`: provably fair dealing. The casino keeps its server seed
//! secret and publishes the seed's commitment before play; after play it
//! reveals the seed, and anyone can re-derive every deal here (the service
//! keeps nothing). The algorithm is [`gin_rules::fair_deal`]'s, version 1.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::problem::{ErrorCode, Problem};
use crate::wire::transcript::seeds_request;
use gin_rules::fair_deal::{self, SeedError, ServerSeed};
use gin_rules::{Deal, MAX_JOKERS};

seeds_request! {
    /// The seeds of one deal.
    #[schema(example = json!({"server_seed": "0000000000000000000000000000000000000000000000000000000000000000",
        "client_seed": "player", "nonce": 0}))]
    pub struct DealRequest {
        server_seed:
        /// The casino's secret: 32 bytes as 64 hexadecimal digits.
        client_seed:
        /// The player's contribution: any UTF-8 text of at most 256 bytes (a longer
        /// one is a 422 `client_seed_too_long`).
        nonce:
        /// The deal's number in the series: 0 to 2^53 - 1.
    } and {
        /// Jokers in the deck: 0 (the default), 1 (`X1`) or 2 (`X1`, `X2`),
        /// added after KC before the shuffle; the stock is longer by as many. Use
        /// the audited profile's `jokers`.
        #[serde(default, deserialize_with = "crate::json::present")]
        #[schema(nullable = false, minimum = 0, maximum = 2, example = 0)]
        pub jokers: Option<u8>,
    }
}

/// A deal derived from seeds, with what proves it.
#[derive(Debug, Serialize, ToSchema)]
pub struct DealResponse {
    /// The algorithm's name and version: `hmac-sha256-fisher-yates-v1`.
    #[schema(example = "hmac-sha256-fisher-yates-v1")]
    pub algorithm: &'static str,
    /// Lowercase hexadecimal SHA-256 of the 32 server seed bytes: the value
    /// published before play.
    pub commitment: String,
    /// The deal, in the shape `POST /v1/hands/audit` takes.
    pub deal: Deal,
}

pub fn answer(request: &DealRequest) -> Result<DealResponse, Problem> {
    let seed = ServerSeed::from_hex(&request.server_seed).map_err(|e| seed_problem(&e))?;
    let jokers = request.jokers.unwrap_or(0);
    if jokers > MAX_JOKERS {
        let detail = format!("a deck holds 0, 1 or 2 jokers, not {jokers}");
        return Err(Problem::new(ErrorCode::InvalidBody, &detail).with_error(
            "/jokers",
            ErrorCode::InvalidValue,
            detail,
        ));
    }
    let deal = fair_deal::deal_with_jokers(&seed, &request.client_seed, request.nonce, jokers)
        .map_err(|e| seed_problem(&e))?;
    Ok(DealResponse {
        algorithm: fair_deal::ALGORITHM,
        commitment: seed.commitment(),
        deal,
    })
}

/// Seeds the schema forbids are 400 with a pointer; a client seed within
/// `maxLength` characters but over 256 bytes is a 422 (the schema cannot say
/// bytes).
fn seed_problem(error: &SeedError) -> Problem {
    let detail = error.to_string();
    match error {
        SeedError::ServerSeedFormat => Problem::new(ErrorCode::InvalidBody, &detail).with_error(
            "/server_seed",
            ErrorCode::InvalidValue,
            detail,
        ),
        SeedError::NonceTooLarge(_) => Problem::new(ErrorCode::InvalidBody, &detail).with_error(
            "/nonce",
            ErrorCode::InvalidValue,
            detail,
        ),
        SeedError::ClientSeedTooLong(_) => Problem::new(ErrorCode::ClientSeedTooLong, &detail)
            .with_error("/client_seed", ErrorCode::ClientSeedTooLong, detail),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(server_seed: &str, client_seed: &str, nonce: u64) -> DealRequest {
        DealRequest {
            server_seed: server_seed.into(),
            client_seed: client_seed.into(),
            nonce,
            jokers: None,
        }
    }

    #[test]
    fn a_deck_with_jokers_deals_them_and_a_longer_stock() {
        let two = DealRequest {
            jokers: Some(2),
            ..request(&"00".repeat(32), "player", 0)
        };
        let answered = serde_json::to_value(answer(&two).unwrap()).unwrap();
        assert_eq!(answered["deal"]["stock"].as_array().unwrap().len(), 33);
        assert_eq!(answered["deal"]["stock"][12], "X2");
        let three = DealRequest {
            jokers: Some(3),
            ..request(&"00".repeat(32), "player", 0)
        };
        let problem = answer(&three).unwrap_err();
        assert_eq!(
            (problem.status.as_u16(), problem.errors[0].pointer.as_str()),
            (400, "/jokers")
        );
    }

    #[test]
    fn the_documented_answer_is_what_the_documented_request_gets() {
        let answered = answer(&request(&"00".repeat(32), "player", 0)).unwrap();
        let doc = serde_json::to_value(crate::answers::openapi()).unwrap_or_default();
        let documented = &doc["paths"]["/v1/deals"]["post"]["responses"]["200"]["content"]["application/json"]
            ["example"];
        assert_eq!(serde_json::to_value(answered).unwrap(), *documented);
    }

    #[test]
    fn bad_seeds_are_problems_with_pointers() {
        let problem = answer(&request("00", "", 0)).unwrap_err();
        assert_eq!(
            (problem.status.as_u16(), problem.errors[0].pointer.as_str()),
            (400, "/server_seed")
        );
        let problem = answer(&request(&"00".repeat(32), "", 1 << 53)).unwrap_err();
        assert_eq!(
            (problem.status.as_u16(), problem.errors[0].pointer.as_str()),
            (400, "/nonce")
        );
        let problem = answer(&request(&"00".repeat(32), &"é".repeat(200), 0)).unwrap_err();
        assert_eq!(problem.status.as_u16(), 422);
        assert_eq!(problem.code.as_str(), "client_seed_too_long");
        let doc = serde_json::to_value(crate::answers::openapi()).unwrap_or_default();
        let documented = &doc["paths"]["/v1/deals"]["post"]["responses"]["422"]["content"]["application/problem+json"]
            ["examples"]["client_seed_too_long"]["value"];
        let answered = serde_json::to_value(problem.to_document()).unwrap();
        for member in ["type", "code", "status", "detail", "errors"] {
            assert_eq!(answered[member], documented[member], "{member}");
        }
    }
}
