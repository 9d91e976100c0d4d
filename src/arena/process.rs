//! A process bot: started once per worker, serving its matches in turn.
//!
//! Its stdout is read by the worker itself, waiting with `poll(2)` for at
//! most what is left of `--move-timeout` before each read (no thread hands
//! the line over); its stderr by a thread that keeps the last
//! [`STDERR_TAIL`] bytes for a forfeit's record. A process that exits (or is killed after a timeout)
//! forfeits the match it was playing and is started again for the next one,
//! at most [`RESTARTS`] times; then its matches are forfeits. At the end its
//! stdin is closed, then SIGTERM after 2 s, SIGKILL after 2 more.

use std::collections::VecDeque;
use std::io::{Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};

use rustix::event::{PollFd, PollFlags, Timespec, poll};
use std::time::{Duration, Instant};

use super::turn::Fault;

/// Bytes of stderr kept for a forfeit's record.
pub const STDERR_TAIL: usize = 2048;
/// How many times an exited process is started again.
pub const RESTARTS: u32 = 3;
/// The grace after closing stdin, and again after SIGTERM.
const GRACE: Duration = Duration::from_secs(2);

struct Running {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
    /// What was read past the last line taken.
    pending: Vec<u8>,
}

/// How reading the next line ended, short of a line.
enum Unread {
    Timeout,
    Closed,
}

impl Running {
    /// The next line of stdout, within `timeout`.
    fn line(&mut self, timeout: Duration) -> Result<String, Unread> {
        let deadline = Instant::now() + timeout;
        let mut chunk = [0u8; 8192];
        loop {
            if let Some(end) = memchr::memchr(b'\n', &self.pending) {
                let line: Vec<u8> = self.pending.drain(..=end).collect();
                return Ok(String::from_utf8_lossy(&line).into_owned());
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(Unread::Timeout);
            }
            let wait = Timespec {
                tv_sec: left.as_secs() as i64,
                tv_nsec: i64::from(left.subsec_nanos()),
            };
            let mut fds = [PollFd::new(&self.stdout, PollFlags::IN)];
            match poll(&mut fds, Some(&wait)) {
                Ok(0) => return Err(Unread::Timeout),
                Ok(_) => {}
                Err(rustix::io::Errno::INTR) => continue,
                Err(_) => return Err(Unread::Closed),
            }
            match self.stdout.read(&mut chunk) {
                Ok(0) | Err(_) => return Err(Unread::Closed),
                Ok(n) => self.pending.extend(chunk.iter().take(n)),
            }
        }
    }
}

/// A process bot (see the module docs).
pub struct Process {
    words: Vec<String>,
    timeout: Duration,
    running: Option<Running>,
    starts: u32,
    stderr: Arc<Mutex<VecDeque<u8>>>,
}

impl Process {
    pub fn new(words: Vec<String>, timeout: Duration) -> Process {
        Process {
            words,
            timeout,
            running: None,
            starts: 0,
            stderr: Arc::new(Mutex::new(VecDeque::new())),
        }
    }

    /// Starts the process unless it runs; past its restarts, a fault.
    pub fn ensure_running(&mut self) -> Result<(), Fault> {
        if let Some(running) = &mut self.running {
            match running.child.try_wait() {
                Ok(None) => return Ok(()),
                _ => self.running = None,
            }
        }
        if self.starts > RESTARTS {
            return Err(Fault::Exited(format!(
                "exited and was started again {RESTARTS} times"
            )));
        }
        self.starts += 1;
        self.running = Some(self.spawn()?);
        Ok(())
    }

    fn spawn(&mut self) -> Result<Running, Fault> {
        let (program, args) = self
            .words
            .split_first()
            .ok_or_else(|| Fault::Exited("no program".into()))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| Fault::Exited(format!("cannot start {program}: {e}")))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| Fault::Exited("no stdout".into()))?;
        let stderr = child.stderr.take();
        if let Some(mut stderr) = stderr {
            let tail = Arc::clone(&self.stderr);
            std::thread::spawn(move || {
                let mut buffer = [0u8; 1024];
                while let Ok(n) = stderr.read(&mut buffer) {
                    if n == 0 {
                        break;
                    }
                    if let Ok(mut tail) = tail.lock() {
                        tail.extend(buffer.iter().take(n));
                        while tail.len() > STDERR_TAIL {
                            tail.pop_front();
                        }
                    }
                }
            });
        }
        Ok(Running {
            stdin: child.stdin.take(),
            child,
            stdout,
            pending: Vec::new(),
        })
    }

    /// Sends one line and waits for the answer.
    pub fn ask(&mut self, line: &str) -> Result<String, Fault> {
        let Some(running) = &mut self.running else {
            return Err(Fault::Exited("not running".into()));
        };
        let sent = running.stdin.as_mut().map(|stdin| {
            stdin
                .write_all(line.as_bytes())
                .and_then(|()| stdin.flush())
        });
        if !matches!(sent, Some(Ok(()))) {
            let why = self.exit_status();
            return Err(Fault::Exited(why));
        }
        match running.line(self.timeout) {
            Ok(answer) => Ok(answer),
            Err(Unread::Timeout) => {
                // Killed: it counts as a process that exited.
                let _ = running.child.kill();
                let _ = running.child.wait();
                self.running = None;
                Err(Fault::Timeout)
            }
            Err(Unread::Closed) => Err(Fault::Exited(self.exit_status())),
        }
    }

    /// How the process ended (waiting briefly for its status).
    fn exit_status(&mut self) -> String {
        let Some(mut running) = self.running.take() else {
            return "not running".into();
        };
        let deadline = Instant::now() + Duration::from_millis(500);
        loop {
            match running.child.try_wait() {
                Ok(Some(status)) => return format!("exited with {status}"),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                _ => {
                    let _ = running.child.kill();
                    let _ = running.child.wait();
                    return "closed its stdout".into();
                }
            }
        }
    }

    /// The last bytes the process wrote on stderr.
    pub fn stderr_tail(&self) -> String {
        self.stderr
            .lock()
            .map(|tail| {
                String::from_utf8_lossy(&tail.iter().copied().collect::<Vec<u8>>()).into_owned()
            })
            .unwrap_or_default()
    }

    /// Closes stdin; SIGTERM after 2 s; SIGKILL after 2 more.
    pub fn stop(&mut self) {
        let Some(mut running) = self.running.take() else {
            return;
        };
        drop(running.stdin.take());
        if wait_for(&mut running.child, GRACE) {
            return;
        }
        if let Some(pid) = rustix::process::Pid::from_raw(running.child.id() as i32) {
            let _ = rustix::process::kill_process(pid, rustix::process::Signal::TERM);
        }
        if wait_for(&mut running.child, GRACE) {
            return;
        }
        let _ = running.child.kill();
        let _ = running.child.wait();
    }
}

/// Whether the child exits within `grace`.
fn wait_for(child: &mut Child, grace: Duration) -> bool {
    let deadline = Instant::now() + grace;
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    false
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Some(mut running) = self.running.take() {
            let _ = running.child.kill();
            let _ = running.child.wait();
        }
    }
}
