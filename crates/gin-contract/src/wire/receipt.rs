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
/// caller configures a key. With it, who asked: a service with API keys signs
/// only for a key with the `sign` scope, and names that key in the receipt.
#[derive(Debug, Clone, Default)]
pub struct Keys {
    ring: Option<Arc<KeyRing>>,
    caller: Caller,
}

/// Who asks for a signature.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Caller {
    /// Anyone: a service without API keys, or an in-process caller.
    #[default]
    Anyone,
    /// An API key with the `sign` scope: its id becomes the receipt's `sub`.
    Signer(Arc<str>),
    /// An API key without the `sign` scope: a request for a receipt is
    /// refused with `forbidden`, and an answer that is always signed goes
    /// unsigned.
    NotSigner(Arc<str>),
}

impl Keys {
    /// Signs with `ring`, for anyone.
    pub fn new(ring: Arc<KeyRing>) -> Keys {
        Keys {
            ring: Some(ring),
            caller: Caller::Anyone,
        }
    }

    /// No key: a request for a receipt is refused with `signing_key_required`,
    /// and an answer that is always signed (the match audit) goes unsigned.
    pub fn none() -> Keys {
        Keys::default()
    }

    /// These keys, signing for `caller` only as far as it may ask.
    pub fn for_caller(mut self, caller: Caller) -> Keys {
        self.caller = caller;
        self
    }

    /// The key ring, if there is one (the public keys are served from it).
    pub fn ring(&self) -> Option<&Arc<KeyRing>> {
        self.ring.as_ref()
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
        let sub = match &self.caller {
            Caller::Anyone => None,
            Caller::Signer(id) => Some(&**id),
            Caller::NotSigner(id) => return Err(not_a_signer(id)),
        };
        let Some(ring) = &self.ring else {
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
            sub,
        };
        ring.sign(&claims).map_err(internal)
    }

    /// [`Keys::sign`] where the answer is signed whenever a key is there and
    /// the caller may ask for signatures, and goes out unsigned otherwise.
    pub fn sign_if_keyed<T: Serialize>(
        &self,
        op: &str,
        profile: &Profile,
        body: &[u8],
        answer: &T,
    ) -> Result<Option<String>, Problem> {
        match (&self.ring, &self.caller) {
            (None, _) | (_, Caller::NotSigner(_)) => Ok(None),
            (Some(_), _) => self.sign(op, profile, body, answer).map(Some),
        }
    }
}

/// A receipt asked for by a key that may not have one.
fn not_a_signer(id: &str) -> Problem {
    Problem::new(
        ErrorCode::Forbidden,
        format!(
            "the API key \"{id}\" may not ask for a signed receipt: it lacks the `sign` scope \
             (ask without \"receipt\": true, or with a key that has it)"
        ),
    )
}
