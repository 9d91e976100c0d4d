//! The server's signing keys as a handler takes them (`ServerKeys(keys):
//! ServerKeys`): the ring registered as app data, or, in an app built
//! without one (tests), a key generated once per process; signing for the
//! request's API key as far as its scopes allow (see [`super::admission::auth`]).

use std::future::{Ready, ready};
use std::sync::{Arc, OnceLock};

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpMessage, HttpRequest, web};

use super::admission::auth::Caller;
use gin_contract::receipts::KeyRing;
use gin_contract::wire::receipt::Keys;

/// The server's key ring, as the operations sign with it.
#[derive(Debug, Clone)]
pub struct ServerKeys(pub Keys);

impl FromRequest for ServerKeys {
    type Error = actix_web::Error;
    type Future = Ready<Result<ServerKeys, actix_web::Error>>;

    fn from_request(request: &HttpRequest, _: &mut Payload) -> Self::Future {
        static FALLBACK: OnceLock<Option<Arc<KeyRing>>> = OnceLock::new();
        let ring = match request.app_data::<web::Data<KeyRing>>() {
            Some(ring) => Some(ring.clone().into_inner()),
            None => FALLBACK
                .get_or_init(|| KeyRing::load(None, None).ok().map(Arc::new))
                .clone(),
        };
        let caller = request
            .extensions()
            .get::<Caller>()
            .map(Caller::signer)
            .unwrap_or_default();
        ready(
            ring.map(|ring| ServerKeys(Keys::new(ring).for_caller(caller)))
                .ok_or_else(|| {
                    actix_web::error::ErrorInternalServerError("no signing key could be generated")
                }),
        )
    }
}
