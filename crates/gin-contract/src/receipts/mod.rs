//! Signed receipts: proof that an answer came from this referee, unaltered,
//! for the request it answered.
//!
//! A receipt is a JWS in compact form (RFC 7515) signed with Ed25519 (`EdDSA`,
//! RFC 8037). Its payload binds the request and the answer by their SHA-256
//! digests, each taken over the RFC 8785 (JCS) canonical form of the JSON, so a
//! verifier may re-serialise either document any way it likes:
//!
//! ```json
//! {"request": "<b64url sha256>", "response": "<b64url sha256>", "op": "audit_match",
//!  "version": "0.1.0", "profile": {...}, "iat": 1795000000}
//! ```
//!
//! `request` digests the whole request body as received (`receipt` and
//! `claimed` included); `response` digests the answer without its `receipt`
//! field. The key set (`GET /v1/keys`) names each key by its RFC 7638 JWK
//! thumbprint, which is the `kid` of the protected header.
//!
//! # Keys
//!
//! The signing key is an Ed25519 private key in a PKCS#8 PEM file
//! (`--signing-key`; `openssl genpkey -algorithm ed25519` writes one). Older
//! public keys (SPKI PEM blocks in one file, `--retired-keys`) stay listed so
//! that receipts they signed still verify after a rotation. Without a signing
//! key the service generates one at start: its receipts verify only while the
//! process runs, which the key set and a warning in the log say.
//!
//! # Choices
//!
//! - ed25519-dalek (2.x, the RustCrypto-maintained Ed25519) signs; its
//!   `pkcs8`/`pem` features read the standard key files.
//! - serde_json_canonicalizer implements RFC 8785 (numbers as ECMAScript
//!   prints them, keys sorted by UTF-16 code units); a test pins the RFC's own
//!   example.
//! - Signing costs one Ed25519 signature (about 20 us) and two canonical
//!   serialisations, only when a receipt is asked for.

use std::fmt;
use std::path::{Path, PathBuf};

mod canonical;
pub use canonical::canonicalize;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ed25519_dalek::pkcs8::{DecodePrivateKey, DecodePublicKey};
use ed25519_dalek::{Signer, SigningKey, VerifyingKey};
use serde::Serialize;
use sha2::{Digest, Sha256};

/// Why the keys could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("cannot read the key file {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} holds no Ed25519 private key in PKCS#8 PEM form: {message}", path.display())]
    PrivateKey { path: PathBuf, message: String },
    #[error("{}: block {index} is not an Ed25519 public key in SPKI PEM form: {message}", path.display())]
    PublicKey {
        path: PathBuf,
        index: usize,
        message: String,
    },
    #[error("{} holds no PUBLIC KEY block", path.display())]
    NoPublicKey { path: PathBuf },
    #[error("the operating system's random source failed: {0}")]
    Random(String),
    #[error("no Ed25519 private key in PKCS#8 PEM form: {0}")]
    PrivateKeyText(String),
}

/// One public key as a JWK (RFC 8037).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Jwk {
    pub kty: &'static str,
    pub crv: &'static str,
    /// The public key, base64url without padding.
    pub x: String,
    /// Its RFC 7638 thumbprint.
    pub kid: String,
    #[serde(rename = "use")]
    pub usage: &'static str,
    pub alg: &'static str,
}

impl Jwk {
    fn of(key: &VerifyingKey) -> Jwk {
        let x = URL_SAFE_NO_PAD.encode(key.as_bytes());
        // RFC 7638: the required members, in lexicographic order, no spaces.
        let members = format!(r#"{{"crv":"Ed25519","kty":"OKP","x":"{x}"}}"#);
        let kid = URL_SAFE_NO_PAD.encode(Sha256::digest(members.as_bytes()));
        Jwk {
            kty: "OKP",
            crv: "Ed25519",
            x,
            kid,
            usage: "sig",
            alg: "EdDSA",
        }
    }
}

/// The signing key and every public key still listed.
pub struct KeyRing {
    signing: SigningKey,
    kid: String,
    keys: Vec<Jwk>,
    generated: bool,
}

impl fmt::Debug for KeyRing {
    // Never prints the private key.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeyRing")
            .field("kid", &self.kid)
            .field("keys", &self.keys.len())
            .field("generated", &self.generated)
            .finish_non_exhaustive()
    }
}

impl KeyRing {
    /// The keys from their files; a fresh key when `signing` is `None`.
    pub fn load(signing: Option<&Path>, retired: Option<&Path>) -> Result<KeyRing, KeyError> {
        let (key, generated) = match signing {
            Some(path) => {
                let pem = read(path)?;
                let key = SigningKey::from_pkcs8_pem(&pem).map_err(|e| KeyError::PrivateKey {
                    path: path.to_owned(),
                    message: e.to_string(),
                })?;
                (key, false)
            }
            None => {
                let mut secret = [0u8; 32];
                getrandom::getrandom(&mut secret).map_err(|e| KeyError::Random(e.to_string()))?;
                (SigningKey::from_bytes(&secret), true)
            }
        };
        let current = Jwk::of(&key.verifying_key());
        let mut keys = vec![current.clone()];
        if let Some(path) = retired {
            for older in public_keys(path)? {
                let jwk = Jwk::of(&older);
                if !keys.contains(&jwk) {
                    keys.push(jwk);
                }
            }
        }
        Ok(KeyRing {
            signing: key,
            kid: current.kid,
            keys,
            generated,
        })
    }

    /// The ring of one key, the Ed25519 private key in `pem` (PKCS#8), for a
    /// caller that holds the key's text rather than a file.
    pub fn from_pem(pem: &str) -> Result<KeyRing, KeyError> {
        let key =
            SigningKey::from_pkcs8_pem(pem).map_err(|e| KeyError::PrivateKeyText(e.to_string()))?;
        let current = Jwk::of(&key.verifying_key());
        Ok(KeyRing {
            signing: key,
            kid: current.kid.clone(),
            keys: vec![current],
            generated: false,
        })
    }

    /// The `kid` of the signing key.
    pub fn kid(&self) -> &str {
        &self.kid
    }

    /// Every public key: the signing key's first, then the retired ones.
    pub fn keys(&self) -> &[Jwk] {
        &self.keys
    }

    /// The service generated the key at start (no `--signing-key`).
    pub fn is_generated(&self) -> bool {
        self.generated
    }

    /// A compact JWS of `claims`.
    pub fn sign<C: Serialize>(&self, claims: &C) -> serde_json::Result<String> {
        let header = serde_json::json!({"alg": "EdDSA", "kid": self.kid});
        let header = URL_SAFE_NO_PAD.encode(serde_json::to_vec(&header)?);
        let payload = URL_SAFE_NO_PAD.encode(serde_json::to_vec(claims)?);
        let signing_input = format!("{header}.{payload}");
        let signature = self.signing.sign(signing_input.as_bytes());
        Ok(format!(
            "{signing_input}.{}",
            URL_SAFE_NO_PAD.encode(signature.to_bytes())
        ))
    }
}

fn read(path: &Path) -> Result<String, KeyError> {
    std::fs::read_to_string(path).map_err(|source| KeyError::Read {
        path: path.to_owned(),
        source,
    })
}

/// Every `PUBLIC KEY` PEM block of a file.
fn public_keys(path: &Path) -> Result<Vec<VerifyingKey>, KeyError> {
    const BEGIN: &str = "-----BEGIN PUBLIC KEY-----";
    const END: &str = "-----END PUBLIC KEY-----";
    let pem = read(path)?;
    let mut keys = Vec::new();
    let mut rest = pem.as_str();
    while let Some(block) = rest.find(BEGIN).and_then(|start| rest.get(start..)) {
        let Some((block, after)) = block
            .find(END)
            .and_then(|end| block.split_at_checked(end + END.len()))
        else {
            break;
        };
        let key = VerifyingKey::from_public_key_pem(block).map_err(|e| KeyError::PublicKey {
            path: path.to_owned(),
            index: keys.len(),
            message: e.to_string(),
        })?;
        keys.push(key);
        rest = after;
    }
    if keys.is_empty() {
        return Err(KeyError::NoPublicKey {
            path: path.to_owned(),
        });
    }
    Ok(keys)
}

/// The SHA-256, base64url without padding, of the RFC 8785 canonical form of
/// a JSON document.
pub fn digest<T: Serialize>(document: &T) -> serde_json::Result<String> {
    let canonical = serde_json_canonicalizer::to_vec(document)?;
    Ok(URL_SAFE_NO_PAD.encode(Sha256::digest(&canonical)))
}

/// [`digest`] of a JSON text, canonicalised in place (see [`canonicalize`]).
pub fn digest_text(json: &[u8]) -> serde_json::Result<String> {
    let canonical = canonicalize(json)?;
    Ok(URL_SAFE_NO_PAD.encode(Sha256::digest(&canonical)))
}

/// The payload of a receipt.
#[derive(Debug, Serialize)]
pub struct Claims<'a, P: Serialize> {
    /// Digest of the request body as received.
    pub request: String,
    /// Digest of the answer without its `receipt`.
    pub response: String,
    /// The operationId.
    pub op: &'a str,
    /// The package version.
    pub version: &'a str,
    /// The resolved profile.
    pub profile: &'a P,
    /// Seconds since the epoch.
    pub iat: u64,
    /// The id of the API key that asked, where the service has API keys.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sub: Option<&'a str>,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]

    use super::*;

    #[test]
    fn canonical_form_is_rfc_8785s_own_example() {
        // RFC 8785, section 3.2.2 (the input) and 3.2.3 (the canonical output).
        let input = r#"{
            "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
            "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
            "literals": [null, true, false]
        }"#;
        let value: serde_json::Value = serde_json::from_str(input).unwrap();
        let canonical = serde_json_canonicalizer::to_string(&value).unwrap();
        assert_eq!(
            canonical,
            r#"{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}"#
        );
    }

    #[test]
    fn the_kid_is_the_rfc_7638_thumbprint_and_rfc_8037s_example_key_gives_its_own() {
        // RFC 8037, appendix A.2 and A.3: the public key and its thumbprint.
        let x = URL_SAFE_NO_PAD
            .decode("11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo")
            .unwrap();
        let key = VerifyingKey::from_bytes(&x.try_into().unwrap()).unwrap();
        assert_eq!(
            Jwk::of(&key).kid,
            "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"
        );
    }

    #[test]
    fn rfc_8037s_example_signature_is_reproduced() {
        // RFC 8037, appendix A.4: the JWS of "Example of Ed25519 signing".
        let secret = URL_SAFE_NO_PAD
            .decode("nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A")
            .unwrap();
        let key = SigningKey::from_bytes(&secret.try_into().unwrap());
        let input = "eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc";
        let signature = URL_SAFE_NO_PAD.encode(key.sign(input.as_bytes()).to_bytes());
        assert_eq!(
            signature,
            "hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg"
        );
    }

    #[test]
    fn a_generated_ring_signs_what_its_public_key_verifies() {
        let ring = KeyRing::load(None, None).unwrap();
        assert!(ring.is_generated());
        let jws = ring.sign(&serde_json::json!({"op": "x"})).unwrap();
        let parts: Vec<&str> = jws.split('.').collect();
        assert_eq!(parts.len(), 3);
        let public = URL_SAFE_NO_PAD.decode(&ring.keys()[0].x).unwrap();
        let public = VerifyingKey::from_bytes(&public.try_into().unwrap()).unwrap();
        let signature = URL_SAFE_NO_PAD.decode(parts[2]).unwrap();
        let signature = ed25519_dalek::Signature::from_slice(&signature).unwrap();
        let input = format!("{}.{}", parts[0], parts[1]);
        assert!(public.verify_strict(input.as_bytes(), &signature).is_ok());
        assert!(public.verify_strict(b"other", &signature).is_err());
    }
}
