//! `GET /v1/keys`: the public keys that verify receipts, as a JWK Set
//! (RFC 7517) of Ed25519 keys (RFC 8037).

use actix_web::{HttpResponse, get, http::header};
use serde::Serialize;
use utoipa::ToSchema;

use super::ServiceConfig;
use crate::http::signing::ServerKeys;

/// One Ed25519 public key.
#[derive(Serialize, ToSchema)]
#[schema(as = Jwk)]
#[allow(dead_code)] // A schema only: the answer serialises `receipts::Jwk`.
struct JwkSchema {
    /// Always `OKP`.
    #[schema(example = "OKP")]
    kty: String,
    /// Always `Ed25519`.
    #[schema(example = "Ed25519")]
    crv: String,
    /// The public key, base64url without padding.
    #[schema(example = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo")]
    x: String,
    /// The key's RFC 7638 thumbprint: the `kid` in a receipt's header.
    #[schema(example = "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k")]
    kid: String,
    /// Always `sig`.
    #[serde(rename = "use")]
    #[schema(example = "sig")]
    usage: String,
    /// Always `EdDSA`.
    #[schema(example = "EdDSA")]
    alg: String,
}

/// The keys that verify receipts.
#[derive(Serialize, ToSchema)]
pub struct KeySet<'a> {
    /// The key that signs now first, then the retired keys still listed so
    /// that the receipts they signed verify.
    #[schema(value_type = Vec<JwkSchema>)]
    keys: &'a [gin_contract::receipts::Jwk],
    /// The service generated its key when it started (no key was configured):
    /// receipts verify only against this process's key, lost at restart.
    ephemeral: bool,
}

/// The public keys of receipts.
#[utoipa::path(
    tag = "receipts",
    summary = "Get the keys that verify receipts",
    description = "The JWK Set of the Ed25519 public keys that verify the receipts the service \
        signs (`\"receipt\": true` on /v1/hands/score, /v1/matches/score and /v1/hands/audit; \
        always on /v1/matches/audit). A receipt is a compact JWS (`alg` `EdDSA`, `kid` the key's \
        RFC 7638 thumbprint) whose payload holds `request` and `response`, the base64url \
        SHA-256 of the RFC 8785 canonical form of the request body and of the answer without \
        its `receipt`, with `op`, `version`, `profile` and `iat`. `ephemeral` is true when the \
        service generated its key at start.",
    responses(
        (status = 200, description = "The key set.", body = KeySet, example = json!({
            "keys": [{"kty": "OKP", "crv": "Ed25519",
                      "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
                      "kid": "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k",
                      "use": "sig", "alg": "EdDSA"}],
            "ephemeral": false
        })),
    )
)]
#[get("/v1/keys")]
pub async fn get_keys(ServerKeys(keys): ServerKeys) -> HttpResponse {
    // The server always has a ring (configured, or generated at start).
    let (keys, ephemeral) = keys
        .ring()
        .map_or((&[][..], false), |ring| (ring.keys(), ring.is_generated()));
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "public, max-age=300"))
        .json(KeySet { keys, ephemeral })
}

pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(get_keys);
}
