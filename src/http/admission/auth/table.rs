//! The keys file and the table read from it: which keys exist, what each may
//! call, and its limits. The file is read again while the service runs
//! ([`watch`]), so a rotation needs no restart.
//!
//! The file is a JSON array of `{"id", "sha256", "scopes", "rate"?,
//! "concurrency"?}`. It never holds a key, only the SHA-256 of one: whoever
//! reads the file (a backup, a `kubectl get secret`) cannot call with it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU32;
use std::sync::{Arc, Mutex, PoisonError, RwLock, Weak};
use std::time::{Duration, Instant};

use prometheus::{IntCounter, IntCounterVec};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use subtle::{ConditionallySelectable, ConstantTimeEq};

use super::Operations;

/// The scope that lets a key's answers carry a signed receipt.
pub const SIGN: &str = "sign";
/// The scope of every operation (not of signing).
pub const EVERY_OPERATION: &str = "*";
/// How often the keys file is read again. A Kubernetes Secret update reaches
/// a mounted volume within about a minute; a second more is nothing beside it.
pub const RELOAD_EVERY: Duration = Duration::from_secs(1);
/// Highest `rate` accepted (requests per second): above it a limit limits nothing.
const MAX_RATE: f64 = 1_000_000.0;
/// Longest key id: it is a log field and a metric label.
const MAX_ID_LEN: usize = 64;

/// One entry of the keys file, as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    id: String,
    sha256: String,
    scopes: Vec<String>,
    rate: Option<f64>,
    concurrency: Option<u32>,
}

/// What a key may do and how much, with the state of its limits.
#[derive(Debug)]
pub struct ApiKey {
    pub id: Arc<str>,
    digest: [u8; 32],
    /// One bit per operation, in the order of [`Operations`].
    scopes: u64,
    pub sign: bool,
    pub rate: Option<f64>,
    pub concurrency: Option<u32>,
    pub state: Arc<KeyState>,
    pub outcomes: Outcomes,
}

impl ApiKey {
    /// Whether the key may call the operation numbered `operation`.
    pub fn may_call(&self, operation: u32) -> bool {
        self.scopes & (1u64 << operation) != 0
    }

    /// The scopes as written in the file's terms, for messages.
    pub fn scope_names(&self, operations: &Operations) -> String {
        let names: Vec<&str> = operations
            .names()
            .enumerate()
            .filter(|&(index, _)| self.scopes & (1u64 << index) != 0)
            .map(|(_, name)| name)
            .collect();
        match names.is_empty() {
            true => "none".to_owned(),
            false => names.join(", "),
        }
    }
}

/// The limits' state of one key, kept across reloads of the file while the
/// key's id stays in it (a rotation does not refill a bucket).
#[derive(Debug, Default)]
pub struct KeyState {
    pub bucket: Mutex<Bucket>,
    pub in_flight: AtomicU32,
}

/// A token bucket holding one second's worth of requests (at least one).
#[derive(Debug, Default)]
pub struct Bucket {
    tokens: f64,
    last: Option<Instant>,
}

impl Bucket {
    /// Takes one token at `now` for a key of `rate` requests per second, or
    /// says how long until there is one.
    pub fn take(&mut self, rate: f64, now: Instant) -> Result<(), Duration> {
        let capacity = rate.max(1.0);
        let tokens = match self.last {
            None => capacity,
            Some(last) => {
                let refill = now.saturating_duration_since(last).as_secs_f64() * rate;
                (self.tokens + refill).min(capacity)
            }
        };
        self.last = Some(now);
        if tokens >= 1.0 {
            self.tokens = tokens - 1.0;
            return Ok(());
        }
        self.tokens = tokens;
        Err(Duration::from_secs_f64((1.0 - tokens) / rate))
    }
}

/// Locks a key's bucket; a panic elsewhere while it was held leaves numbers
/// that are still numbers, so the lock is taken anyway.
pub fn lock(bucket: &Mutex<Bucket>) -> std::sync::MutexGuard<'_, Bucket> {
    bucket.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The counters of one key id, one per outcome of the admission (resolved
/// once, so that counting costs no label lookup per request).
#[derive(Debug, Clone)]
pub struct Outcomes {
    pub admitted: IntCounter,
    pub unauthorized: IntCounter,
    pub forbidden: IntCounter,
    pub rate_limited: IntCounter,
}

impl Outcomes {
    pub fn of(counter: &IntCounterVec, id: &str) -> Result<Outcomes, prometheus::Error> {
        let of = |outcome: &str| counter.get_metric_with_label_values(&[id, outcome]);
        Ok(Outcomes {
            admitted: of("admitted")?,
            unauthorized: of("unauthorized")?,
            forbidden: of("forbidden")?,
            rate_limited: of("rate_limited")?,
        })
    }
}

/// The keys in force.
#[derive(Debug, Default)]
pub struct KeyTable {
    keys: Vec<Arc<ApiKey>>,
}

impl KeyTable {
    /// The key whose digest is the SHA-256 of `presented`. Every entry is
    /// compared, in constant time, whatever matches: how long this takes says
    /// nothing about which key, if any, was sent, or how close it came.
    pub fn find(&self, presented: &[u8]) -> Option<&Arc<ApiKey>> {
        let digest: [u8; 32] = Sha256::digest(presented).into();
        let mut found = 0u32;
        let mut any = subtle::Choice::from(0);
        for (index, key) in (0u32..).zip(&self.keys) {
            let matches = key.digest.ct_eq(&digest);
            found.conditional_assign(&index, matches);
            any |= matches;
        }
        match bool::from(any) {
            true => self.keys.get(usize::try_from(found).ok()?),
            false => None,
        }
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Reads a keys file's text. The limits' state of an id already in
    /// `previous` is kept.
    pub fn parse(
        text: &[u8],
        operations: &Operations,
        counter: &IntCounterVec,
        previous: &KeyTable,
    ) -> Result<KeyTable, String> {
        let entries: Vec<Entry> = serde_json::from_slice(text).map_err(|err| describe(&err))?;
        let mut seen: HashMap<&str, usize> = HashMap::new();
        let mut digests: HashMap<[u8; 32], &str> = HashMap::new();
        let mut keys = Vec::with_capacity(entries.len());
        for (index, entry) in entries.iter().enumerate() {
            if let Some(first) = seen.insert(&entry.id, index) {
                return Err(format!("entries {first} and {index} have the same id"));
            }
            let key = read_entry(entry, operations, counter, previous).map_err(|why| {
                format!("entry {index} (of {} in the file): {why}", entries.len())
            })?;
            if let Some(other) = digests.insert(key.digest, &entry.id) {
                return Err(format!(
                    "entries {other:?} and {:?} have the same sha256",
                    key.id
                ));
            }
            keys.push(Arc::new(key));
        }
        Ok(KeyTable { keys })
    }
}

/// Where and how a keys file fails to parse, without quoting it: a key
/// pasted into the wrong field would otherwise reach the log.
fn describe(error: &serde_json::Error) -> String {
    use serde_json::error::Category;
    let what = match error.classify() {
        Category::Syntax => "is not JSON",
        Category::Eof => "ends too early",
        Category::Data => {
            "is not an array of {\"id\", \"sha256\", \"scopes\", \"rate\"?, \"concurrency\"?} \
             (a field is missing, unknown or of the wrong type)"
        }
        Category::Io => "cannot be read",
    };
    format!(
        "the file {what}, at line {} column {}",
        error.line(),
        error.column()
    )
}

fn read_entry(
    entry: &Entry,
    operations: &Operations,
    counter: &IntCounterVec,
    previous: &KeyTable,
) -> Result<ApiKey, String> {
    check_id(&entry.id)?;
    let digest = read_digest(&entry.sha256)?;
    let (scopes, sign) = read_scopes(&entry.scopes, operations)?;
    let rate = match entry.rate {
        Some(rate) if !(rate > 0.0 && rate <= MAX_RATE) => {
            return Err(format!(
                "rate {rate} is not a number of requests per second above 0 and at most {MAX_RATE}"
            ));
        }
        rate => rate,
    };
    if entry.concurrency == Some(0) {
        return Err("concurrency 0 would admit nothing: leave it out for no limit".to_owned());
    }
    let state = previous
        .keys
        .iter()
        .find(|key| *key.id == *entry.id)
        .map_or_else(Arc::default, |key| key.state.clone());
    Ok(ApiKey {
        id: Arc::from(entry.id.as_str()),
        digest,
        scopes,
        sign,
        rate,
        concurrency: entry.concurrency,
        state,
        outcomes: Outcomes::of(counter, &entry.id).map_err(|err| err.to_string())?,
    })
}

/// An id is a log field and a metric label: letters, digits, `.`, `_`, `-`.
pub fn check_id(id: &str) -> Result<(), String> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
    if id.is_empty() || id.len() > MAX_ID_LEN || !id.chars().all(allowed) {
        // The id is not quoted: it is not one, and could be anything.
        return Err(format!(
            "the id must be 1 to {MAX_ID_LEN} letters, digits, '.', '_' or '-'"
        ));
    }
    Ok(())
}

fn read_digest(hex: &str) -> Result<[u8; 32], String> {
    let mut digest = [0u8; 32];
    let bytes = hex.as_bytes();
    if bytes.len() != 64 {
        return Err(format!(
            "sha256 must be 64 hex digits (the SHA-256 of the key), not {} characters",
            bytes.len()
        ));
    }
    for (byte, pair) in digest.iter_mut().zip(bytes.chunks_exact(2)) {
        let text = std::str::from_utf8(pair).map_err(|_| "sha256 is not hex".to_owned())?;
        *byte = u8::from_str_radix(text, 16).map_err(|_| "sha256 is not hex".to_owned())?;
    }
    Ok(digest)
}

/// The operations' bits and whether `sign` is among the scopes.
pub fn read_scopes(scopes: &[String], operations: &Operations) -> Result<(u64, bool), String> {
    let mut bits = 0u64;
    let mut sign = false;
    for (place, scope) in scopes.iter().enumerate() {
        match scope.as_str() {
            SIGN => sign = true,
            EVERY_OPERATION => bits = operations.all(),
            name => match operations.index_of(name) {
                Some(index) => bits |= 1u64 << index,
                None => {
                    // Not quoted: what is not a scope could be anything.
                    return Err(format!(
                        "unknown scope (scopes[{place}]): a scope is an operationId ({}), \"*\" or \"sign\"",
                        operations.names().collect::<Vec<_>>().join(", ")
                    ));
                }
            },
        }
    }
    Ok((bits, sign))
}

/// The keys file and the table in force, swapped whole when the file changes.
#[derive(Debug)]
pub struct Source {
    path: PathBuf,
    table: RwLock<Arc<KeyTable>>,
    /// The text the table in force was read from (or the last text refused),
    /// so that an unchanged file is not parsed again.
    last_text: Mutex<Option<Vec<u8>>>,
}

impl Source {
    /// Reads `path` once; the service does not start with a file it cannot read.
    pub fn load(
        path: &Path,
        operations: &Operations,
        counter: &IntCounterVec,
    ) -> Result<Source, String> {
        let text = std::fs::read(path).map_err(|err| format!("{}: {err}", path.display()))?;
        let table = KeyTable::parse(&text, operations, counter, &KeyTable::default())
            .map_err(|why| format!("{}: {why}", path.display()))?;
        Ok(Source {
            path: path.to_owned(),
            table: RwLock::new(Arc::new(table)),
            last_text: Mutex::new(Some(text)),
        })
    }

    /// The table in force.
    pub fn table(&self) -> Arc<KeyTable> {
        self.table
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Reads the file again; a change that parses replaces the table, one
    /// that does not (or a file gone) keeps it and logs an error, once per
    /// change. Never logs a key: the file holds digests, and only the parse
    /// error's position and the ids are named.
    pub fn reload(&self, operations: &Operations, counter: &IntCounterVec) {
        let mut last = self
            .last_text
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let text = match std::fs::read(&self.path) {
            Ok(text) => text,
            Err(err) => {
                if last.take().is_some() {
                    tracing::error!(path = %self.path.display(), error = %err,
                        "the API keys file cannot be read; the keys read before stay in force");
                }
                return;
            }
        };
        if last.as_deref() == Some(text.as_slice()) {
            return;
        }
        let previous = self.table();
        match KeyTable::parse(&text, operations, counter, &previous) {
            Ok(table) => {
                tracing::info!(path = %self.path.display(), keys = table.len(),
                    "API keys read again");
                if table.is_empty() {
                    tracing::warn!("the API keys file holds no key: every operation is refused");
                }
                *self.table.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(table);
            }
            Err(why) => tracing::error!(path = %self.path.display(), error = %why,
                "the API keys file does not parse; the keys read before stay in force"),
        }
        *last = Some(text);
    }
}

/// Reads the keys file again every [`RELOAD_EVERY`] on a thread of its own,
/// until `keys` is dropped (the server stopped). Reading the file by its path
/// each time follows Kubernetes' swap of a mounted Secret (the path is a
/// symbolic link replaced in one rename), which a watch on the file itself
/// would miss.
pub fn watch(keys: Weak<super::ApiKeys>) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("api-keys".to_owned())
        .spawn(move || {
            loop {
                std::thread::sleep(RELOAD_EVERY);
                let Some(keys) = keys.upgrade() else { return };
                keys.reload();
            }
        })
        .map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn operations() -> Operations {
        Operations::new(["analyze_hand", "audit_match"].map(str::to_owned).to_vec())
    }

    fn counter() -> IntCounterVec {
        IntCounterVec::new(prometheus::Opts::new("c", "c"), &["key", "outcome"]).expect("counter")
    }

    fn digest_of(key: &str) -> String {
        Sha256::digest(key.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    #[test]
    fn a_key_is_found_by_its_digest_and_nothing_else_is() {
        let file = format!(
            r#"[{{"id": "a", "sha256": "{}", "scopes": ["analyze_hand"]}},
                {{"id": "b", "sha256": "{}", "scopes": ["*", "sign"], "rate": 2.5}}]"#,
            digest_of("key-a"),
            digest_of("key-b").to_uppercase()
        );
        let table = KeyTable::parse(
            file.as_bytes(),
            &operations(),
            &counter(),
            &KeyTable::default(),
        )
        .expect("parses");
        let a = table.find(b"key-a").expect("a");
        assert_eq!(&*a.id, "a");
        assert!(a.may_call(0) && !a.may_call(1) && !a.sign);
        let b = table.find(b"key-b").expect("b");
        assert!(b.may_call(0) && b.may_call(1) && b.sign);
        assert_eq!(b.rate, Some(2.5));
        assert!(table.find(b"key-c").is_none());
        assert!(table.find(b"").is_none());
    }

    #[test]
    fn a_bad_entry_is_refused_with_its_reason() {
        let d = digest_of("k");
        for (file, why) in [
            (
                format!(r#"[{{"id": "a", "sha256": "{d}", "scopes": ["nope"]}}]"#),
                "unknown scope",
            ),
            (
                format!(r#"[{{"id": "a b", "sha256": "{d}", "scopes": []}}]"#),
                "id",
            ),
            (
                r#"[{"id": "a", "sha256": "00", "scopes": []}]"#.to_owned(),
                "64 hex",
            ),
            (
                format!(r#"[{{"id": "a", "sha256": "{d}", "scopes": [], "rate": 0}}]"#),
                "rate",
            ),
            (
                format!(r#"[{{"id": "a", "sha256": "{d}", "scopes": [], "concurrency": 0}}]"#),
                "concurrency",
            ),
            (
                format!(
                    r#"[{{"id": "a", "sha256": "{d}", "scopes": []}}, {{"id": "a", "sha256": "{}", "scopes": []}}]"#,
                    digest_of("j")
                ),
                "same id",
            ),
            (
                format!(
                    r#"[{{"id": "a", "sha256": "{d}", "scopes": []}}, {{"id": "b", "sha256": "{d}", "scopes": []}}]"#
                ),
                "same sha256",
            ),
            (
                format!(r#"[{{"id": "a", "sha256": "{d}", "scopes": [], "key": "k"}}]"#),
                "a field is missing, unknown or",
            ),
            ("{}".to_owned(), "is not an array"),
            ("[".to_owned(), "ends too early"),
            ("nope".to_owned(), "is not JSON"),
        ] {
            let error = KeyTable::parse(
                file.as_bytes(),
                &operations(),
                &counter(),
                &KeyTable::default(),
            )
            .expect_err(&file);
            assert!(error.contains(why), "{file}: {error}");
        }
    }

    #[test]
    fn the_bucket_holds_one_seconds_worth_and_refills_at_the_rate() {
        let start = Instant::now();
        let mut bucket = Bucket::default();
        for _ in 0..4 {
            assert!(bucket.take(4.0, start).is_ok());
        }
        let wait = bucket.take(4.0, start).expect_err("empty");
        assert!((wait.as_secs_f64() - 0.25).abs() < 1e-9, "{wait:?}");
        assert!(bucket.take(4.0, start + Duration::from_millis(250)).is_ok());
        assert!(
            bucket
                .take(4.0, start + Duration::from_millis(250))
                .is_err()
        );
        // Never more than a second's worth, however long it waited.
        let later = start + Duration::from_secs(60);
        for _ in 0..4 {
            assert!(bucket.take(4.0, later).is_ok());
        }
        assert!(bucket.take(4.0, later).is_err());
        // Below one per second, the bucket still holds one.
        let mut slow = Bucket::default();
        assert!(slow.take(0.5, start).is_ok());
        assert_eq!(slow.take(0.5, start), Err(Duration::from_secs(2)));
    }
}
