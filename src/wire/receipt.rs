//! Signed receipts on answers (see [`crate::receipts`] for the format): the
//! key ring as a request sees it, and the signature of one answer.

use std::future::{Ready, ready};
use std::sync::{Arc, OnceLock};
use std::time::{SystemTime, UNIX_EPOCH};

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest, web};
use serde::Serialize;

use crate::http::problem::Problem;
use crate::receipts::{Claims, KeyRing, digest, digest_text};
use gin_rules::Profile;

/// The server's key ring, registered as app data; an app built without one
/// (tests) signs with a key generated once per process.
#[derive(Debug, Clone)]
pub struct Keys(pub Arc<KeyRing>);

impl FromRequest for Keys {
    type Error = actix_web::Error;
    type Future = Ready<Result<Keys, actix_web::Error>>;

    fn from_request(request: &HttpRequest, _: &mut Payload) -> Self::Future {
        static FALLBACK: OnceLock<Option<Arc<KeyRing>>> = OnceLock::new();
        let ring = match request.app_data::<web::Data<KeyRing>>() {
            Some(ring) => Some(ring.clone().into_inner()),
            None => FALLBACK
                .get_or_init(|| KeyRing::load(None, None).ok().map(Arc::new))
                .clone(),
        };
        ready(ring.map(Keys).ok_or_else(|| {
            actix_web::error::ErrorInternalServerError("no signing key could be generated")
        }))
    }
}

impl Keys {
    /// The receipt of `answer` (serialised without its `receipt`) to the
    /// request whose body is `body`, for operation `op` under `profile`.
    pub fn sign<T: Serialize>(
        &self,
        op: &str,
        profile: &Profile,
        body: &[u8],
        answer: &T,
    ) -> Result<String, Problem> {
        let internal = |e: serde_json::Error| Problem::internal(&e);
        let claims = Claims {
            request: digest_text(body).map_err(internal)?,
            response: digest(answer).map_err(internal)?,
            op,
            version: env!("CARGO_PKG_VERSION"),
            profile,
            iat: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |since| since.as_secs()),
        };
        self.0.sign(&claims).map_err(internal)
    }
}
