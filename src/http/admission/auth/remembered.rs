//! Each worker thread remembers the last key it admitted, so that a client
//! calling again and again with the same key (the usual case: one app, one
//! key, a keep-alive connection) is found without hashing its key again. The
//! SHA-256 of the key is most of the admission's cost (BENCHMARKS.md, "API
//! keys (issue 34): the admission's cost").
//!
//! Why this keeps the guarantees of [`KeyTable::find`]:
//!
//! - **Nothing about a key leaks through time.** The presented bytes are
//!   compared with the remembered ones in constant time, padded to
//!   [`LONGEST`] bytes with the lengths compared the same way: a guess that
//!   shares a prefix with the remembered key, or its length, takes as long as
//!   any other. Only the exact key is found this way, and whoever sends it
//!   already holds it.
//! - **An unknown key costs what a known one does.** A key that is not the
//!   remembered one (every unknown key, and a known key other than the last)
//!   goes the whole way: its digest, compared with every digest of the table.
//!   Unknown keys are never remembered, so sending them changes nothing here.
//! - **A removed key stops at once.** The entry holds the table it was found
//!   in; once the keys file is read again the table in force is another one
//!   (a new `Arc`), and the entry no longer matches: the key is looked up in
//!   the new table, by its digest. The entry keeps its table alive, so the
//!   pointer cannot be reused by a later table.
//! - **The key goes nowhere else.** The copy lives only in this thread's
//!   entry (no `Debug`, no log, no metric) and is overwritten with zeros
//!   when replaced or when the thread ends; so is the padded copy each
//!   request makes to compare. This is a best effort, not a guarantee: a
//!   move may leave bytes on the stack until they are overwritten, and the
//!   request's own buffers hold the key as sent anyway, for as long as
//!   actix keeps them.
//!
//! A key longer than [`LONGEST`] bytes is not remembered: it is found by its
//! digest on every request. Keys made by `gin-referee keys new` are 43 bytes.

use std::cell::RefCell;
use std::sync::Arc;

use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

use super::table::{ApiKey, KeyTable};

/// The longest key remembered, in bytes.
pub const LONGEST: usize = 64;

/// A key's bytes, zero-padded to [`LONGEST`], as words to compare.
type Padded = Zeroizing<[u64; LONGEST / 8]>;

/// The last key this thread admitted: its bytes, the table it was found in,
/// and its entry there.
struct Remembered {
    bytes: Padded,
    len: u64,
    table: Arc<KeyTable>,
    key: Arc<ApiKey>,
}

thread_local! {
    static LAST: RefCell<Option<Remembered>> = const { RefCell::new(None) };
}

/// The entry of `table` whose digest is the SHA-256 of `presented`, as
/// [`KeyTable::find`] answers, without hashing when `presented` is the key
/// this thread admitted last from the same table.
pub fn find(table: &Arc<KeyTable>, presented: &[u8]) -> Option<Arc<ApiKey>> {
    let padded = pad(presented);
    if let Some(padded) = &padded {
        let len = presented.len() as u64;
        let hit = LAST.with_borrow(|last| {
            let last = last.as_ref()?;
            let same = last.bytes.as_slice().ct_eq(padded.as_slice()) & last.len.ct_eq(&len);
            (Arc::ptr_eq(&last.table, table) && bool::from(same)).then(|| last.key.clone())
        });
        if hit.is_some() {
            return hit;
        }
    }
    let key = table.find(presented)?.clone();
    if let Some(bytes) = padded {
        let remembered = Remembered {
            bytes,
            len: presented.len() as u64,
            table: table.clone(),
            key: key.clone(),
        };
        LAST.set(Some(remembered));
    }
    Some(key)
}

/// `presented` zero-padded to [`LONGEST`] bytes and read as words, if it
/// fits (built in place, without a byte buffer between).
fn pad(presented: &[u8]) -> Option<Padded> {
    if presented.len() > LONGEST {
        return None;
    }
    let mut words = Zeroizing::new([0u64; LONGEST / 8]);
    for (word, chunk) in words.iter_mut().zip(presented.chunks(8)) {
        *word = chunk
            .iter()
            .rev()
            .fold(0u64, |word, &byte| (word << 8) | u64::from(byte));
    }
    Some(words)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::admission::auth::Operations;
    use sha2::{Digest, Sha256};

    /// A table of `keys`, each with the id `key-<n>`.
    fn table_of(keys: &[&[u8]]) -> Arc<KeyTable> {
        let entries: Vec<serde_json::Value> = (0..)
            .zip(keys)
            .map(|(n, key)| {
                let digest: String = Sha256::digest(key)
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect();
                serde_json::json!({"id": format!("key-{n}"), "sha256": digest, "scopes": ["*"]})
            })
            .collect();
        let counter =
            prometheus::IntCounterVec::new(prometheus::Opts::new("c", "c"), &["key", "outcome"])
                .expect("counter");
        let operations = Operations::new(vec!["analyze_hand".to_owned()]);
        let text = serde_json::to_vec(&entries).expect("json");
        Arc::new(
            KeyTable::parse(&text, &operations, &counter, &KeyTable::default()).expect("parses"),
        )
    }

    fn id(key: Option<Arc<ApiKey>>) -> Option<String> {
        key.map(|key| key.id.to_string())
    }

    fn remembered_id() -> Option<String> {
        LAST.with_borrow(|last| last.as_ref().map(|last| last.key.id.to_string()))
    }

    #[test]
    fn the_same_key_again_is_the_same_entry() {
        let table = table_of(&[b"first key", b"second key"]);
        let first = find(&table, b"first key").expect("known");
        assert_eq!(remembered_id().as_deref(), Some("key-0"));
        let again = find(&table, b"first key").expect("known");
        assert!(Arc::ptr_eq(&first, &again));
        assert_eq!(id(find(&table, b"second key")).as_deref(), Some("key-1"));
        assert_eq!(remembered_id().as_deref(), Some("key-1"));
        assert_eq!(id(find(&table, b"first key")).as_deref(), Some("key-0"));
    }

    #[test]
    fn an_unknown_key_is_refused_and_not_remembered() {
        let table = table_of(&[b"the key"]);
        assert!(find(&table, b"the kez").is_none());
        assert_eq!(remembered_id(), None);
        find(&table, b"the key").expect("known");
        for unknown in [&b"the ke"[..], b"the key ", b"the key\0", b"", b"THE KEY"] {
            assert!(find(&table, unknown).is_none(), "{unknown:?}");
            // The remembered key stays the known one.
            assert_eq!(remembered_id().as_deref(), Some("key-0"));
        }
    }

    #[test]
    fn a_key_padded_with_zeros_is_not_the_key() {
        // Both pad to the same words: only the lengths tell them apart.
        let table = table_of(&[b"abc"]);
        find(&table, b"abc").expect("known");
        assert!(find(&table, b"abc\0").is_none());
        assert!(find(&table, b"abc\0\0\0\0\0").is_none());
        let table = table_of(&[b"abc\0"]);
        find(&table, b"abc\0").expect("known");
        assert!(find(&table, b"abc").is_none());
    }

    #[test]
    fn a_key_removed_from_the_file_stops_though_remembered() {
        let before = table_of(&[b"old key", b"kept key"]);
        find(&before, b"old key").expect("known");
        let after = table_of(&[b"kept key"]);
        assert!(find(&after, b"old key").is_none());
        // Kept, it is the new table's entry (its limits, its counters).
        let old = find(&before, b"kept key").expect("known");
        let new = find(&after, b"kept key").expect("known");
        assert!(!Arc::ptr_eq(&old, &new));
        assert!(
            after
                .find(b"kept key")
                .is_some_and(|entry| Arc::ptr_eq(entry, &new))
        );
    }

    #[test]
    fn a_long_key_is_found_but_not_remembered() {
        let long = [b'k'; LONGEST + 1];
        let longest = [b'k'; LONGEST];
        let table = table_of(&[&long, &longest]);
        assert_eq!(id(find(&table, &long)).as_deref(), Some("key-0"));
        assert_eq!(remembered_id(), None);
        assert_eq!(id(find(&table, &longest)).as_deref(), Some("key-1"));
        assert_eq!(remembered_id().as_deref(), Some("key-1"));
        assert_eq!(id(find(&table, &long)).as_deref(), Some("key-0"));
        assert_eq!(id(find(&table, &longest)).as_deref(), Some("key-1"));
    }
}
