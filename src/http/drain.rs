//! A refusal that a client sending its whole body before it reads can still
//! read: the answer first, then the rest of the body read and thrown away.
//!
//! Python's `requests` and `urllib`, and most generated clients, send the
//! whole body before they read a byte of the answer. A request the memory
//! budget refuses ([`super::budget`]: 503 `overloaded`, or 413 for a body no
//! wait would fit), and one an API key's check refuses ([`super::auth`]: 401,
//! 403, 429, [`before_route`]), is refused before its body is read. If the connection then
//! closed while such a client was still sending (after
//! `--client-disconnect-timeout` of discarding, say), the kernel would answer
//! the unread bytes with a reset, and the client would see a broken
//! connection instead of the 503 and its `Retry-After`.
//!
//! So the refusal's answer is written at once, with `Connection: close`, and
//! its body then reads the request's body to its end and drops each chunk as
//! it comes, within three bounds:
//!
//! | bound  | what                                                                                           |
//! |--------|------------------------------------------------------------------------------------------------|
//! | bytes  | the declared `Content-Length`, when within the request's body limit; a chunked body, that limit |
//! | time   | `--client-request-timeout` [5 s] from the refusal, the time a served body has too               |
//! | memory | none of the budget (a refused request holds no reservation); one chunk at a time, in actix's read buffer and payload queue, the per-connection part of the base |
//!
//! Once the body has ended, the connection closes cleanly: nothing unread is
//! left for the kernel to answer with a reset, and the client reads the whole
//! answer. A body past a bound (declared longer than the limit, still coming
//! at the deadline, or cut off) ends the drain: the connection then closes as
//! for any body refused unread, after `--client-disconnect-timeout` of
//! discarding (the module docs of [`super::json`]). A drain waiting for its
//! client is also subject to the connection guard (`--stall-timeout`, and
//! shedding near `--max-connections`), like any connection: a slow sender
//! cannot hold a connection longer than a served body could.
//!
//! What draining costs is reading: at most the bytes a served request of the
//! same size would have read (without parsing them), on a connection that
//! holds no budget.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_web::body::{BodySize, BoxBody, MessageBody};
use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::rt::time::{Sleep, sleep};
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, HttpResponseBuilder};
use futures_core::Stream;

/// How much of a refused request's body is read and dropped after its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrainBound {
    /// At most this many bytes of the body (0: none; the connection closes
    /// after the answer as for any unread body).
    bytes: u64,
    /// Within this long from the answer (`None`: no limit but the guard's).
    within: Option<Duration>,
}

impl DrainBound {
    /// The bound for `request`, whose body may be `limit` bytes: its declared
    /// length when within the limit (none when over it), else the limit;
    /// within `within` (the body timeout).
    pub fn of(request: &HttpRequest, limit: usize, within: Option<Duration>) -> Self {
        let limit = limit as u64;
        let declared = request
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.parse::<u64>().ok());
        let bytes = match declared {
            Some(length) if length <= limit => length,
            Some(_) => 0,
            None => limit,
        };
        DrainBound { bytes, within }
    }
}

/// The bound for a request refused before its route ran (an API key's 401,
/// 403 or 429): the body limit its route would read to (a batch's for
/// `/batch` paths, as a refused batch drains, else the route's JSON limit),
/// within the body timeout.
pub fn before_route(request: &HttpRequest) -> DrainBound {
    let limit = if request.path().ends_with("/batch") {
        super::json_batch::body_limit(request)
    } else {
        super::json::body_limit(request)
    };
    let within = request
        .app_data::<super::json::BodyTimeout>()
        .and_then(|timeout| timeout.0);
    DrainBound::of(request, limit, within)
}

/// `answer` with `Connection: close`, then `unread` read to its end within
/// `bound` (see the module docs).
pub fn answer_then_drain(
    mut response: HttpResponseBuilder,
    answer: impl Into<Bytes>,
    unread: Payload,
    bound: DrainBound,
) -> HttpResponse {
    response.force_close();
    let answer: Bytes = answer.into();
    response.body(BoxBody::new(AnswerThenDrain {
        size: answer.len() as u64,
        answer: Some(answer),
        unread,
        left: bound.bytes,
        within: bound.within,
        deadline: None,
    }))
}

/// The answer's bytes, then the request's body drained. actix-http writes
/// the answer as soon as it is given, and closes the connection when this
/// body ends: cleanly if the request's body has ended too, else after its
/// disconnect timeout (an unfinished request body means "close").
struct AnswerThenDrain {
    size: u64,
    answer: Option<Bytes>,
    unread: Payload,
    /// Bytes of the body that may still be read.
    left: u64,
    within: Option<Duration>,
    /// Set when the drain starts, right after the answer.
    deadline: Option<Pin<Box<Sleep>>>,
}

impl AnswerThenDrain {
    /// `Ready` once the body has ended or passed a bound; `Pending` while the
    /// client may still send.
    fn poll_drain(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        loop {
            match Pin::new(&mut self.unread).poll_next(cx) {
                Poll::Ready(Some(Ok(chunk))) => match self.left.checked_sub(chunk.len() as u64) {
                    Some(left) => self.left = left,
                    None => return Poll::Ready(()),
                },
                // The end of the body, or a body cut off or malformed.
                Poll::Ready(Some(Err(_)) | None) => return Poll::Ready(()),
                Poll::Pending => break,
            }
        }
        let Some(within) = self.within else {
            return Poll::Pending;
        };
        self.deadline
            .get_or_insert_with(|| Box::pin(sleep(within)))
            .as_mut()
            .poll(cx)
    }
}

impl MessageBody for AnswerThenDrain {
    type Error = std::convert::Infallible;

    fn size(&self) -> BodySize {
        BodySize::Sized(self.size)
    }

    fn poll_next(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Bytes, Self::Error>>> {
        let this = self.get_mut();
        if let Some(answer) = this.answer.take() {
            return Poll::Ready(Some(Ok(answer)));
        }
        if this.left == 0 {
            return Poll::Ready(None);
        }
        this.poll_drain(cx).map(|()| None)
    }
}

#[cfg(test)]
mod tests {
    use std::task::Waker;

    use actix_web::error::PayloadError;
    use actix_web::test::TestRequest;
    use tokio::sync::mpsc;

    use super::*;

    /// A request body fed by the test, chunk by chunk.
    struct Sent(mpsc::UnboundedReceiver<Bytes>);

    impl Stream for Sent {
        type Item = Result<Bytes, PayloadError>;

        fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
            self.0.poll_recv(cx).map(|chunk| chunk.map(Ok))
        }
    }

    fn refusal(
        bytes: u64,
        within: Option<Duration>,
    ) -> (AnswerThenDrain, mpsc::UnboundedSender<Bytes>) {
        let (client, body) = mpsc::unbounded_channel();
        let sent: Pin<Box<dyn Stream<Item = Result<Bytes, PayloadError>>>> = Box::pin(Sent(body));
        let unread = Payload::Stream { payload: sent };
        let answer = Bytes::from_static(b"{\"code\":\"overloaded\"}");
        let body = AnswerThenDrain {
            size: answer.len() as u64,
            answer: Some(answer),
            unread,
            left: bytes,
            within,
            deadline: None,
        };
        (body, client)
    }

    fn poll(body: &mut AnswerThenDrain) -> Poll<Option<Bytes>> {
        let mut cx = Context::from_waker(Waker::noop());
        Pin::new(body)
            .poll_next(&mut cx)
            .map(|chunk| chunk.map(|chunk| chunk.unwrap_or_else(|never| match never {})))
    }

    #[actix_web::test]
    async fn the_answer_comes_first_and_the_body_is_read_to_its_end() {
        let (mut body, client) = refusal(30, None);
        assert_eq!(body.size(), BodySize::Sized(21));
        assert!(matches!(poll(&mut body), Poll::Ready(Some(answer)) if answer.len() == 21));
        assert!(
            poll(&mut body).is_pending(),
            "the client has sent nothing yet"
        );
        client.send(Bytes::from_static(&[b' '; 10])).unwrap();
        client.send(Bytes::from_static(&[b' '; 10])).unwrap();
        assert!(poll(&mut body).is_pending(), "10 bytes still to come");
        assert_eq!(body.left, 10);
        client.send(Bytes::from_static(&[b' '; 10])).unwrap();
        drop(client);
        assert_eq!(poll(&mut body), Poll::Ready(None));
        assert_eq!(body.left, 0);
    }

    #[actix_web::test]
    async fn a_body_past_its_bound_ends_the_drain_unread() {
        let (mut body, client) = refusal(15, None);
        assert!(poll(&mut body).is_ready());
        client.send(Bytes::from_static(&[b' '; 10])).unwrap();
        client.send(Bytes::from_static(&[b' '; 10])).unwrap();
        assert_eq!(poll(&mut body), Poll::Ready(None), "5 bytes past the bound");
        assert!(!client.is_closed(), "the rest is left unread");
    }

    #[actix_web::test]
    async fn a_body_not_sent_within_the_deadline_ends_the_drain() {
        let (mut body, client) = refusal(1000, Some(Duration::from_millis(20)));
        assert!(poll(&mut body).is_ready());
        client.send(Bytes::from_static(&[b' '; 10])).unwrap();
        let ended = std::future::poll_fn(|cx| Pin::new(&mut body).poll_next(cx)).await;
        assert!(ended.is_none());
        assert_eq!(body.left, 990);
        assert!(!client.is_closed());
    }

    #[test]
    fn the_bound_is_the_declared_length_within_the_limit() {
        let within = Some(Duration::from_secs(5));
        let declared = |length: &str| {
            TestRequest::default()
                .insert_header((header::CONTENT_LENGTH, length))
                .to_http_request()
        };
        assert_eq!(
            DrainBound::of(&declared("300"), 1000, within),
            DrainBound { bytes: 300, within }
        );
        assert_eq!(
            DrainBound::of(&declared("1001"), 1000, within),
            DrainBound { bytes: 0, within }
        );
        let chunked = TestRequest::default().to_http_request();
        assert_eq!(
            DrainBound::of(&chunked, 1000, None),
            DrainBound {
                bytes: 1000,
                within: None
            }
        );
    }
}
