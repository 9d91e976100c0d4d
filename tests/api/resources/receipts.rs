//! Signed receipts over HTTP, verified with a different Ed25519 implementation
//! (`ed25519-compact`) than the signer's (`ed25519-dalek`), and the request
//! digest recomputed with `serde_json_canonicalizer` rather than the service's
//! in-place canonicaliser. Changing one byte of the request, the answer or the
//! signature fails verification. (CI verifies the same receipts once more in
//! Python: `scripts/receipts.sh`.)

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ed25519_dalek::pkcs8::spki::der::pem::LineEnding;
use ed25519_dalek::pkcs8::{EncodePrivateKey, EncodePublicKey};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::cost::Server;
use crate::support::{TestApp, spawn_app};

fn b64(data: &str) -> Vec<u8> {
    URL_SAFE_NO_PAD.decode(data).expect("base64url")
}

fn digest(document: &Value) -> String {
    let canonical = serde_json_canonicalizer::to_vec(document).unwrap();
    URL_SAFE_NO_PAD.encode(Sha256::digest(&canonical))
}

/// Checks `receipt` against the request body, the answer (without its
/// receipt) and the key set; returns the payload, or why it does not verify.
pub(super) fn verify(
    receipt: &str,
    request: &[u8],
    answer: &Value,
    keys: &Value,
) -> Result<Value, String> {
    let parts: Vec<&str> = receipt.split('.').collect();
    let [header, payload, signature] = parts[..] else {
        return Err("not a compact JWS".into());
    };
    let header: Value = serde_json::from_slice(&b64(header)).map_err(|e| e.to_string())?;
    if header["alg"] != "EdDSA" {
        return Err(format!("alg {}", header["alg"]));
    }
    let key = keys["keys"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["kid"] == header["kid"])
        .ok_or("no key with the header's kid")?;
    let public = ed25519_compact::PublicKey::from_slice(&b64(key["x"].as_str().unwrap()))
        .map_err(|e| e.to_string())?;
    let signature =
        ed25519_compact::Signature::from_slice(&b64(signature)).map_err(|e| e.to_string())?;
    let signed = format!("{}.{payload}", parts[0]);
    public
        .verify(signed.as_bytes(), &signature)
        .map_err(|e| format!("signature: {e}"))?;
    let claims: Value = serde_json::from_slice(&b64(payload)).map_err(|e| e.to_string())?;
    let request: Value = serde_json::from_slice(request).map_err(|e| e.to_string())?;
    if claims["request"] != digest(&request) {
        return Err("request digest".into());
    }
    let mut answer = answer.clone();
    answer.as_object_mut().unwrap().remove("receipt");
    if claims["response"] != digest(&answer) {
        return Err("response digest".into());
    }
    Ok(claims)
}

async fn post(app: &TestApp, path: &str, body: &[u8]) -> (u16, Value) {
    let response = app
        .client
        .post(app.url(path))
        .header("content-type", "application/json")
        .body(body.to_vec())
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap())
}

fn hand_score_request() -> Vec<u8> {
    // Written by hand, spaces and key order included: the digest is of the
    // canonical form, so a verifier may re-serialise it any way.
    br#"{ "receipt": true, "profile": {"base": "oklahoma", "gin_bonus": 20},
          "upcard": "9S",
          "knocker": {"hand": ["3H","4H","5H","9S","9H","9D","3C","4C","5C","AH"]},
          "defender": {"hand": ["6H","2H","JS","JH","JD","7S","7H","7C","4D","5S"]} }"#
        .to_vec()
}

#[tokio::test]
async fn every_signing_operation_answers_a_receipt_that_verifies_independently() {
    let app = spawn_app().await;
    let keys: Value = app.get("/v1/keys").await.json().await.unwrap();
    assert_eq!(keys["ephemeral"], true, "{keys}");
    assert_eq!(keys["keys"][0]["crv"], "Ed25519");
    let match_audit = json!({"players": ["Ann", "Bob"], "hands": [{
        "dealer": "Ann",
        "deal": gin_contract::wire::transcript::examples::deal(),
        "actions": gin_contract::wire::transcript::examples::knock_actions(),
    }]});
    let hand_audit = json!({"receipt": true,
        "deal": gin_contract::wire::transcript::examples::deal(),
        "actions": gin_contract::wire::transcript::examples::knock_actions()});
    let match_score = json!({"receipt": true, "players": ["Mom", "Dad"],
        "hands": [{"knocker": "Mom", "knocker_deadwood": 5, "defender_deadwood": 15}]});
    let cases = [
        (
            "/v1/hands/score",
            hand_score_request(),
            "score_hand",
            "custom",
        ),
        (
            "/v1/matches/score",
            serde_json::to_vec(&match_score).unwrap(),
            "score_match",
            "standard",
        ),
        (
            "/v1/hands/audit",
            serde_json::to_vec(&hand_audit).unwrap(),
            "audit_hand",
            "standard",
        ),
        (
            "/v1/matches/audit",
            serde_json::to_vec(&match_audit).unwrap(),
            "audit_match",
            "standard",
        ),
    ];
    for (path, request, op, profile) in cases {
        let (status, answer) = post(&app, path, &request).await;
        assert_eq!(status, 200, "{path}: {answer}");
        let receipt = answer["receipt"]
            .as_str()
            .unwrap_or_else(|| panic!("{path}: {answer}"));
        let claims = verify(receipt, &request, &answer, &keys).unwrap();
        assert_eq!(claims["op"], op);
        assert_eq!(claims["version"], env!("CARGO_PKG_VERSION"));
        assert_eq!(claims["profile"]["name"], profile);
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs();
        assert!(
            claims["iat"].as_u64().unwrap().abs_diff(now) < 60,
            "{claims}"
        );

        // One byte changed anywhere fails verification.
        let mut request_changed = request.clone();
        let at = request_changed.iter().position(|&b| b == b'5').unwrap();
        request_changed[at] = b'6';
        assert_eq!(
            verify(receipt, &request_changed, &answer, &keys),
            Err("request digest".into())
        );
        let mut answer_changed = answer.clone();
        answer_changed["hands"] = json!("changed");
        answer_changed["points"] = json!(1);
        assert_eq!(
            verify(receipt, &request, &answer_changed, &keys),
            Err("response digest".into())
        );
        let mut signature_changed = receipt.as_bytes().to_vec();
        let last = signature_changed.len() - 2;
        signature_changed[last] = if signature_changed[last] == b'A' {
            b'B'
        } else {
            b'A'
        };
        let signature_changed = String::from_utf8(signature_changed).unwrap();
        assert!(
            verify(&signature_changed, &request, &answer, &keys)
                .unwrap_err()
                .starts_with("signature")
        );
    }
}

#[tokio::test]
async fn a_receipt_comes_only_when_asked_and_never_on_an_error() {
    let app = spawn_app().await;
    let mut request: Value = serde_json::from_slice(&hand_score_request()).unwrap();
    request.as_object_mut().unwrap().remove("receipt");
    let (status, answer) = post(&app, "/v1/hands/score", request.to_string().as_bytes()).await;
    assert_eq!(status, 200);
    assert!(answer.get("receipt").is_none());
    request["receipt"] = json!(true);
    request["knocker"]["hand"][0] = json!("JS");
    let (status, problem) = post(&app, "/v1/hands/score", request.to_string().as_bytes()).await;
    assert_eq!(status, 422);
    assert!(problem.get("receipt").is_none(), "{problem}");
}

#[test]
fn a_configured_key_signs_and_retired_keys_stay_listed() {
    let dir = std::env::temp_dir().join(format!("gin-referee-keys-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let current = ed25519_dalek::SigningKey::from_bytes(&[7; 32]);
    let retired = ed25519_dalek::SigningKey::from_bytes(&[9; 32]);
    let key_file = dir.join("signing-key.pem");
    std::fs::write(
        &key_file,
        current.to_pkcs8_pem(LineEnding::LF).unwrap().as_bytes(),
    )
    .unwrap();
    let retired_file = dir.join("retired-keys.pem");
    let retired_pem = retired
        .verifying_key()
        .to_public_key_pem(LineEnding::LF)
        .unwrap();
    std::fs::write(&retired_file, format!("# rotated out\n{retired_pem}")).unwrap();

    let server = Server::start(&[
        "--signing-key",
        key_file.to_str().unwrap(),
        "--retired-keys",
        retired_file.to_str().unwrap(),
    ]);
    let (status, _, body) = server.get("/v1/keys");
    assert_eq!(status, 200);
    let keys: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(keys["ephemeral"], false);
    let listed: Vec<Vec<u8>> = keys["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| b64(k["x"].as_str().unwrap()))
        .collect();
    assert_eq!(
        listed,
        [
            current.verifying_key().to_bytes().to_vec(),
            retired.verifying_key().to_bytes().to_vec()
        ]
    );
    let request = hand_score_request();
    let (status, _, body) = server.post(
        "/v1/hands/score",
        &[("Content-Type", "application/json")],
        &request,
    );
    assert_eq!(status, 200);
    let answer: Value = serde_json::from_slice(&body).unwrap();
    let receipt = answer["receipt"].as_str().unwrap();
    verify(receipt, &request, &answer, &keys).unwrap();
    let header: Value = serde_json::from_slice(&b64(receipt.split('.').next().unwrap())).unwrap();
    assert_eq!(header["kid"], keys["keys"][0]["kid"]);

    // A file that is not a key stops the server at start, saying why.
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_gin-referee"))
        .args([
            "--signing-key",
            retired_file.to_str().unwrap(),
            "--listen",
            "127.0.0.1:0",
        ])
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("PKCS#8"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}
