//! The parts of the OpenAPI document that do not come from handlers: info, tags
//! and the shared error schemas. Paths are collected by `utoipa_actix_web` from
//! the same `service(...)` calls that route requests (see [`crate::routes::configure`]).

use utoipa::OpenApi;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{AdditionalProperties, ArrayItems, Schema};

use super::problem::{FieldError, Problem};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "gin-referee",
        description = "A stateless referee for Gin Rummy. It validates melds, finds the \
least deadwood of a hand and its best discard, works out the defender's layoffs, scores a \
hand, and scores a whole match for two players, three players or two partnerships under \
rule presets (standard, Oklahoma, Hollywood, ...), jokers optional. It audits a hand or a \
whole match played from the deal, action by action; deals provably fair hands from \
committed seeds (`POST /v1/deals`); signs answers with receipts anyone can verify offline \
(`GET /v1/keys`); and answers many requests in one bulk call (`POST /v1/{resource}/batch`, \
NDJSON or a JSON array).\n\n\
**Cards** are strings: rank `A 2 3 4 5 6 7 8 9 T J Q K` (also `10`) then suit `S H D C` \
(also `♠ ♥ ♦ ♣`), any case; answers write `\"TS\"`, `\"AH\"`.\n\n\
**Errors** are `application/problem+json` (RFC 9457) with a stable snake_case `code` and, \
where it helps, `errors[]` with a JSON Pointer into the body. Every code with its meaning: \
[`/problems`](/problems) (each `type`, `/problems/<code>`, is its page); the `Problem` \
schema lists them, and each operation its own, one example each. A request that asks \
whether something is valid gets 200 and a verdict; 422 is for one that cannot be answered. \
Every answer carries `X-Request-Id`.",
        license(name = "Apache-2.0", identifier = "Apache-2.0"),
    ),
    tags(
        (name = "melds", description = "Is a group of cards a meld?"),
        (name = "hands", description = "Optimal arrangements, hand scoring and hand audits."),
        (name = "layoffs", description = "What the defender can lay off on the knocker's melds."),
        (name = "matches", description = "Scoring a whole match from its hands, and auditing one from its record."),
        (name = "ratings", description = "Players' skill ratings (Weng-Lin) from results."),
        (name = "receipts", description = "The public keys that verify signed receipts."),
        (name = "profiles", description = "Rule presets (standard, Oklahoma, Hollywood, ...) and their parameters."),
        (name = "operations", description = "Probes and metrics for running the service."),
        (name = "errors", description = "The error codes: what each problem `code` means."),
    ),
    components(schemas(Problem, FieldError)),
)]
pub struct ApiDoc;

pub use gin_contract::wire::any_json;

/// Names every error code in the problem schemas, from the one table (see
/// [`gin_contract::error_codes`]): `Problem.code` lists the problem codes and
/// `FieldError.code` the field codes, so that the document alone tells a
/// generator or a reader every code. A description rather than an `enum`: a
/// client generated today must still read a code added tomorrow. (The table
/// itself, with each code's meaning, is `GET /problems`, not the document's
/// description, which stays one screen above the operations.)
pub fn list_error_codes(api: &mut utoipa::openapi::OpenApi) {
    use gin_contract::error_codes::{ErrorCode, Scope};
    let listed = |scope: Scope| {
        ErrorCode::ALL
            .iter()
            .filter(|code| code.scope() == scope)
            .map(|code| format!("`{}`", code.as_str()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let Some(components) = api.components.as_mut() else {
        return;
    };
    let lists = [
        (
            "Problem",
            format!(
                "\n\nOne of {}. Each is described at `/problems/<code>`.",
                listed(Scope::Problem)
            ),
        ),
        (
            "FieldError",
            format!(
                "\n\nOne of the field codes {}, or the problem's own code (listed in `Problem`).",
                listed(Scope::Field)
            ),
        ),
    ];
    for (schema, list) in lists {
        if let Some(RefOr::T(Schema::Object(object))) = components.schemas.get_mut(schema)
            && let Some(RefOr::T(Schema::Object(code))) = object.properties.get_mut("code")
        {
            code.description
                .get_or_insert_with(String::new)
                .push_str(&list);
        }
    }
}

/// Last touches on the assembled document, on every schema of its components:
/// a property whose `enum` has one value is written as that `const` (the tag
/// of each `Action` variant), which generators turn into a literal type
/// instead of a one-member enum class each. (Only properties: a generated
/// client tries the branches of a `oneOf` in turn, and one Python generator
/// fails on a `const` branch instead of trying the next; `KnockLimit`'s
/// `"upcard"` stays a titled enum.)
pub fn finish(api: &mut utoipa::openapi::OpenApi) {
    if let Some(components) = api.components.as_mut() {
        for schema in components.schemas.values_mut() {
            single_values_as_const(schema, false);
        }
    }
}

/// The `POST` operation documented at `path`, for the passes that add to
/// one operation's entry after utoipa has built the document.
pub fn post_operation<'a>(
    api: &'a mut utoipa::openapi::OpenApi,
    path: &str,
) -> Option<&'a mut utoipa::openapi::path::Operation> {
    api.paths
        .paths
        .get_mut(path)
        .and_then(|item| item.post.as_mut())
}

fn single_values_as_const(schema: &mut RefOr<Schema>, property: bool) {
    let RefOr::T(schema) = schema else {
        return;
    };
    match schema {
        Schema::Object(object) => {
            if property && let Some([value]) = object.enum_values.as_deref() {
                let value = value.clone();
                object.enum_values = None;
                object
                    .extensions
                    .get_or_insert_with(Default::default)
                    .insert("const".to_owned(), value);
            }
            for property in object.properties.values_mut() {
                single_values_as_const(property, true);
            }
            if let Some(additional) = object.additional_properties.as_deref_mut()
                && let AdditionalProperties::RefOr(schema) = additional
            {
                single_values_as_const(schema, false);
            }
        }
        Schema::Array(array) => {
            if let ArrayItems::RefOrSchema(items) = &mut array.items {
                single_values_as_const(items, false);
            }
        }
        Schema::OneOf(one_of) => {
            for item in &mut one_of.items {
                single_values_as_const(item, false);
            }
        }
        Schema::AllOf(all_of) => {
            for item in &mut all_of.items {
                single_values_as_const(item, false);
            }
        }
        Schema::AnyOf(any_of) => {
            for item in &mut any_of.items {
                single_values_as_const(item, false);
            }
        }
        _ => {}
    }
}
