//! `gin-referee arena`, run as a user runs it: a Python process bot (the
//! guide's own), an HTTP bot served by the test, bots that fail in each way,
//! a run killed and resumed, the report recomputed from the records, and
//! `arena verify` passing, then failing on a tampered record. Single hands
//! (`--unit hand`) and few pairs keep each run short in a debug build.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const BINARY: &str = env!("CARGO_BIN_EXE_gin-referee");
const GUIDE: &str = include_str!("../../docs/ARENA.md");

/// The guide's twenty-line bot, between its markers.
fn guide_bot() -> &'static str {
    let start = GUIDE
        .find("```python\n")
        .expect("docs/ARENA.md has a python block");
    let rest = &GUIDE[start + "```python\n".len()..];
    &rest[..rest.find("```").expect("the block ends")]
}

struct Run {
    dir: tempfile::TempDir,
}

impl Run {
    fn new() -> Run {
        Run {
            dir: tempfile::tempdir().expect("a scratch directory"),
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// A Python program in the scratch directory, as a `cmd:` spec.
    fn python(&self, name: &str, source: &str) -> String {
        std::fs::write(self.path(name), source).expect("writes");
        format!("cmd:python3 {}", self.path(name).display())
    }

    fn command(&self, extra: &[&str]) -> Command {
        let mut command = Command::new(BINARY);
        command
            .current_dir(self.dir.path())
            .env_remove("GIN_REFEREE_WORKERS")
            .args([
                "arena",
                "--out",
                "records.ndjson",
                "--report",
                "report.json",
            ])
            .args(extra);
        command
    }

    fn arena(&self, extra: &[&str]) -> Output {
        self.command(extra).output().expect("the arena runs")
    }

    fn records(&self) -> Vec<Value> {
        std::fs::read_to_string(self.path("records.ndjson"))
            .expect("records")
            .lines()
            .map(|line| serde_json::from_str(line).expect("a whole JSON line"))
            .collect()
    }

    fn report(&self) -> Value {
        serde_json::from_str(&std::fs::read_to_string(self.path("report.json")).expect("report"))
            .expect("JSON")
    }

    fn verify(&self) -> Output {
        Command::new(BINARY)
            .current_dir(self.dir.path())
            .args([
                "arena",
                "verify",
                "--report",
                "report.json",
                "records.ndjson",
            ])
            .output()
            .expect("verify runs")
    }
}

fn ok(output: &Output) {
    assert!(
        output.status.success(),
        "exit {:?}: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The cards a seat could never see in a hand: the opponent's dealt cards
/// and the stock, less every card that became public (discarded, knocked,
/// laid down, taken from the pile) and the seat's own stock draws.
fn unknowable(record: &Value, seat: &str) -> BTreeSet<String> {
    let other = if seat == "dealer" {
        "non_dealer"
    } else {
        "dealer"
    };
    let cards = |v: &Value| -> Vec<String> {
        v.as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c.as_str().map(str::to_owned))
            .collect()
    };
    let stock = cards(&record["deal"]["stock"]);
    let mut hidden: BTreeSet<String> = cards(&record["deal"][other]).into_iter().collect();
    hidden.extend(stock.iter().cloned());
    // The opponent's hand as it goes, since a knock lays all of it face up
    // (its melds and its deadwood), whatever the recorded knock names.
    let mut others: BTreeSet<String> = cards(&record["deal"][other]).into_iter().collect();
    // Stock draws name no card: they take the stock's cards top first.
    let mut drawn = stock.iter();
    for action in record["actions"].as_array().into_iter().flatten() {
        let by_other = action["player"] == other;
        if action["action"] == "draw" && action["from"] == "stock" {
            let card = drawn.next().expect("a stock card");
            if action["player"] == seat {
                hidden.remove(card);
            } else {
                others.insert(card.clone());
            }
            continue;
        }
        let text = action.to_string();
        hidden.retain(|card| !text.contains(&format!("\"{card}\"")));
        if !by_other {
            continue;
        }
        if let Some(card) = action["card"].as_str() {
            if action["action"] == "draw" {
                others.insert(card.to_owned());
            } else {
                others.remove(card);
            }
        }
        if action["action"] == "knock" {
            if let Some(card) = action["discard"].as_str() {
                others.remove(card);
            }
            hidden.retain(|card| !others.contains(card));
        }
    }
    hidden
}

/// The guide's bot (a process) against `random`: every game recorded in
/// order, legal, its deals re-derived; and no line the bot was sent names a
/// card its seat could not know.
#[test]
fn the_guides_python_bot_plays_and_sees_only_what_its_seat_may_know() {
    let run = Run::new();
    // The guide's bot, its received lines logged beside it.
    let logged = format!(
        "import sys\n_log = open({:?}, 'a')\n_stdin = sys.stdin\nclass _Tee:\n    def __iter__(self):\n        for line in _stdin:\n            _log.write(line); _log.flush()\n            yield line\nsys.stdin = _Tee()\n{}",
        run.path("seen.ndjson").display().to_string(),
        guide_bot()
    );
    let bot = run.python("bot.py", &logged);
    // One worker: the bot's lines come game after game, in record order.
    let output = run.arena(&[
        "--bot",
        &format!("py={bot}"),
        "--bot",
        "rnd=random:seed=7",
        "--pairs",
        "3",
        "--unit",
        "hand",
        "--seed",
        "guide",
        "--workers",
        "1",
    ]);
    ok(&output);
    assert!(String::from_utf8_lossy(&output.stdout).starts_with("commitment "));
    let records = run.records();
    let order: Vec<(u64, u64)> = records
        .iter()
        .map(|line| {
            (
                line["pair"].as_u64().unwrap(),
                line["leg"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(order, [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]);
    assert!(
        records.iter().all(|line| line.get("forfeit").is_none()),
        "{records:?}"
    );
    ok(&run.verify());
    // Each game's lines (as many as the bot's decisions in it) name no card
    // the bot's seat could not know in that game.
    let seen = std::fs::read_to_string(run.path("seen.ndjson")).expect("the bot's log");
    let mut seen = seen.lines();
    let mut checked = 0;
    for game in &records {
        let seat = if game["seats"]["dealer"] == "py" {
            "dealer"
        } else {
            "non_dealer"
        };
        let hidden = unknowable(&game["record"], seat);
        assert!(!hidden.is_empty());
        for _ in 0..game["result"]["decisions"]["py"].as_u64().unwrap() {
            let sent: Value = serde_json::from_str(seen.next().expect("a line")).expect("JSON");
            assert_eq!(
                (sent["protocol"].clone(), sent["you"].clone()),
                (json!(1), json!("py"))
            );
            assert_eq!(sent["state"]["to_act"], seat);
            let text = sent.to_string();
            for card in &hidden {
                assert!(
                    !text.contains(&format!("\"{card}\"")),
                    "{card} sent to the {seat}: {text}"
                );
            }
            checked += 1;
        }
    }
    assert!(seen.next().is_none(), "more lines than decisions");
    assert!(checked > 20, "{checked} lines checked");
}

/// A bot behind a URL: the test serves it, answering the first listed move.
#[test]
fn an_http_bot_plays_one_post_per_decision() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("binds");
    let port = listener.local_addr().expect("address").port();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { break };
            std::thread::spawn(move || serve_first_move(stream));
        }
    });
    let run = Run::new();
    let url = format!("web=http://127.0.0.1:{port}/move");
    ok(&run.arena(&[
        "--bot",
        &url,
        "--bot",
        "s=simple",
        "--pairs",
        "2",
        "--unit",
        "hand",
        "--workers",
        "1",
    ]));
    let report = run.report();
    assert_eq!(report["games"], 4);
    assert_eq!(report["by_bot"]["web"]["forfeits"], 0);
    assert!(report["by_bot"]["web"]["decisions"].as_f64().unwrap() > 10.0);
    ok(&run.verify());
}

/// Answers each POST with its state's first listed move, keeping the
/// connection alive.
fn serve_first_move(stream: std::net::TcpStream) {
    let mut reader = BufReader::new(stream.try_clone().expect("clones"));
    let mut writer = stream;
    loop {
        let mut length = 0;
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        loop {
            line.clear();
            reader.read_line(&mut line).expect("a header");
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some(value) = header.to_ascii_lowercase().strip_prefix("content-length:") {
                length = value.trim().parse().expect("a length");
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).expect("the body");
        let sent: Value = serde_json::from_slice(&body).expect("JSON");
        let answer = json!({"move": sent["state"]["legal_actions"][0]["move"]}).to_string();
        let response = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{answer}",
            answer.len()
        );
        if writer.write_all(response.as_bytes()).is_err() {
            return;
        }
    }
}

/// Answers with the whole first listed entry (`{"kind", "move", ...}`),
/// which the protocol takes as well as `{"move": ...}`.
const FIRST_ENTRY: &str = "import json, sys\nfor line in sys.stdin:\n    state = json.loads(line)['state']\n    print(json.dumps(state['legal_actions'][0]), flush=True)\n";

/// Each way a bot can fail forfeits that game with its reason (and the
/// stderr's tail), and the rest of the arena completes and verifies.
#[test]
fn each_failure_forfeits_its_game_and_the_rest_completes() {
    let run = Run::new();
    let bots = [
        (
            "garbled",
            "import sys\nfor line in sys.stdin:\n    print('no json here', flush=True)\n",
        ),
        (
            "cheat",
            "import sys, json\nfor line in sys.stdin:\n    print(json.dumps({'move': {'player': 'dealer', 'action': 'knock', 'card': 'AS'}}), flush=True)\n",
        ),
        (
            "sleepy",
            "import sys, time\nfor line in sys.stdin:\n    time.sleep(60)\n",
        ),
        (
            "quitter",
            "import sys\nsys.stdin.readline()\nsys.stderr.write('giving up: no more moves\\n')\nsys.exit(3)\n",
        ),
    ];
    let mut args: Vec<String> = Vec::new();
    for (name, source) in bots {
        args.push("--bot".into());
        args.push(format!(
            "{name}={}",
            run.python(&format!("{name}.py"), source)
        ));
    }
    args.push("--bot".into());
    args.push(format!("fine={}", run.python("fine.py", FIRST_ENTRY)));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let started = Instant::now();
    let output = run.arena(
        &[
            &args[..],
            &[
                "--pairs",
                "1",
                "--unit",
                "hand",
                "--move-timeout",
                "2",
                "--workers",
                "2",
            ],
        ]
        .concat(),
    );
    ok(&output);
    let records = run.records();
    assert_eq!(records.len(), 10 * 2, "five bots: ten pairings of one pair");
    let mut reasons: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in &records {
        if let Some(forfeit) = line.get("forfeit") {
            reasons
                .entry(forfeit["player"].as_str().unwrap().to_owned())
                .or_default()
                .insert(forfeit["reason"].as_str().unwrap().to_owned());
            if forfeit["player"] == "quitter" {
                assert!(
                    forfeit["stderr_tail"]
                        .as_str()
                        .unwrap()
                        .contains("giving up"),
                    "{forfeit}"
                );
            }
        }
    }
    // A bot killed after its timeouts, started again up to 3 times, then
    // forfeits the rest as a bot that exited.
    let sleepy = reasons.remove("sleepy").expect("sleepy forfeits");
    assert!(
        sleepy.contains("timeout")
            && sleepy.is_subset(&BTreeSet::from(["timeout".into(), "exited".into()])),
        "{sleepy:?}"
    );
    let expected: BTreeMap<String, BTreeSet<String>> = [
        ("garbled", "malformed"),
        ("cheat", "illegal"),
        ("quitter", "exited"),
    ]
    .into_iter()
    .map(|(bot, reason)| (bot.to_owned(), BTreeSet::from([reason.to_owned()])))
    .collect();
    assert_eq!(reasons, expected);
    // `fine` never forfeits: its whole entries are taken as moves.
    assert_eq!(run.report()["by_bot"]["fine"]["forfeits"], 0);
    // `fine` against `garbled`: every game of the pairing won by forfeit.
    let report = run.report();
    let pairing = report["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["bots"] == json!(["garbled", "fine"]))
        .expect("the pairing");
    assert_eq!(pairing["won"]["fine"], 2.0);
    assert_eq!(pairing["forfeits"]["garbled"], 2);
    ok(&run.verify());
    // The sleepy bot costs its timeouts, not its 60 s sleeps.
    assert!(
        started.elapsed() < Duration::from_secs(50),
        "{:?}",
        started.elapsed()
    );
}

/// Killed with SIGKILL mid-run, then resumed: every game exactly once, the
/// last line whole, the run complete and verified.
#[test]
fn a_run_killed_and_resumed_plays_no_game_twice() {
    let run = Run::new();
    let slow = run.python(
        "slow.py",
        "import json, sys, time\nfor line in sys.stdin:\n    time.sleep(0.002)\n    state = json.loads(line)['state']\n    print(json.dumps({'move': state['legal_actions'][0]['move']}), flush=True)\n",
    );
    let args = [
        "--bot",
        &format!("slow={slow}"),
        "--bot",
        "r=random",
        "--pairs",
        "6",
        "--unit",
        "hand",
        "--workers",
        "2",
    ];
    let mut child = run
        .command(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts");
    let deadline = Instant::now() + Duration::from_secs(60);
    let records = run.path("records.ndjson");
    while line_count(&records) < 3 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");
    let before = line_count(&records);
    assert!((3..12).contains(&before), "{before} games before the kill");
    ok(&run.arena(&[&args[..], &["--resume"]].concat()));
    let lines = run.records();
    let games: Vec<(u64, u64)> = lines
        .iter()
        .map(|line| {
            (
                line["pair"].as_u64().unwrap(),
                line["leg"].as_u64().unwrap(),
            )
        })
        .collect();
    let planned: Vec<(u64, u64)> = (0..6).flat_map(|pair| [(pair, 0), (pair, 1)]).collect();
    assert_eq!(games, planned);
    assert_eq!(run.report()["complete"], true);
    ok(&run.verify());
}

/// SIGINT: the games in progress finish, no new one is dealt, and the
/// partial report gives the commitment only; `--resume` then completes it.
#[test]
fn sigint_writes_the_report_so_far_with_the_commitment_only() {
    let run = Run::new();
    let slow = run.python(
        "slow.py",
        "import json, sys, time\nfor line in sys.stdin:\n    time.sleep(0.002)\n    state = json.loads(line)['state']\n    print(json.dumps({'move': state['legal_actions'][0]['move']}), flush=True)\n",
    );
    let args = [
        "--bot",
        &format!("slow={slow}"),
        "--bot",
        "r=random",
        "--pairs",
        "8",
        "--unit",
        "hand",
        "--workers",
        "1",
    ];
    let child = run
        .command(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts");
    let records = run.path("records.ndjson");
    let deadline = Instant::now() + Duration::from_secs(60);
    while line_count(&records) < 2 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let interrupted = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(interrupted.success());
    let output = child.wait_with_output().expect("ends");
    assert_eq!(output.status.code(), Some(130));
    let report = run.report();
    let games = run.records().len();
    assert!(games < 16, "{games} games");
    assert_eq!(
        (report["complete"].clone(), report["games"].clone()),
        (json!(false), json!(games))
    );
    assert!(report["deals"]["server_seed"].is_null());
    let printed = String::from_utf8_lossy(&output.stdout).to_string();
    assert_eq!(
        printed.trim(),
        format!(
            "commitment {}",
            report["deals"]["commitment"].as_str().unwrap()
        )
    );
    ok(&run.arena(&[&args[..], &["--resume"]].concat()));
    assert_eq!(run.records().len(), 16);
    ok(&run.verify());
}

/// With `--signing-key` each record carries the match audit's receipt: its
/// request digest is the record's, and the key signed it.
#[test]
fn a_signing_key_puts_the_audits_receipt_beside_each_record() {
    use base64::Engine;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use ed25519_dalek::pkcs8::EncodePrivateKey;
    use ed25519_dalek::pkcs8::spki::der::pem::LineEnding;
    use ed25519_dalek::{Signature, Verifier};
    use sha2::{Digest, Sha256};

    let run = Run::new();
    let key = ed25519_dalek::SigningKey::from_bytes(&[5; 32]);
    std::fs::write(
        run.path("key.pem"),
        key.to_pkcs8_pem(LineEnding::LF).unwrap().as_bytes(),
    )
    .unwrap();
    ok(&run.arena(&[
        "--bot",
        "a=simple",
        "--bot",
        "b=random",
        "--pairs",
        "1",
        "--signing-key",
        "key.pem",
    ]));
    for line in run.records() {
        let receipt = line["receipt"].as_str().expect("a receipt");
        let parts: Vec<&str> = receipt.split('.').collect();
        let payload: Value =
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[1]).unwrap()).unwrap();
        assert_eq!(payload["op"], "audit_match");
        let canonical = serde_json_canonicalizer::to_vec(&line["record"]).unwrap();
        assert_eq!(
            payload["request"],
            URL_SAFE_NO_PAD.encode(Sha256::digest(&canonical))
        );
        let signature = Signature::from_slice(&URL_SAFE_NO_PAD.decode(parts[2]).unwrap()).unwrap();
        let signed = format!("{}.{}", parts[0], parts[1]);
        key.verifying_key()
            .verify(signed.as_bytes(), &signature)
            .expect("signed by the key");
    }
    ok(&run.verify());
}

fn line_count(path: &Path) -> usize {
    std::fs::read(path)
        .map(|bytes| bytes.iter().filter(|&&b| b == b'\n').count())
        .unwrap_or(0)
}

/// The report's figures, recomputed here from the records alone: games won
/// (a match audit's winner, or the forfeit), the clustered interval, the
/// sign test, points per hand; then verify fails on a tampered deal.
#[test]
fn the_reports_figures_follow_from_the_records_and_verify_catches_tampering() {
    let run = Run::new();
    ok(&run.arena(&[
        "--bot",
        "a=simple",
        "--bot",
        "b=simple:seed=9",
        "--pairs",
        "6",
        "--seed",
        "figures",
        "--workers",
        "2",
    ]));
    let records = run.records();
    let report = run.report();
    assert_eq!(report["schema"], "gin-referee-arena/1");
    assert!(report["deals"]["server_seed"].is_string());
    let mut won = [0.0, 0.0];
    let mut points = [0u64, 0];
    let mut hands = 0u64;
    let mut pairs: BTreeMap<u64, f64> = BTreeMap::new();
    for line in &records {
        let body = serde_json::to_vec(&line["record"]).unwrap();
        let audit: Value = serde_json::from_slice(
            &gin_contract::referee::Referee::new()
                .answer(gin_contract::referee::Operation::AuditMatch, &body)
                .expect("audits"),
        )
        .unwrap();
        assert_eq!(audit["legal"], true);
        let score = match audit["match"]["winner"].as_str() {
            Some("a") => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        won[0] += score;
        won[1] += 1.0 - score;
        *pairs.entry(line["pair"].as_u64().unwrap()).or_default() += score / 2.0;
        for hand in audit["match"]["hands"].as_array().unwrap() {
            hands += 1;
            match hand["winner"].as_str() {
                Some("a") => points[0] += hand["points"].as_u64().unwrap(),
                Some("b") => points[1] += hand["points"].as_u64().unwrap(),
                _ => {}
            }
        }
    }
    let pairing = &report["pairings"][0];
    assert_eq!(pairing["won"], json!({"a": won[0], "b": won[1]}));
    let scores: Vec<f64> = pairs.values().copied().collect();
    let n = scores.len() as f64;
    let mean = scores.iter().sum::<f64>() / n;
    let sd = (scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    let ci = [mean - 1.96 * sd / n.sqrt(), mean + 1.96 * sd / n.sqrt()];
    let close = |x: &Value, y: f64| (x.as_f64().unwrap() - y).abs() < 1e-9;
    assert!(close(&pairing["share"]["a"], mean));
    assert!(close(&pairing["ci95"]["a"][0], ci[0]) && close(&pairing["ci95"]["a"][1], ci[1]));
    let (sa, sb) = (
        scores.iter().filter(|&&s| s == 1.0).count() as u64,
        scores.iter().filter(|&&s| s == 0.0).count() as u64,
    );
    assert_eq!(pairing["sweeps"], json!({"a": sa, "b": sb}));
    let n = sa + sb;
    let tail: f64 = (0..=sa.min(sb))
        .map(|i| choose(n, i) / 2f64.powi(n as i32))
        .sum();
    assert!(close(&pairing["sign_test_p"], (2.0 * tail).min(1.0)));
    assert!(close(
        &pairing["points_per_hand"]["a"],
        points[0] as f64 / hands as f64
    ));
    assert!(close(
        &pairing["points_per_hand"]["b"],
        points[1] as f64 / hands as f64
    ));
    assert_eq!(report["ratings"]["a"]["results"], 12);
    ok(&run.verify());
    // One card of one deal changed: verify names the line and fails.
    let text = std::fs::read_to_string(run.path("records.ndjson")).unwrap();
    let mut lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let deal = &mut lines[3]["record"]["hands"][0]["deal"];
    let (first, second) = (deal["stock"][0].clone(), deal["stock"][1].clone());
    deal["stock"][0] = second;
    deal["stock"][1] = first;
    let tampered: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(run.path("records.ndjson"), tampered).unwrap();
    let output = run.verify();
    assert_eq!(output.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("line 4"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn choose(n: u64, k: u64) -> f64 {
    (0..k).fold(1.0, |c, i| c * (n - i) as f64 / (i + 1) as f64)
}
