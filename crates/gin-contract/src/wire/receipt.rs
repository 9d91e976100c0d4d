//! Signed receipts on answers (see [`crate::receipts`] for the format): the
//! key ring an operation signs with, and the signature of one answer.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::Serialize;

use crate::problem::{ErrorCode, Problem};
use crate::receipts::{Claims, KeyRing, digest, digest_text};
use gin_rules::Profile;

/// The key ring answers are signed with, or none: the service always has one
/// (configured, or generated at start); the Python module has one once its
/// caller configures a key.
#[derive(Debug, Clone, Default)]
pub struct Keys(Option<Arc<KeyRing>>);

impl Keys {
    /// Signs with `ring`.
    pub fn new(ring: Arc<KeyRing>) -> Keys {
        Keys(Some(ring))
    }

    /// No key: a request for a receipt is refused with `signing_key_required`,
    /// and an answer that is always signed (the match audit) goes unsigned.
    pub fn none() -> Keys {
        Keys(None)
    }

    /// The key ring, if there is one (the public keys are served from it).
    pub fn ring(&self) -> Option<&Arc<KeyRing>> {
        self.0.as_ref()
    }

    /// The receipt of `answer` (serialised without its `receipt`) to the
    /// request whose body is `body`, for operation `op` under `profile`.
    pub fn sign<T: Serialize>(
        &self,
        op: &str,
        profile: &Profile,
        body: &[u8],
        answer: &T,
    ) -> Result<String, Problem> {
        let Some(ring) = &self.0 else {
            return Err(ErrorCode::SigningKeyRequired.example_problem());
        };
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
        ring.sign(&claims).map_err(internal)
    }

    /// [`Keys::sign`] where the answer is signed whenever a key is there, and
    /// goes out unsigned where none is.
    pub fn sign_if_keyed<T: Serialize>(
        &self,
        op: &str,
        profile: &Profile,
        body: &[u8],
        answer: &T,
    ) -> Result<Option<String>, Problem> {
        match self.0 {
            Some(_) => self.sign(op, profile, body, answer).map(Some),
            None => Ok(None),
        }
    }
}
