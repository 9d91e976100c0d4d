//! The `gin-referee` binary: its subcommand, its validation, its signals.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const BINARY: &str = env!("CARGO_BIN_EXE_gin-referee");

/// The binary with a clean environment: no GIN_REFEREE_* or RUST_LOG from the
/// developer's shell.
fn command() -> Command {
    let mut command = Command::new(BINARY);
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy().into_owned();
        if key.starts_with("GIN_REFEREE_") || key == "RUST_LOG" {
            command.env_remove(key);
        }
    }
    command
}

#[test]
fn the_openapi_subcommand_prints_the_committed_document() {
    let output = command().arg("openapi").output().expect("runs");
    assert!(output.status.success());
    let printed = String::from_utf8(output.stdout).expect("utf-8");
    let committed = include_str!("../../openapi/openapi.json");
    assert!(
        printed == committed,
        "openapi/openapi.json is stale; regenerate with `cargo run -- openapi > openapi/openapi.json`"
    );
}

/// The `gin-referee` command lines of the README and the guides (in ```sh
/// blocks, `cargo run [--release] [-q] -- ...` included), with the page
/// they are on: each that runs and exits (a subcommand, `--help`,
/// `--version`; not the server) is run with the built binary, in a scratch
/// directory holding a `hands.ndjson`, its `<` and `>` redirections applied.
fn documented_command_lines() -> Vec<(&'static str, Vec<String>)> {
    let mut found = Vec::new();
    for (name, page) in crate::readme::DOCS {
        let mut in_sh = false;
        for line in page.lines() {
            if line.starts_with("```") {
                in_sh = line == "```sh";
                continue;
            }
            // A comment starts at a `#` after a space.
            let line = line.split(" #").next().unwrap_or(line).trim();
            if !in_sh {
                continue;
            }
            let words: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
            let args = match words.iter().position(|w| w == "--") {
                Some(at) if words.first().is_some_and(|w| w == "cargo") => &words[at + 1..],
                _ if words.first().is_some_and(|w| w == "gin-referee") => &words[1..],
                _ => continue,
            };
            found.push((*name, args.to_vec()));
        }
    }
    found
}

#[test]
fn every_documented_command_line_runs() {
    let hands = concat!(
        r#"{"id": 1, "hand": ["7S","7H","7D","7C","8H","9H","KS","QD","2C","3D"]}"#,
        "\n",
        r#"{"melds": [["7S","7H","7D"]], "deal": 1}"#,
        "\n"
    );
    let lines = documented_command_lines();
    let mut ran = 0;
    for (name, words) in lines {
        let exits = ["openapi", "errors", "batch", "--help", "--version"];
        if !words.iter().any(|w| exits.contains(&w.as_str())) {
            continue; // the server: its flags are checked by the next tests
        }
        let scratch = tempfile::tempdir().expect("a scratch directory");
        std::fs::write(scratch.path().join("hands.ndjson"), hands).expect("writes");
        let mut args = Vec::new();
        let mut command = command();
        command.current_dir(scratch.path());
        let mut words = words.iter();
        while let Some(word) = words.next() {
            let file = |to: Option<&String>| scratch.path().join(to.expect("a file"));
            match word.as_str() {
                "<" => {
                    let from = std::fs::File::open(file(words.next())).expect("the input");
                    command.stdin(from);
                }
                ">" => {
                    let to = file(words.next());
                    std::fs::create_dir_all(to.parent().expect("a directory")).expect("mkdir");
                    command.stdout(std::fs::File::create(to).expect("the output"));
                }
                _ => args.push(word.clone()),
            }
        }
        let output = command.args(&args).output().expect("runs");
        assert!(
            output.status.success(),
            "{name}: gin-referee {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr)
        );
        ran += 1;
    }
    assert!(ran >= 6, "{ran} command lines ran");
}

/// A batch setting works in each of its spellings: before the subcommand,
/// after it, and as its environment variable.
#[test]
fn a_batch_setting_is_read_before_or_after_the_subcommand_or_from_the_environment() {
    use std::io::Write;
    let ten = r#"["7S","7H","7D","7C","8H","9H","KS","QD","2C","3D"]"#;
    let long = format!("{{\"hand\": {ten}, \"id\": \"{}\"}}\n", "x".repeat(2000));
    type Spelling<'a> = (&'a [&'a str], &'a [(&'a str, &'a str)]);
    let spellings: [Spelling; 3] = [
        (&["--batch-max-line-bytes", "1024", "batch", "analyze"], &[]),
        (&["batch", "analyze", "--batch-max-line-bytes", "1024"], &[]),
        (
            &["batch", "analyze"],
            &[("GIN_REFEREE_BATCH_MAX_LINE_BYTES", "1024")],
        ),
    ];
    for (args, env) in spellings {
        let mut child = command()
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("runs");
        let mut stdin = child.stdin.take().expect("stdin");
        let _ = stdin.write_all(long.as_bytes());
        drop(stdin);
        let output = child.wait_with_output().expect("finishes");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(!output.status.success(), "{args:?} {env:?}: {stdout}");
        assert!(
            stdout.contains("line_too_long"),
            "{args:?} {env:?}: {stdout}"
        );
    }
}

/// Runs `gin-referee <flags> batch <operation>` with `input` on stdin.
fn batch(flags: &[&str], operation: &str, input: &str) -> (bool, Vec<serde_json::Value>, String) {
    use std::io::Write;
    let mut child = command()
        .args(flags)
        .args(["batch", operation])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_owned();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("finishes");
    // A run that stops early (a fault) may stop reading before the end.
    let _ = writer.join();
    let lines = String::from_utf8(output.stdout)
        .expect("utf-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.success(), lines, stderr)
}

#[test]
fn the_batch_subcommand_answers_stdin_line_by_line_in_order_on_every_thread() {
    let ten = r#"["7S","7H","7D","7C","8H","9H","KS","QD","2C","3D"]"#;
    // Enough lines that every worker thread gets a share, with faults among them.
    let mut input = String::new();
    for n in 0..5000 {
        match n % 500 {
            7 => input.push_str("not json\n"),
            8 => input.push('\n'),
            _ => input.push_str(&format!("{{\"id\": {n}, \"hand\": {ten}}}\n")),
        }
    }
    let (ok, lines, _) = batch(&["--workers", "4"], "analyze", &input);
    assert!(ok);
    assert_eq!(lines.len(), 5000 - 10, "blank lines are not answered");
    let mut previous = 0;
    for line in &lines {
        let number = line["line"].as_u64().expect("a line number");
        assert!(number > previous, "out of order at {number}");
        previous = number;
        match line.get("id") {
            Some(id) => {
                assert_eq!(id.as_u64(), Some(number - 1));
                assert_eq!(line["result"]["deadwood"], 25);
            }
            None => assert_eq!(line["problem"]["code"], "malformed_json"),
        }
    }
    // Another operation, and its problems with pointers.
    let (ok, lines, _) = batch(
        &[],
        "validate",
        "{\"melds\": [[\"7S\", \"7H\", \"7D\"]]}\n{\"melds\": [[\"7S\", \"XX\"]]}\n",
    );
    assert!(ok);
    assert_eq!(lines[0]["result"]["valid"], true);
    assert_eq!(lines[1]["problem"]["errors"][0]["pointer"], "/melds/0/1");
    // A line over the limit ends the run with a last problem line and exit 1.
    let long = format!("{{\"hand\": {ten}, \"id\": \"{}\"}}\n", "x".repeat(2000));
    let (ok, lines, stderr) = batch(
        &["--batch-max-line-bytes", "1024"],
        "analyze",
        &format!("{{\"hand\": {ten}}}\n{long}"),
    );
    assert!(!ok);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["problem"]["code"], "line_too_long");
    assert!(stderr.contains("line 2"), "{stderr}");
}

/// One invalid start: flags, environment, and what the message must mention.
struct BadStart {
    args: &'static [&'static str],
    env: &'static [(&'static str, &'static str)],
    mentions: &'static str,
}

#[test]
fn invalid_settings_stop_the_start_with_a_clear_message() {
    let flag = |args, mentions| BadStart {
        args,
        env: &[],
        mentions,
    };
    let var = |env, mentions| BadStart {
        args: &[],
        env,
        mentions,
    };
    let cases = [
        flag(&["--workers", "0"], "--workers"),
        flag(&["--body-limit", "100"], "--body-limit"),
        flag(&["--listen", "nowhere"], "--listen"),
        flag(&["--log-format", "xml"], "--log-format"),
        var(&[("GIN_REFEREE_WORKERS", "none")], "--workers"),
        var(&[("GIN_REFEREE_MAX_CONNECTIONS", "0")], "--max-connections"),
        var(&[("RUST_LOG", "gin_referee=loud")], "RUST_LOG"),
    ];
    for BadStart {
        args,
        env,
        mentions,
    } in cases
    {
        let output = command()
            .args(args)
            .envs(env.iter().copied())
            .output()
            .expect("runs");
        assert_eq!(output.status.code(), Some(2), "{args:?} {env:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(mentions), "{args:?} {env:?}: {stderr}");
    }
}

/// A server started from the binary, with its JSON log lines as they come.
struct Server {
    child: Child,
    addr: String,
    logs: mpsc::Receiver<serde_json::Value>,
}

/// Starts the server on a free port and returns it with its address, read from
/// its "listening" log line.
fn start_server() -> Server {
    let mut child = command()
        .args([
            "--listen",
            "127.0.0.1:0",
            "--workers",
            "1",
            "--log-format",
            "json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let mut lines = BufReader::new(stdout).lines();
    let addr = loop {
        let line = lines
            .next()
            .expect("the server logs before exiting")
            .expect("readable log line");
        let entry: serde_json::Value = serde_json::from_str(&line).expect("JSON log line");
        if entry["message"] == "gin-referee listening" {
            break entry["addr"].as_str().expect("addr field").to_owned();
        }
    };
    // Keep draining the logs so the server never blocks on a full pipe; a test
    // that does not read them just lets them queue.
    let (sender, logs) = mpsc::channel();
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            let entry = serde_json::from_str(&line).unwrap_or(serde_json::Value::String(line));
            let _ = sender.send(entry);
        }
    });
    Server { child, addr, logs }
}

fn wait_for_exit(child: &mut Child, within: Duration) -> Option<std::process::ExitStatus> {
    let deadline = Instant::now() + within;
    while Instant::now() < deadline {
        if let Ok(Some(status)) = child.try_wait() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    None
}

fn signal(child: &Child, name: &str) {
    // The shell's builtin `kill`, so no extra package is needed.
    let status = Command::new("sh")
        .args(["-c", &format!("kill -{name} {}", child.id())])
        .status()
        .expect("sh runs");
    assert!(status.success());
}

/// Sends one request and returns the whole response, status line first.
fn request(addr: &str, head: &str) -> String {
    use std::io::{Read, Write};
    let Ok(mut stream) = std::net::TcpStream::connect(addr) else {
        return String::new();
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let _ = stream.write_all(format!("{head}\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes());
    let mut response = String::new();
    let _ = stream.read_to_string(&mut response);
    response
}

fn healthz(addr: &str) -> bool {
    request(addr, "GET /healthz HTTP/1.1").starts_with("HTTP/1.1 200")
}

#[test]
fn sigterm_and_sigint_stop_the_server_cleanly() {
    for name in ["TERM", "INT"] {
        let Server {
            mut child, addr, ..
        } = start_server();
        assert!(healthz(&addr), "serving before SIG{name}");
        signal(&child, name);
        let status = wait_for_exit(&mut child, Duration::from_secs(10));
        assert!(
            status.is_some_and(|s| s.success()),
            "SIG{name}: expected a clean exit, got {status:?}"
        );
        assert!(!healthz(&addr), "still serving after SIG{name}");
    }
}

/// In the real process, with its own global subscriber: each request gets one
/// access log line whose span names the route pattern, the status, the latency
/// and the client's request id.
#[test]
fn each_request_logs_one_access_line_with_its_route_status_latency_and_id() {
    let mut server = start_server();
    let response = request(
        &server.addr,
        "GET /v1/profiles/oklahoma HTTP/1.1\r\nX-Request-Id: access-log-1",
    );
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    let deadline = Instant::now() + Duration::from_secs(10);
    let line = loop {
        let remaining = deadline.saturating_duration_since(Instant::now());
        let entry = server
            .logs
            .recv_timeout(remaining)
            .expect("an access log line within 10 s");
        if entry["target"] == "gin_referee::access" {
            break entry;
        }
    };
    let _ = server.child.kill();
    let _ = server.child.wait();
    assert_eq!(line["message"], "request completed", "{line}");
    assert_eq!(line["level"], "INFO", "{line}");
    let span = &line["span"];
    assert_eq!(span["name"], "request", "{line}");
    assert_eq!(span["method"], "GET", "{line}");
    assert_eq!(span["path"], "/v1/profiles/oklahoma", "{line}");
    assert_eq!(span["route"], "/v1/profiles/{name}", "{line}");
    assert_eq!(span["status"], 200, "{line}");
    assert_eq!(span["request_id"], "access-log-1", "{line}");
    assert!(
        span["latency_ms"].as_f64().is_some_and(|ms| ms >= 0.0),
        "{line}"
    );
}
