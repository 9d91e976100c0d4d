//! The one middleware every request passes through: request id, tracing span,
//! access log line, metrics, and the safety net that keeps errors in the
//! problem+json shape and turns a panic into a 500 instead of a dropped
//! connection.
//!
//! One middleware rather than a stack of four because it sits on the hot path:
//! one boxed future and one clock read per request.
//!
//! Every response leaves with `X-Content-Type-Options: nosniff` (problems
//! carry it from [`Problem`] too, for the few answers actix renders from an
//! error after this middleware).

use std::future::{Future, Ready, ready};
use std::marker::PhantomData;
use std::panic::AssertUnwindSafe;
use std::pin::{Pin, pin};
use std::rc::Rc;
use std::task::Poll;
use std::time::Instant;

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{Service, ServiceRequest, ServiceResponse, Transform, forward_ready};
use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::{Error, HttpMessage, web};
use tracing::Instrument;
use tracing::field::Empty;

use super::admission::auth;
use super::admission::budget::hold_answer;
use super::problem::{ErrorCode, NOSNIFF, PROBLEM_JSON, Problem, X_CONTENT_TYPE_OPTIONS};
use super::problem::{HttpProblem, ProblemResponse};
use crate::monitoring::metrics::{Metrics, UNKNOWN_ROUTE, UNMATCHED};

/// Header carrying the request id, both ways.
pub const X_REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Log target of the one line logged per request.
pub const ACCESS_LOG: &str = "gin_referee::access";

/// Longest client-supplied request id we keep; longer ones are replaced.
const MAX_REQUEST_ID_LEN: usize = 128;

/// The id of the current request: the client's `X-Request-Id` when it is 1 to
/// 128 visible ASCII characters, otherwise a fresh UUID v4. Handlers can read it
/// from the request extensions; it is echoed in the response header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestId(String);

impl RequestId {
    fn from_request(req: &ServiceRequest) -> Self {
        let supplied = req
            .headers()
            .get(&X_REQUEST_ID)
            .and_then(|value| value.to_str().ok())
            .filter(|id| is_acceptable_request_id(id));
        match supplied {
            Some(id) => RequestId(id.to_owned()),
            None => RequestId(uuid::Uuid::new_v4().to_string()),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Visible ASCII only: the id goes into log lines and a response header, so no
/// spaces, control characters or anything that could forge a log line.
fn is_acceptable_request_id(id: &str) -> bool {
    (1..=MAX_REQUEST_ID_LEN).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_graphic())
}

/// Route label for a request that matched no route but whose path exists under
/// other methods (a 405): set by the fallback so the metric names the route.
#[derive(Debug, Clone)]
pub struct FallbackRoute(pub String);

/// The middleware factory; register it with `App::wrap`.
pub struct Observe {
    metrics: web::Data<Metrics>,
}

impl Observe {
    pub fn new(metrics: web::Data<Metrics>) -> Self {
        Observe { metrics }
    }
}

/// The services [`Observe`] wraps: actix's, answering with a body `B`.
pub trait Wrapped<B>:
    Service<ServiceRequest, Response = ServiceResponse<B>, Error = Error> + 'static
{
}

impl<S, B> Wrapped<B> for S where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = Error> + 'static
{
}

/// The bodies a wrapped service may answer with.
pub trait Body: MessageBody + Unpin + 'static {}

impl<B: MessageBody + Unpin + 'static> Body for B {}

/// What [`Observe`] answers: the wrapped service's body, or a problem's.
type Observed<B> = ServiceResponse<EitherBody<B>>;

// `B` is named by `S`'s `Response` here (an associated type binding), so
// that the impl constrains it; `Wrapped<B>` alone would not.
impl<S, B: Body> Transform<S, ServiceRequest> for Observe
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = Error> + 'static,
{
    type Response = Observed<B>;
    type Error = Error;
    type Transform = ObserveService<S, B>;
    type InitError = ();
    type Future = Ready<Result<Self::Transform, Self::InitError>>;

    fn new_transform(&self, service: S) -> Self::Future {
        ready(Ok(ObserveService {
            service: Rc::new(service),
            metrics: self.metrics.clone(),
            body: PhantomData,
        }))
    }
}

/// The middleware around one service `S` answering with a body `B`.
pub struct ObserveService<S, B> {
    service: Rc<S>,
    metrics: web::Data<Metrics>,
    body: PhantomData<fn() -> B>,
}

type BoxedResponse<B> = Pin<Box<dyn Future<Output = Result<Observed<B>, Error>>>>;

impl<S: Wrapped<B>, B: Body> Service<ServiceRequest> for ObserveService<S, B> {
    type Response = Observed<B>;
    type Error = Error;
    type Future = BoxedResponse<B>;

    forward_ready!(service);

    fn call(&self, req: ServiceRequest) -> Self::Future {
        let started = Instant::now();
        let request_id = RequestId::from_request(&req);
        let method = req.method().clone();
        let span = tracing::info_span!(
            "request",
            method = %method,
            path = %req.path(),
            route = Empty,
            status = Empty,
            latency_ms = Empty,
            request_id = %request_id.as_str(),
        );
        req.extensions_mut().insert(request_id.clone());
        let metrics = self.metrics.clone();
        // Who may call is decided here, before anything reads the body.
        let (admitted, key) = match auth::admit(req, started) {
            Ok((req, key)) => (Ok(req), key),
            Err((refusal, key)) => (Err(refusal), key),
        };
        // Extractors and routing run inside `call`, so a panic can start here too.
        let inner = admitted.map(|req| {
            span.in_scope(|| std::panic::catch_unwind(AssertUnwindSafe(|| self.service.call(req))))
        });

        Box::pin(
            async move {
                let outcome = match inner {
                    Ok(Ok(inner)) => catch_unwind(inner)
                        .await
                        .map(|answered| answered.map(into_problem_if_error)),
                    Ok(Err(payload)) => Err(payload),
                    Err(refusal) => Ok(Ok((*refusal).map_into_right_body())),
                };
                let key = key.as_deref();
                let seconds = started.elapsed().as_secs_f64();
                let span = tracing::Span::current();
                match outcome {
                    Ok(Ok(response)) => {
                        let mut response = hold_answer(response);
                        let route = route_label(&response);
                        let status = response.status();
                        metrics.observe(&method, &route, status, seconds);
                        if let Some(code) = response.response().extensions().get::<ErrorCode>() {
                            metrics.count_problem(*code, &route);
                        }
                        log_completion(&span, &route, status, seconds, key);
                        let headers = response.headers_mut();
                        if let Ok(value) = HeaderValue::from_str(request_id.as_str()) {
                            headers.insert(X_REQUEST_ID, value);
                        }
                        headers.insert(X_CONTENT_TYPE_OPTIONS, NOSNIFF);
                        Ok(response)
                    }
                    // Only a middleware inside this one could fail this way (handler
                    // errors are already responses); actix renders the error itself.
                    Ok(Err(err)) => {
                        let status = err.as_response_error().status_code();
                        metrics.observe(&method, UNKNOWN_ROUTE, status, seconds);
                        log_completion(&span, UNKNOWN_ROUTE, status, seconds, key);
                        Err(err)
                    }
                    Err(panic) => {
                        let status = StatusCode::INTERNAL_SERVER_ERROR;
                        tracing::error!(panic = panic_message(&panic), "handler panicked");
                        metrics.observe(&method, UNKNOWN_ROUTE, status, seconds);
                        metrics.count_problem(ErrorCode::InternalError, UNKNOWN_ROUTE);
                        log_completion(&span, UNKNOWN_ROUTE, status, seconds, key);
                        Err(HttpProblem(Problem::internal_unlogged()).into())
                    }
                }
            }
            .instrument(span),
        )
    }
}

/// Polls `future`, turning a panic inside it into `Err` with the panic payload.
async fn catch_unwind<F: Future>(future: F) -> Result<F::Output, Box<dyn std::any::Any + Send>> {
    let mut future = pin!(future);
    std::future::poll_fn(|cx| {
        // The future is dropped right after a panic, never polled again, so no
        // broken invariant inside it can be observed.
        match std::panic::catch_unwind(AssertUnwindSafe(|| future.as_mut().poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(output)) => Poll::Ready(Ok(output)),
            Err(payload) => Poll::Ready(Err(payload)),
        }
    })
    .await
}

fn panic_message(payload: &Box<dyn std::any::Any + Send>) -> &str {
    if let Some(message) = payload.downcast_ref::<&str>() {
        message
    } else if let Some(message) = payload.downcast_ref::<String>() {
        message
    } else {
        "(non-string panic payload)"
    }
}

fn route_label<B>(response: &ServiceResponse<B>) -> String {
    let request = response.request();
    if let Some(pattern) = request.match_pattern() {
        return pattern;
    }
    match request.extensions().get::<FallbackRoute>() {
        Some(FallbackRoute(route)) => route.clone(),
        None => UNMATCHED.to_owned(),
    }
}

fn log_completion(
    span: &tracing::Span,
    route: &str,
    status: StatusCode,
    seconds: f64,
    key: Option<&str>,
) {
    record_outcome(span, route, status.as_u16(), seconds * 1000.0);
    // A target of its own, so operators can turn the access log off or down
    // (`RUST_LOG=info,gin_referee::access=warn`) and keep everything else.
    // The API key's id (never the key) is a field of the line itself, not of
    // the span: an event's fields are written once, straight into the line,
    // where a span's JSON fields are parsed and written again on every
    // `record` and on every line (about 2,000 instructions for this one
    // field; BENCHMARKS.md, "API keys (issue 34): the admission's cost").
    // `None` writes no field.
    if status.is_server_error() {
        tracing::error!(target: ACCESS_LOG, parent: span, key, "request failed");
    } else {
        tracing::info!(target: ACCESS_LOG, parent: span, key, "request completed");
    }
}

/// Records `route`, `status` and `latency_ms` on the request span in one call.
/// tracing-subscriber's JSON formatter keeps a span's fields as a JSON string
/// and, on every `record`, parses it, adds the new fields and writes it out
/// again: three separate `record` calls cost about 27,000 instructions per
/// request (callgrind; as much as the access-log line itself), one call a third
/// of that. The fields and the log line are the same either way.
fn record_outcome(span: &tracing::Span, route: &str, status: u16, latency_ms: f64) {
    let Some(metadata) = span.metadata() else {
        return; // A disabled span records nothing.
    };
    let fields = metadata.fields();
    if let (Some(route_field), Some(status_field), Some(latency_field)) = (
        fields.field("route"),
        fields.field("status"),
        fields.field("latency_ms"),
    ) {
        span.record_all(&fields.value_set(&[
            (&route_field, Some(&route as &dyn tracing::Value)),
            (&status_field, Some(&status as &dyn tracing::Value)),
            (&latency_field, Some(&latency_ms as &dyn tracing::Value)),
        ]));
    }
}

/// Error responses that are not problem+json yet (from actix itself or from a
/// third-party service such as Swagger UI's 404) are replaced by a problem with
/// the same status, so clients see one error shape. Success responses and
/// problems pass through untouched.
fn into_problem_if_error<B>(response: ServiceResponse<B>) -> ServiceResponse<EitherBody<B>> {
    let status = response.status();
    let is_problem = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|value| value.as_bytes().starts_with(PROBLEM_JSON.as_bytes()));
    if !(status.is_client_error() || status.is_server_error()) || is_problem {
        return response.map_into_left_body();
    }
    let cause = response.response().error().map(ToString::to_string);
    let problem = generic_problem(status, response.request().path(), cause.as_deref());
    let allow = response.headers().get(header::ALLOW).cloned();
    let (request, _) = response.into_parts();
    let mut replacement = problem.to_response();
    if let Some(allow) = allow {
        replacement.headers_mut().insert(header::ALLOW, allow);
    }
    ServiceResponse::new(request, replacement).map_into_right_body()
}

/// The problem replacing an error response that is not one: the code of its
/// status. A client error status without a row of its own (none is expected:
/// actix answers the others before the app) becomes a plain `bad_request`.
fn generic_problem(status: StatusCode, path: &str, cause: Option<&str>) -> Problem {
    if status.is_server_error() {
        tracing::error!(
            status = status.as_u16(),
            error = cause.unwrap_or("(none)"),
            "error response"
        );
        return Problem::internal_unlogged();
    }
    let reason = status.canonical_reason().unwrap_or("Client error");
    let code = match status {
        StatusCode::NOT_FOUND => ErrorCode::NotFound,
        StatusCode::METHOD_NOT_ALLOWED => ErrorCode::MethodNotAllowed,
        StatusCode::REQUEST_TIMEOUT => ErrorCode::RequestTimeout,
        StatusCode::PAYLOAD_TOO_LARGE => ErrorCode::PayloadTooLarge,
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ErrorCode::UnsupportedMediaType,
        _ => ErrorCode::BadRequest,
    };
    let detail = match cause {
        Some(cause) if !cause.is_empty() => format!("{reason}: {cause}"),
        _ => format!("{reason}: {path}"),
    };
    Problem::new(code, detail).with_instance(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::problem::ProblemDocument;
    use actix_web::test::{TestRequest, call_service, init_service, read_body};
    use actix_web::{App, HttpResponse};

    /// A small app behind the middleware (a macro because the service type
    /// returned by `init_service` cannot be named in a function signature).
    macro_rules! app {
        () => {{
            let metrics = web::Data::new(Metrics::new().expect("metrics"));
            init_service(
                App::new()
                    .wrap(Observe::new(metrics.clone()))
                    .app_data(metrics)
                    .route(
                        "/ok/{id}",
                        web::get().to(|| async { HttpResponse::Ok().body("ok") }),
                    )
                    .route(
                        "/teapot",
                        web::get()
                            .to(|| async { HttpResponse::ImATeapot().body("short and stout") }),
                    )
                    .route("/panic", web::get().to(panicking))
                    .route(
                        "/metrics",
                        web::get().to(|m: web::Data<Metrics>| async move {
                            HttpResponse::Ok().body(m.render().unwrap_or_default())
                        }),
                    ),
            )
            .await
        }};
    }

    async fn panicking() -> HttpResponse {
        panic!("boom")
    }

    #[test]
    fn only_visible_ascii_request_ids_are_kept() {
        assert!(is_acceptable_request_id("abc-123_x.y:z"));
        assert!(!is_acceptable_request_id(""));
        assert!(!is_acceptable_request_id("has space"));
        assert!(!is_acceptable_request_id("line\nbreak"));
        assert!(!is_acceptable_request_id(&"x".repeat(129)));
    }

    #[actix_web::test]
    async fn a_supplied_request_id_is_echoed() {
        let app = app!();
        let req = TestRequest::get()
            .uri("/ok/1")
            .insert_header(("x-request-id", "abc-123"))
            .to_request();
        let res = call_service(&app, req).await;
        assert_eq!(
            res.headers().get("x-request-id").map(|v| v.as_bytes()),
            Some(&b"abc-123"[..])
        );
    }

    #[actix_web::test]
    async fn every_response_forbids_content_sniffing() {
        let app = app!();
        for path in ["/ok/1", "/teapot", "/no/such/path", "/metrics"] {
            let res = call_service(&app, TestRequest::get().uri(path).to_request()).await;
            assert_eq!(
                res.headers()
                    .get("x-content-type-options")
                    .map(|v| v.as_bytes()),
                Some(&b"nosniff"[..]),
                "{path}"
            );
        }
        let res = app
            .call(TestRequest::get().uri("/panic").to_request())
            .await
            .err()
            .map(|err| err.error_response());
        let nosniff = res
            .as_ref()
            .and_then(|r| r.headers().get("x-content-type-options"));
        assert_eq!(nosniff.map(|v| v.as_bytes()), Some(&b"nosniff"[..]));
    }

    #[actix_web::test]
    async fn a_missing_request_id_is_generated() {
        let app = app!();
        let res = call_service(&app, TestRequest::get().uri("/ok/1").to_request()).await;
        let id = res
            .headers()
            .get("x-request-id")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        assert!(uuid::Uuid::parse_str(id).is_ok(), "{id:?}");
    }

    #[actix_web::test]
    async fn metrics_use_the_route_pattern_not_the_path() {
        let app = app!();
        call_service(&app, TestRequest::get().uri("/ok/42").to_request()).await;
        call_service(&app, TestRequest::get().uri("/no/such/path").to_request()).await;
        let res = call_service(&app, TestRequest::get().uri("/metrics").to_request()).await;
        let text = String::from_utf8(read_body(res).await.to_vec()).expect("utf-8");
        assert!(text.contains(r#"route="/ok/{id}",status="200""#), "{text}");
        assert!(text.contains(r#"route="unmatched",status="404""#), "{text}");
        assert!(
            !text.contains("/ok/42") && !text.contains("/no/such/path"),
            "{text}"
        );
    }

    #[actix_web::test]
    async fn a_non_problem_error_response_becomes_a_problem() {
        let app = app!();
        let res = call_service(&app, TestRequest::get().uri("/teapot").to_request()).await;
        // A status without a row of its own answers as a plain 400.
        assert_eq!(res.status(), StatusCode::BAD_REQUEST);
        assert_eq!(
            res.headers()
                .get(header::CONTENT_TYPE)
                .map(|v| v.as_bytes()),
            Some(PROBLEM_JSON.as_bytes())
        );
        let problem: ProblemDocument =
            serde_json::from_slice(&read_body(res).await).expect("problem");
        assert_eq!(problem.code, "bad_request");
        assert!(
            problem.detail.starts_with("I'm a teapot"),
            "{}",
            problem.detail
        );
    }

    #[actix_web::test]
    async fn a_panicking_handler_answers_a_500_problem() {
        let app = app!();
        let req = TestRequest::get().uri("/panic").to_request();
        let err = match app.call(req).await {
            Ok(res) => panic!("expected an error, got {}", res.status()),
            Err(err) => err,
        };
        let res = err.error_response();
        assert_eq!(res.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(
            res.headers()
                .get(header::CONTENT_TYPE)
                .map(|v| v.as_bytes()),
            Some(PROBLEM_JSON.as_bytes())
        );
    }
}
