//! `POST /v1/deals`: provably fair dealing. The casino keeps its server seed
//! secret and publishes the seed's commitment before play; after play it
//! reveals the seed, and anyone can re-derive every deal here (the service
//! keeps nothing). The algorithm is [`gin_rules::fair_deal`]'s, version 1.
//!
//! The handlers only: each reads its body with the transport's extractor and
//! answers with the operation of `gin_contract::answers::deals`, which the
//! `batch` command and the Python module call too.

use actix_web::{post, web};

use super::ServiceConfig;
use crate::http::json::ValidJson;
use crate::http::problem::HttpProblem;
use gin_contract::answers::deals::*;

gin_contract::problem_responses!(
    /// The error answers of `/v1/deals`.
    DealErrors: [MalformedJson, InvalidBody, PayloadTooLarge, Overloaded, UnsupportedMediaType, UnsupportedContentEncoding, RequestTimeout, ClientSeedTooLong]
);
/// Deals from seeds.
#[utoipa::path(
    tag = "hands",
    summary = "Deal a hand from seeds (provably fair)",
    description = "Derives a deal from a server seed, a client seed and a nonce by the fixed \
        algorithm `hmac-sha256-fisher-yates-v1`, and gives the commitment SHA-256(server seed) a \
        casino publishes before play. The algorithm: the random bytes are the blocks \
        HMAC-SHA256(key = the 32 seed bytes, message = client_seed + \":\" + nonce + \":\" + i) for \
        i = 0, 1, 2, ... (decimal), read 4 bytes at a time as big-endian u32 values; a uniform \
        integer below n rejects values at or above 2^32 - (2^32 mod n) and takes the rest mod n; \
        the deck AS..KS, AH..KH, AD..KD, AC..KC is shuffled by Fisher-Yates (i from 51 down to 1, \
        j uniform below i + 1, swap); cards 0, 2, ..., 18 go to the non-dealer, 1, 3, ..., 19 to \
        the dealer, card 20 is the upcard and 21..51 the stock, top first. With `jokers` 1 or 2 \
        the deck is the same 52 cards followed by X1 (then X2), shuffled from the last index \
        down, and the stock holds the rest (32 or 33 cards). Test vectors are in the project's \
        rules document.",
    request_body(content = DealRequest, example = json!({
        "server_seed": "0000000000000000000000000000000000000000000000000000000000000000",
        "client_seed": "player", "nonce": 0})),
    responses(
        (status = 200, description = "The deal and its commitment.", body = DealResponse,
         example = json!({"algorithm": "hmac-sha256-fisher-yates-v1",
            "commitment": "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925",
            "deal": {
                "dealer": ["2S", "AH", "5C", "KD", "7S", "9C", "7H", "6C", "3H", "6D"],
                "non_dealer": ["3D", "4C", "6S", "4H", "6H", "2D", "2C", "AS", "QH", "9D"],
                "upcard": "8S",
                "stock": ["AD", "9H", "8H", "4D", "5D", "KC", "JS", "KH", "TS", "TC", "2H", "JD", "KS", "9S", "8C", "QC", "AC", "7C", "5S", "3C", "TD", "4S", "QS", "TH", "JC", "7D", "5H", "JH", "8D", "QD", "3S"]}})),
        DealErrors,
    )
)]
#[post("/v1/deals")]
pub async fn deal_from_seeds(
    body: ValidJson<DealRequest>,
) -> Result<web::Json<DealResponse>, HttpProblem> {
    let request = body.into_inner();
    Ok(web::Json(answer(&request)?))
}
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(deal_from_seeds);
}
