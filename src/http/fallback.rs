//! What answers when no route matches: 404 for an unknown path, 405 with an
//! `Allow` header for a known path asked with the wrong method.
//!
//! actix routes `#[get]`/`#[post]` handlers with a method *guard*, so a request
//! with another method simply matches nothing and lands here like an unknown
//! path. To tell the two apart, [`Routes`] holds every registered path pattern
//! with its methods, read from the OpenAPI document that the same registration
//! produced (plus the few routes the document leaves out, such as Swagger UI), so
//! there is no second list of routes to keep in step.

use actix_web::dev::ResourceDef;
use actix_web::http::{Method, header};
use actix_web::{HttpMessage, HttpRequest, HttpResponse, web};
use utoipa::openapi::OpenApi;

use super::observe::FallbackRoute;
use super::problem::ProblemResponse;
use super::problem::{ErrorCode, Problem};

/// Every known path pattern and the methods it answers.
#[derive(Debug, Default)]
pub struct Routes {
    entries: Vec<Route>,
}

#[derive(Debug)]
struct Route {
    pattern: String,
    resource: ResourceDef,
    methods: Vec<Method>,
}

impl Routes {
    /// The operations of an OpenAPI document. Its paths use actix's own
    /// `{name}` placeholder syntax, so they parse as route patterns again.
    pub fn from_openapi(api: &OpenApi) -> Self {
        let mut routes = Routes::default();
        for (path, item) in &api.paths.paths {
            let operations = [
                (Method::GET, &item.get),
                (Method::PUT, &item.put),
                (Method::POST, &item.post),
                (Method::DELETE, &item.delete),
                (Method::OPTIONS, &item.options),
                (Method::HEAD, &item.head),
                (Method::PATCH, &item.patch),
                (Method::TRACE, &item.trace),
            ];
            let methods: Vec<Method> = operations
                .into_iter()
                .filter(|(_, operation)| operation.is_some())
                .map(|(method, _)| method)
                .collect();
            routes = routes.with(path, &methods);
        }
        routes
    }

    /// Adds a route that is not in the OpenAPI document.
    pub fn with(mut self, pattern: &str, methods: &[Method]) -> Self {
        match self
            .entries
            .iter_mut()
            .find(|route| route.pattern == pattern)
        {
            Some(route) => route.methods.extend_from_slice(methods),
            None => self.entries.push(Route {
                pattern: pattern.to_owned(),
                resource: ResourceDef::new(pattern),
                methods: methods.to_vec(),
            }),
        }
        self
    }

    /// The first pattern matching `path` and the methods of every matching
    /// pattern, or `None` when the path is unknown.
    fn allowed(&self, path: &str) -> Option<(&str, Vec<Method>)> {
        let mut matching = self
            .entries
            .iter()
            .filter(|route| route.resource.is_match(path));
        let first = matching.next()?;
        let mut methods = first.methods.clone();
        for route in matching {
            methods.extend_from_slice(&route.methods);
        }
        methods.sort_by(|a, b| a.as_str().cmp(b.as_str()));
        methods.dedup();
        Some((&first.pattern, methods))
    }
}

/// The app's default service.
pub async fn fallback(req: HttpRequest, routes: Option<web::Data<Routes>>) -> HttpResponse {
    let path = req.path();
    let allowed = routes.as_deref().and_then(|routes| routes.allowed(path));
    match allowed {
        Some((pattern, methods)) if !methods.is_empty() => {
            req.extensions_mut()
                .insert(FallbackRoute(pattern.to_owned()));
            let allow = methods
                .iter()
                .map(Method::as_str)
                .collect::<Vec<_>>()
                .join(", ");
            let problem = Problem::new(
                ErrorCode::MethodNotAllowed,
                format!(
                    "{} is not allowed on {path}; allowed: {allow}",
                    req.method()
                ),
            )
            .with_instance(path);
            problem
                .response_builder()
                .insert_header((header::ALLOW, allow))
                .body(problem.body())
        }
        _ => Problem::new(ErrorCode::NotFound, format!("no resource at {path}"))
            .with_instance(path)
            .to_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn routes() -> Routes {
        Routes::default()
            .with("/healthz", &[Method::GET])
            .with("/v1/profiles/{name}", &[Method::GET])
            .with("/v1/profiles/{name}", &[Method::DELETE])
            .with("/docs/{tail}*", &[Method::GET])
    }

    #[test]
    fn a_known_path_reports_its_pattern_and_methods() {
        let routes = routes();
        let (pattern, methods) = routes.allowed("/v1/profiles/oklahoma").expect("known path");
        assert_eq!(pattern, "/v1/profiles/{name}");
        assert_eq!(methods, vec![Method::DELETE, Method::GET]);
    }

    #[test]
    fn an_unknown_path_is_not_allowed_anything() {
        assert!(routes().allowed("/v1/nothing").is_none());
        assert!(routes().allowed("/healthz/extra").is_none());
    }

    #[test]
    fn tail_patterns_match_nested_paths() {
        assert!(routes().allowed("/docs/index.css").is_some());
    }
}
