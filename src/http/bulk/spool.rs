//! Answers held for clients that send a whole batch before they read.
//!
//! Some HTTP libraries (Python's `urllib` and `requests` among them) send the
//! whole body before they read a byte of the answer. A batch answered only as
//! fast as its answers are read would then stop reading the body once the
//! socket buffers fill, the client would never get to read, and the stall
//! guard would cut it off. So a batch's answers are produced by a task of
//! their own, which reads the body as it arrives whatever the client reads,
//! and the answers wait here until they are read:
//!
//! 1. in memory, up to [`MEMORY_BOUND`] bytes per batch;
//! 2. then in a spool file: a temporary file in `--batch-spool-dir` (default
//!    the system temp dir), created only when a batch first needs one and
//!    unlinked as it is created (`O_TMPFILE` on Linux: it never has a name),
//!    so nothing is left on disk after a crash, a kill or a client that goes
//!    away: the kernel frees the blocks when the last descriptor closes;
//! 3. past `--batch-spool-limit` bytes of spool file for this batch, or
//!    `--batch-spool-total-limit` bytes for the whole process, the task stops
//!    reading the body until the client reads (back-pressure, as a batch
//!    without a spool did; the stall guard then cuts a client that neither
//!    sends nor reads).
//!
//! Answers leave in the order they were written: memory holds only answers
//! older than any in the file (a chunk goes to memory only while the file has
//! nothing unread), so the reader takes memory first, then the file. A file
//! read to its end is truncated, which frees its blocks; the limits count the
//! file's size on disk, not its unread part, so they bound the disk used.
//!
//! A spool file that cannot be created, written or read back (a full disk,
//! an I/O error) ends the answer with a last line `{"problem": ...}` of code
//! `spool_failed` after every answer still held: the status (200) is long
//! sent by then, so never a 5xx mid-stream, and never a hang. The task then
//! stops reading the body.
//!
//! # Memory, per batch
//!
//! [`MEMORY_BOUND`] (256 KiB) of answers in memory, plus one chunk of answers
//! waiting for room (about 32 KiB and one answer), plus one read-back buffer
//! of 128 KiB in flight to the socket: under half a MiB ([`MEMORY_HELD`]) on
//! top of what the line reader holds (`ndjson`'s module docs), whatever the
//! body. The batch reserves both in the memory budget before it reads a byte
//! ([`crate::http::admission::budget`]), and holds them until its answer is gone.
//! The file's pages live in the page cache, which the kernel reclaims.
//!
//! # Cost
//!
//! The file is written and read with plain blocking calls on the worker
//! thread: writes of about 32 KiB go to the page cache (microseconds), not to
//! the disk, and a batch whose client reads as it sends never touches the
//! file at all. The full-duplex path pays a queue push and pop and a task
//! wake-up per chunk of about 170 answers (BENCHMARKS.md, issue 26).

use std::cell::RefCell;
use std::collections::VecDeque;
use std::fs::File;
use std::future::Future;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll, Waker};

use actix_web::web::{self, Bytes};
use clap::Args;
use futures_core::Stream;
use prometheus::{IntCounter, IntGauge, Opts};

use crate::http::admission::budget::Reservation;
use crate::http::problem::{ErrorCode, Problem};
use crate::monitoring::metrics::Metrics;

/// Answers held in memory per batch before the spool file is used.
pub const MEMORY_BOUND: usize = 256 * 1024;
/// Bytes read back from a spool file at a time.
const READ_BACK: usize = 128 * 1024;
/// The most a batch's answers hold in memory here: [`MEMORY_BOUND`], a chunk
/// waiting for room (32 KiB and one answer) and one read-back buffer.
pub const MEMORY_HELD: usize = MEMORY_BOUND + 32 * 1024 + 4096 + READ_BACK;
/// Chunks the producing task answers before it lets the worker's other
/// connections run.
const CHUNKS_PER_TURN: usize = 16;
/// The largest accepted spool limit, per batch or in all (1 TiB).
pub const MAX_SPOOL_LIMIT: u64 = 1 << 40;
/// `--batch-spool-limit`'s default: 1 GiB, the answers to about 5 million
/// ten-card analyses.
pub const DEFAULT_REQUEST_LIMIT: u64 = 1 << 30;
/// `--batch-spool-total-limit`'s default: 4 GiB for all batches of the process.
pub const DEFAULT_TOTAL_LIMIT: u64 = 4 << 30;

/// Where and how much a batch's unread answers may be spooled (flags).
#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct SpoolSettings {
    /// Directory of the spool files that hold the answers a batch's client has
    /// not read yet; each is unlinked as it is created [default: the system
    /// temp dir, $TMPDIR or /tmp].
    #[arg(
        long = "batch-spool-dir",
        env = "GIN_REFEREE_BATCH_SPOOL_DIR",
        value_name = "DIR"
    )]
    pub dir: Option<PathBuf>,
    /// Most bytes of spool file one batch may use; past it the batch stops
    /// reading its body until its client reads (0 to 1099511627776; 0: no
    /// spool file, only back-pressure).
    #[arg(long = "batch-spool-limit", env = "GIN_REFEREE_BATCH_SPOOL_LIMIT",
          value_name = "BYTES", default_value_t = DEFAULT_REQUEST_LIMIT,
          value_parser = clap::value_parser!(u64).range(0..=MAX_SPOOL_LIMIT))]
    pub request_limit: u64,
    /// Most bytes of spool files all batches of the process may use together
    /// (keep it under the volume's size; 0 to 1099511627776).
    #[arg(long = "batch-spool-total-limit", env = "GIN_REFEREE_BATCH_SPOOL_TOTAL_LIMIT",
          value_name = "BYTES", default_value_t = DEFAULT_TOTAL_LIMIT,
          value_parser = clap::value_parser!(u64).range(0..=MAX_SPOOL_LIMIT))]
    pub total_limit: u64,
}

impl Default for SpoolSettings {
    fn default() -> Self {
        SpoolSettings {
            dir: None,
            request_limit: DEFAULT_REQUEST_LIMIT,
            total_limit: DEFAULT_TOTAL_LIMIT,
        }
    }
}

impl SpoolSettings {
    /// The spool directory: the flag, or the system temp dir.
    pub fn dir(&self) -> PathBuf {
        self.dir.clone().unwrap_or_else(std::env::temp_dir)
    }
}

/// The process's spool: its settings, the bytes all its files hold, and the
/// metrics of both. Shared by every worker (app data).
#[derive(Debug)]
pub struct Spool {
    dir: PathBuf,
    request_limit: u64,
    total_limit: u64,
    /// Bytes of spool file on disk now, all batches together.
    held: AtomicU64,
    held_gauge: IntGauge,
    written: IntCounter,
}

impl Spool {
    /// The spool of a server, its metrics registered with the server's.
    /// Checks at once that a spool file can be made in the directory (when
    /// the limits allow any), so that a misconfigured directory stops the
    /// start rather than the first large batch.
    pub fn new(settings: &SpoolSettings, metrics: &Metrics) -> Result<Spool, SpoolError> {
        let held_gauge = IntGauge::with_opts(Opts::new(
            "batch_spool_bytes",
            "Bytes of spool files on disk now: answers of bulk requests held for clients that send their whole body before they read.",
        ))?;
        let written = IntCounter::with_opts(Opts::new(
            "batch_spooled_bytes_total",
            "Bytes of answers of bulk requests written to spool files.",
        ))?;
        metrics.register(Box::new(held_gauge.clone()))?;
        metrics.register(Box::new(written.clone()))?;
        let spool = Spool {
            dir: settings.dir(),
            request_limit: settings.request_limit,
            total_limit: settings.total_limit,
            held: AtomicU64::new(0),
            held_gauge,
            written,
        };
        if spool.enabled() {
            let dir = spool.dir.clone();
            spool
                .create_file()
                .map_err(|source| SpoolError::Dir { dir, source })?;
        }
        Ok(spool)
    }

    /// Whether spool files may be used at all.
    fn enabled(&self) -> bool {
        self.request_limit > 0 && self.total_limit > 0
    }

    /// A new spool file, unlinked already.
    fn create_file(&self) -> std::io::Result<File> {
        tempfile::tempfile_in(&self.dir)
    }

    /// The spool directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Bytes of spool file on disk now, all batches together.
    pub fn held(&self) -> u64 {
        self.held.load(Ordering::Relaxed)
    }

    /// Takes `bytes` of the process-wide limit, if they fit.
    fn reserve(&self, bytes: u64) -> bool {
        let taken = self
            .held
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |held| {
                held.checked_add(bytes)
                    .filter(|&sum| sum <= self.total_limit)
            });
        match taken {
            Ok(before) => {
                self.held_gauge.set(gauge_value(before + bytes));
                self.written.inc_by(bytes);
                true
            }
            Err(_) => false,
        }
    }

    /// Gives back `bytes` of the process-wide limit.
    fn release(&self, bytes: u64) {
        if bytes == 0 {
            return;
        }
        let before = self
            .held
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |held| {
                Some(held.saturating_sub(bytes))
            })
            .unwrap_or_default();
        self.held_gauge
            .set(gauge_value(before.saturating_sub(bytes)));
    }
}

fn gauge_value(bytes: u64) -> i64 {
    i64::try_from(bytes).unwrap_or(i64::MAX)
}

/// Why the spool could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum SpoolError {
    #[error("cannot register the spool's metrics: {0}")]
    Metrics(#[from] prometheus::Error),
    #[error("cannot make spool files in {dir} (--batch-spool-dir): {source}")]
    Dir {
        dir: PathBuf,
        source: std::io::Error,
    },
}

/// The answers of one batch, read from wherever they wait. `answers` is the
/// batch's answer stream (it reads the body as it is polled); it is polled by
/// a task of its own from now on. Without a spool (a server built without
/// one) the answers still wait in memory up to [`MEMORY_BOUND`].
pub fn spooled<S, E>(
    answers: S,
    spool: Option<web::Data<Spool>>,
    memory: Option<Reservation>,
) -> Spooled
where
    S: Stream<Item = Result<Bytes, E>> + Unpin + 'static,
{
    let mut state = State::new(spool);
    state.memory_reserved = memory;
    let state = Rc::new(RefCell::new(state));
    actix_web::rt::spawn(Producer {
        answers,
        state: state.clone(),
        waiting: None,
    });
    Spooled { state }
}

/// What the producing task and the answer body share.
struct State {
    spool: Option<web::Data<Spool>>,
    /// The oldest answers, in memory.
    memory: VecDeque<Bytes>,
    memory_bytes: usize,
    /// The spool file, once one was needed; answers at `read_at..write_at`.
    file: Option<File>,
    read_at: u64,
    write_at: u64,
    /// A chunk that could not be spooled (the write failed): it follows the
    /// file's answers.
    after_file: Option<Bytes>,
    /// The last line, once the spool failed.
    failure: Option<Bytes>,
    /// The producer has ended (no more answers).
    finished: bool,
    /// The answer body is gone (the client left, or the answer ended).
    reader_gone: bool,
    /// The producer waits for room (woken when the client reads).
    wants_room: bool,
    producer: Option<Waker>,
    reader: Option<Waker>,
    /// The batch's share of the memory budget ([`MEMORY_HELD`] and the line
    /// reader's), given back when both the producer and the answer are gone.
    memory_reserved: Option<Reservation>,
}

/// Where a chunk of answers went.
enum Placed {
    Held,
    /// No room: the chunk comes back, to be placed once the client reads.
    NoRoom(Bytes),
    Failed,
}

impl State {
    fn new(spool: Option<web::Data<Spool>>) -> Self {
        State {
            spool,
            memory: VecDeque::new(),
            memory_bytes: 0,
            file: None,
            read_at: 0,
            write_at: 0,
            after_file: None,
            failure: None,
            finished: false,
            reader_gone: false,
            wants_room: false,
            producer: None,
            reader: None,
            memory_reserved: None,
        }
    }

    fn file_unread(&self) -> u64 {
        self.write_at - self.read_at
    }

    /// Holds a chunk: in memory while it fits and the file has nothing
    /// unread (see the module docs on order), else at the end of the file.
    fn place(&mut self, chunk: Bytes) -> Placed {
        let fits = self.memory_bytes + chunk.len() <= MEMORY_BOUND || self.memory.is_empty();
        if self.file_unread() == 0 && fits {
            self.memory_bytes += chunk.len();
            self.memory.push_back(chunk);
            return Placed::Held;
        }
        let Some(spool) = self.spool.clone().filter(|spool| spool.enabled()) else {
            return Placed::NoRoom(chunk);
        };
        let len = chunk.len() as u64;
        if self.write_at + len > spool.request_limit || !spool.reserve(len) {
            return Placed::NoRoom(chunk);
        }
        let written = match &self.file {
            Some(file) => file.write_all_at(&chunk, self.write_at),
            None => spool.create_file().and_then(|file| {
                let written = file.write_all_at(&chunk, self.write_at);
                self.file = Some(file);
                written
            }),
        };
        match written {
            Ok(()) => {
                self.write_at += len;
                Placed::Held
            }
            Err(error) => {
                spool.release(len);
                self.after_file = Some(chunk);
                self.fail(&error);
                Placed::Failed
            }
        }
    }

    /// Ends the answer after what is held, with a last `spool_failed` line.
    fn fail(&mut self, error: &std::io::Error) {
        tracing::warn!(%error, "a batch's spool file failed; its answer ends early");
        let problem = failure(error);
        let mut line = b"{\"problem\":".to_vec();
        let _ = serde_json::to_writer(&mut line, &problem.to_document());
        line.extend_from_slice(b"}\n");
        self.failure = Some(Bytes::from(line));
        self.finished = true;
        // The producer stops, and with it the reading of the body.
        self.wake_producer(true);
    }

    /// The oldest answers held, if any.
    fn take(&mut self) -> Option<Bytes> {
        if let Some(chunk) = self.memory.pop_front() {
            self.memory_bytes -= chunk.len();
            return Some(chunk);
        }
        if self.file_unread() > 0 {
            return self.read_back();
        }
        self.after_file.take()
    }

    /// The next answers from the file; the file truncated once read to its end.
    fn read_back(&mut self) -> Option<Bytes> {
        let file = self.file.as_ref()?;
        let want = usize::try_from(self.file_unread()).map_or(READ_BACK, |n| n.min(READ_BACK));
        let mut buffer = vec![0; want];
        match file.read_exact_at(&mut buffer, self.read_at) {
            Ok(()) => {
                self.read_at += want as u64;
                if self.read_at == self.write_at {
                    self.empty_file();
                }
                Some(Bytes::from(buffer))
            }
            Err(error) => {
                // What the file held is lost: say so rather than skip it.
                self.read_at = self.write_at;
                self.empty_file();
                self.after_file = None;
                self.fail(&error);
                None
            }
        }
    }

    /// Frees the file's blocks (its answers are all read) and its share of
    /// the limits. A failure to truncate leaves the file as large as it was,
    /// still counted, and the next answers are written after it.
    fn empty_file(&mut self) {
        let (Some(file), Some(spool)) = (&self.file, &self.spool) else {
            return;
        };
        if file.set_len(0).is_ok() {
            spool.release(self.write_at);
            self.read_at = 0;
            self.write_at = 0;
        }
    }

    /// Wakes the producer if it waits for room, or `always`.
    fn wake_producer(&mut self, always: bool) {
        if !(always || self.wants_room) {
            return;
        }
        self.wants_room = false;
        if let Some(waker) = self.producer.take() {
            waker.wake();
        }
    }

    fn wake_reader(&mut self) {
        if let Some(waker) = self.reader.take() {
            waker.wake();
        }
    }
}

impl Drop for State {
    fn drop(&mut self) {
        // The file itself is freed by the kernel when it is closed.
        if let Some(spool) = &self.spool {
            spool.release(self.write_at);
        }
    }
}

/// The task that answers a batch whatever its client reads.
struct Producer<S> {
    answers: S,
    state: Rc<RefCell<State>>,
    /// A chunk waiting for room.
    waiting: Option<Bytes>,
}

impl<S, E> Future for Producer<S>
where
    S: Stream<Item = Result<Bytes, E>> + Unpin,
{
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let this = self.get_mut();
        for _ in 0..CHUNKS_PER_TURN {
            let mut state = this.state.borrow_mut();
            if state.reader_gone || state.finished {
                // Dropping the answer stream drops the body's reader.
                return Poll::Ready(());
            }
            if let Some(chunk) = this.waiting.take() {
                match state.place(chunk) {
                    Placed::Held => state.wake_reader(),
                    Placed::NoRoom(chunk) => {
                        this.waiting = Some(chunk);
                        state.wants_room = true;
                        state.producer = Some(cx.waker().clone());
                        return Poll::Pending;
                    }
                    Placed::Failed => {
                        state.wake_reader();
                        return Poll::Ready(());
                    }
                }
            }
            drop(state);
            match Pin::new(&mut this.answers).poll_next(cx) {
                Poll::Ready(Some(Ok(chunk))) => this.waiting = Some(chunk),
                // An error after answers started is written as a last line
                // by the answer stream itself; this one ends the answer.
                Poll::Ready(Some(Err(_)) | None) => {
                    let mut state = this.state.borrow_mut();
                    state.finished = true;
                    state.wake_reader();
                    return Poll::Ready(());
                }
                Poll::Pending => {
                    // Woken by the body's reader, or by the client going away.
                    this.state.borrow_mut().producer = Some(cx.waker().clone());
                    return Poll::Pending;
                }
            }
        }
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

/// The answer body of a batch: its answers, from memory or the spool file.
pub struct Spooled {
    state: Rc<RefCell<State>>,
}

impl Stream for Spooled {
    type Item = Result<Bytes, std::convert::Infallible>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let mut state = self.state.borrow_mut();
        if let Some(chunk) = state.take() {
            state.wake_producer(false);
            return Poll::Ready(Some(Ok(chunk)));
        }
        if let Some(line) = state.failure.take() {
            return Poll::Ready(Some(Ok(line)));
        }
        if state.finished {
            return Poll::Ready(None);
        }
        state.reader = Some(cx.waker().clone());
        Poll::Pending
    }
}

impl Drop for Spooled {
    fn drop(&mut self) {
        let mut state = self.state.borrow_mut();
        state.reader_gone = true;
        state.wake_producer(true);
    }
}

/// The last line's problem when the spool failed with `error`.
pub fn failure(error: &dyn std::fmt::Display) -> Problem {
    Problem::new(
        ErrorCode::SpoolFailed,
        format!(
            "the server could not hold the answers not yet read (--batch-spool-dir): {error}; \
             the lines after the last one answered were not read"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spool(request_limit: u64, total_limit: u64) -> web::Data<Spool> {
        let metrics = Metrics::new().expect("metrics");
        let settings = SpoolSettings {
            dir: None,
            request_limit,
            total_limit,
        };
        web::Data::new(Spool::new(&settings, &metrics).expect("a spool in the temp dir"))
    }

    /// A chunk of `len` bytes, all `tag`.
    fn chunk(tag: u8, len: usize) -> Bytes {
        Bytes::from(vec![tag; len])
    }

    fn held(placed: Placed) -> bool {
        matches!(placed, Placed::Held)
    }

    #[test]
    fn answers_leave_in_the_order_they_came_through_memory_and_file() {
        let spool = spool(1 << 30, 1 << 30);
        let mut state = State::new(Some(spool.clone()));
        let mut sent = Vec::new();
        let mut received = Vec::new();
        let mut tag = 0u8;
        // Uneven rounds of writes and reads, so that chunks go to memory, to
        // the file, and to memory again once the file is read to its end.
        for (writes, reads) in [(5, 1), (3, 0), (1, 6), (4, 4), (2, 9), (7, 2), (0, 20)] {
            for _ in 0..writes {
                tag = tag.wrapping_add(1);
                assert!(held(state.place(chunk(tag, 100 * 1024))));
                sent.extend(std::iter::repeat_n(tag, 100 * 1024));
            }
            for _ in 0..reads {
                if let Some(bytes) = state.take() {
                    received.extend_from_slice(&bytes);
                }
            }
        }
        while let Some(bytes) = state.take() {
            received.extend_from_slice(&bytes);
        }
        assert!(received == sent, "answers came back out of order");
        assert_eq!(spool.held(), 0, "a file read to its end is emptied");
        assert!(state.file.is_some(), "the file was used");
    }

    #[test]
    fn a_full_spool_says_no_room_and_hands_the_chunk_back() {
        let spool = spool(300 * 1024, 1 << 30);
        let mut state = State::new(Some(spool.clone()));
        // 256 KiB in memory, then 300 KiB of file: the fourth 100 KiB chunk
        // of file does not fit.
        for tag in 0..2 {
            assert!(held(state.place(chunk(tag, 128 * 1024))));
        }
        for tag in 2..5 {
            assert!(held(state.place(chunk(tag, 100 * 1024))));
        }
        assert_eq!(spool.held(), 300 * 1024);
        let Placed::NoRoom(back) = state.place(chunk(9, 100 * 1024)) else {
            panic!("placed past the limit");
        };
        assert_eq!(back.len(), 100 * 1024);
        // The process-wide limit counts every batch's files.
        let total = self::spool(1 << 30, 150 * 1024);
        let (mut first, mut second) = (
            State::new(Some(total.clone())),
            State::new(Some(total.clone())),
        );
        for state in [&mut first, &mut second] {
            assert!(held(state.place(chunk(0, MEMORY_BOUND))));
        }
        assert!(held(first.place(chunk(1, 100 * 1024))));
        assert!(matches!(
            second.place(chunk(1, 100 * 1024)),
            Placed::NoRoom(_)
        ));
        drop(first);
        assert_eq!(total.held(), 0, "a batch gives its share back when it ends");
        assert!(held(second.place(chunk(1, 100 * 1024))));
    }

    #[test]
    fn without_a_spool_file_memory_is_the_only_room() {
        let spool = spool(0, 1 << 30);
        let mut state = State::new(Some(spool));
        assert!(held(state.place(chunk(0, MEMORY_BOUND))));
        assert!(matches!(state.place(chunk(1, 1)), Placed::NoRoom(_)));
        // One chunk larger than the bound still fits an empty memory.
        let mut state = State::new(None);
        assert!(held(state.place(chunk(0, 2 * MEMORY_BOUND))));
    }
}
