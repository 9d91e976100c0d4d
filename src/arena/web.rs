//! An HTTP bot: one `POST` per decision, the protocol's line as the body,
//! on a connection kept alive per worker. The bot answers 200 with
//! `application/json`; anything else, or silence past `--move-timeout`,
//! forfeits the match.
//!
//! HTTP/1.1 over a plain TCP socket, written here: one request shape, an
//! answer read by its `Content-Length` (or to the end when the bot closes the
//! connection). A client library would bring an async runtime or TLS the
//! arena does not use; `http://` only (an `https` bot sits behind a proxy).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

use super::turn::Fault;

/// Largest answer read from a bot.
const MAX_ANSWER: usize = 1 << 20;

/// An HTTP bot (see the module docs).
pub struct WebBot {
    host: String,
    path: String,
    timeout: Duration,
    connection: Option<BufReader<TcpStream>>,
}

impl WebBot {
    pub fn new(url: &str, timeout: Duration) -> WebBot {
        let rest = url.strip_prefix("http://").unwrap_or(url);
        let (host, path) = match rest.find('/') {
            Some(at) => (
                rest.get(..at).unwrap_or(rest),
                rest.get(at..).unwrap_or("/"),
            ),
            None => (rest, "/"),
        };
        WebBot {
            host: host.to_owned(),
            path: path.to_owned(),
            timeout,
            connection: None,
        }
    }

    fn connect(&self) -> Result<BufReader<TcpStream>, Fault> {
        let host = if self.host.contains(':') {
            self.host.clone()
        } else {
            format!("{}:80", self.host)
        };
        let address = host
            .to_socket_addrs()
            .ok()
            .and_then(|mut all| all.next())
            .ok_or_else(|| Fault::Exited(format!("cannot resolve {host}")))?;
        let stream = TcpStream::connect_timeout(&address, self.timeout)
            .map_err(|e| Fault::Exited(format!("cannot connect to {host}: {e}")))?;
        let _ = stream.set_nodelay(true);
        stream
            .set_read_timeout(Some(self.timeout))
            .and_then(|()| stream.set_write_timeout(Some(self.timeout)))
            .map_err(|e| Fault::Exited(e.to_string()))?;
        Ok(BufReader::new(stream))
    }

    /// POSTs `body`; the answer's body. A kept-alive connection the bot has
    /// closed is opened again once.
    pub fn ask(&mut self, body: &str) -> Result<String, Fault> {
        for attempt in 0..2 {
            let mut connection = match self.connection.take() {
                Some(connection) => connection,
                None => self.connect()?,
            };
            match self.exchange(&mut connection, body) {
                Ok((answer, keep)) => {
                    if keep {
                        self.connection = Some(connection);
                    }
                    return Ok(answer);
                }
                Err(Exchange::Stale) if attempt == 0 => continue,
                Err(Exchange::Stale) => return Err(Fault::Exited("connection closed".into())),
                Err(Exchange::Fault(fault)) => return Err(fault),
            }
        }
        Err(Fault::Exited("connection closed".into()))
    }

    fn exchange(
        &self,
        connection: &mut BufReader<TcpStream>,
        body: &str,
    ) -> Result<(String, bool), Exchange> {
        let head = format!(
            "POST {} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: {}\r\n\r\n",
            self.path,
            self.host,
            body.len()
        );
        let stream = connection.get_mut();
        stream
            .write_all(head.as_bytes())
            .and_then(|()| stream.write_all(body.as_bytes()))
            .map_err(|_| Exchange::Stale)?;
        let mut status = String::new();
        match connection.read_line(&mut status) {
            Ok(0) => return Err(Exchange::Stale),
            Ok(_) => {}
            Err(e) if is_timeout(&e) => return Err(Exchange::Fault(Fault::Timeout)),
            Err(_) => return Err(Exchange::Stale),
        }
        let code = status
            .split_whitespace()
            .nth(1)
            .unwrap_or_default()
            .to_owned();
        let (length, close) = read_headers(connection).map_err(Exchange::Fault)?;
        let mut answer = Vec::new();
        let read = match length {
            Some(n) if n <= MAX_ANSWER => {
                answer.resize(n, 0);
                connection.read_exact(&mut answer)
            }
            Some(n) => {
                return Err(Exchange::Fault(Fault::Malformed(format!(
                    "an answer of {n} bytes"
                ))));
            }
            None => connection
                .take(MAX_ANSWER as u64)
                .read_to_end(&mut answer)
                .map(|_| ()),
        };
        read.map_err(|e| {
            Exchange::Fault(if is_timeout(&e) {
                Fault::Timeout
            } else {
                Fault::Exited(e.to_string())
            })
        })?;
        let text = String::from_utf8_lossy(&answer).into_owned();
        if code != "200" {
            return Err(Exchange::Fault(Fault::Malformed(format!(
                "HTTP {code}: {}",
                text.chars().take(200).collect::<String>()
            ))));
        }
        Ok((text, !close && length.is_some()))
    }
}

enum Exchange {
    /// The kept-alive connection was closed before an answer: try anew.
    Stale,
    Fault(Fault),
}

fn is_timeout(error: &std::io::Error) -> bool {
    matches!(
        error.kind(),
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
    )
}

/// `Content-Length`, and whether the bot closes the connection.
fn read_headers(connection: &mut BufReader<TcpStream>) -> Result<(Option<usize>, bool), Fault> {
    let mut length = None;
    let mut close = false;
    for _ in 0..100 {
        let mut line = String::new();
        match connection.read_line(&mut line) {
            Ok(0) => {
                return Err(Fault::Exited(
                    "connection closed in the answer's head".into(),
                ));
            }
            Ok(_) => {}
            Err(e) if is_timeout(&e) => return Err(Fault::Timeout),
            Err(e) => return Err(Fault::Exited(e.to_string())),
        }
        let line = line.trim_end();
        if line.is_empty() {
            return Ok((length, close));
        }
        if let Some((name, value)) = line.split_once(':') {
            let (name, value) = (name.trim().to_ascii_lowercase(), value.trim());
            if name == "content-length" {
                length = value.parse().ok();
            } else if name == "connection" && value.eq_ignore_ascii_case("close") {
                close = true;
            } else if name == "transfer-encoding" && !value.eq_ignore_ascii_case("identity") {
                return Err(Fault::Malformed(
                    "a chunked answer: send Content-Length".into(),
                ));
            }
        }
    }
    Err(Fault::Malformed("an answer head of over 100 lines".into()))
}
