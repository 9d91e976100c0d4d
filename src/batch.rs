//! `gin-referee batch <operation>`: the bulk endpoints' line format on stdin
//! and stdout, for offline jobs, on every core.
//!
//! Each line is answered by an [`AnswerLine`], the command line's operation,
//! which calls [`answer_line`] with the same function the endpoint
//! calls (`hands::analysis`, `hands::scored`, ...), so a file gives the same
//! answers offline as over HTTP; this engine knows no route. Lines are read in
//! blocks; each block is cut into one slice per thread, answered in parallel, and written in
//! order, so the output keeps the input's order. Memory is one block of input
//! and its answers. A line over `--batch-max-line-bytes` ends the run with a
//! last `{"problem": ...}` line and exit code 1, as the endpoint ends a batch.
//! With stderr on a terminal, a progress line shows the lines answered and the
//! rate.

use gin_contract::error_codes::ErrorCode;
use std::io::{BufRead, IsTerminal, Write};
use std::time::Instant;

use crate::http::admission::limits::BatchLimits;
use crate::http::bulk::ndjson::{LineAnswer, Tally, answer_line};
use crate::http::problem::Problem;

/// How a run answers one line: the operation the command line names
/// (`gin-referee batch <operation>`), with what it needs besides the line.
pub trait AnswerLine: Sync {
    /// Answers line number `line` into `answers`, as the endpoint would (by
    /// [`Answers::answer`]).
    fn answer_line(&self, line: u64, bytes: &[u8], answers: &mut Answers);
}

/// One thread's answers to its slice of a block, with its scratch buffer.
#[derive(Default)]
pub struct Answers {
    scratch: Vec<u8>,
    out: Vec<u8>,
    tally: Tally,
}

impl Answers {
    /// Answers line number `line` by `answer`, as the endpoint does (see
    /// [`answer_line`]).
    pub fn answer<A: LineAnswer + ?Sized>(&mut self, answer: &A, line: u64, bytes: &[u8]) {
        answer_line(
            answer,
            line,
            bytes,
            &mut self.scratch,
            &mut self.out,
            &mut self.tally,
        );
    }
}

/// Lines read before a block is answered: enough to keep every thread busy,
/// few enough that a block's input and answers stay a few MB.
const BLOCK_LINES: usize = 16 * 1024;

/// Why a run stopped early.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    #[error("cannot read the input: {0}")]
    Read(std::io::Error),
    #[error("cannot write the answers: {0}")]
    Write(std::io::Error),
    #[error("line {line} is longer than {limit} bytes (--batch-max-line-bytes)")]
    LineTooLong { line: u64, limit: u32 },
    #[error("a worker thread stopped before answering its lines")]
    Worker,
}

/// Answers every line of `input` into `output`, on `threads` threads.
pub fn run(
    operation: &impl AnswerLine,
    limits: BatchLimits,
    threads: usize,
    input: impl BufRead,
    mut output: impl Write,
) -> Result<Tally, BatchError> {
    let progress = std::io::stderr().is_terminal().then(Instant::now);
    let mut total = Tally::default();
    let mut lines = input.split(b'\n');
    let mut number: u64 = 0;
    let mut last_report = Instant::now();
    loop {
        let mut block: Vec<Vec<u8>> = Vec::with_capacity(BLOCK_LINES);
        let mut fault = None;
        for line in lines.by_ref().take(BLOCK_LINES) {
            let line = line.map_err(BatchError::Read)?;
            if line.len() > limits.line_bytes as usize {
                fault = Some(number + block.len() as u64 + 1);
                break;
            }
            block.push(line);
        }
        if block.is_empty() && fault.is_none() {
            break;
        }
        let first = number + 1;
        number += block.len() as u64;
        let (answers, tally) = answer_block(operation, first, &block, threads)?;
        output.write_all(&answers).map_err(BatchError::Write)?;
        total.results += tally.results;
        total.problems += tally.problems;
        if let Some(line) = fault {
            let problem = BatchError::LineTooLong {
                line,
                limit: limits.line_bytes,
            };
            write_fault(&mut output, &problem)?;
            return Err(problem);
        }
        if let Some(started) = progress
            && last_report.elapsed().as_secs() >= 1
        {
            last_report = Instant::now();
            let rate = number as f64 / started.elapsed().as_secs_f64().max(1e-9);
            eprint!("\r{number} lines, {rate:.0} lines/s   ");
        }
    }
    output.flush().map_err(BatchError::Write)?;
    if progress.is_some() {
        eprintln!(
            "\r{number} lines: {} answered, {} problems   ",
            total.results, total.problems
        );
    }
    Ok(total)
}

/// The last line of a run cut short, as the endpoint writes it.
fn write_fault(output: &mut impl Write, fault: &BatchError) -> Result<(), BatchError> {
    let problem = Problem::new(ErrorCode::LineTooLong, fault.to_string());
    let mut line = b"{\"problem\":".to_vec();
    serde_json::to_writer(&mut line, &problem.to_document())
        .map_err(|e| BatchError::Write(e.into()))?;
    line.extend_from_slice(b"}\n");
    output.write_all(&line).map_err(BatchError::Write)
}

/// Answers a block of lines numbered from `first`, in parallel, in order.
fn answer_block(
    operation: &impl AnswerLine,
    first: u64,
    block: &[Vec<u8>],
    threads: usize,
) -> Result<(Vec<u8>, Tally), BatchError> {
    let per_thread = block.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<(Vec<u8>, Tally)> = std::thread::scope(|scope| {
        let handles: Vec<_> = block
            .chunks(per_thread)
            .enumerate()
            .map(|(index, lines)| {
                let start = first + (index * per_thread) as u64;
                scope.spawn(move || {
                    let mut answers = Answers {
                        out: Vec::with_capacity(lines.len() * 256),
                        ..Answers::default()
                    };
                    for (offset, line) in lines.iter().enumerate() {
                        operation.answer_line(start + offset as u64, line, &mut answers);
                    }
                    (answers.out, answers.tally)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| handle.join().map_err(|_| BatchError::Worker))
            .collect::<Result<_, _>>()
    })?;
    let mut answers = Vec::with_capacity(parts.iter().map(|(out, _)| out.len()).sum());
    let mut tally = Tally::default();
    for (out, part) in parts {
        answers.extend_from_slice(&out);
        tally.results += part.results;
        tally.problems += part.problems;
    }
    Ok((answers, tally))
}
