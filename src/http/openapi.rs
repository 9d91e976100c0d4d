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
        description = "Referee for Gin Rummy over HTTP: validates melds, finds the \
optimal deadwood of a hand, lays off, scores hands and whole matches under several \
rule profiles, and audits a hand played from the deal.\n\n\
## Cards\n\n\
A card is a string: rank `A 2 3 4 5 6 7 8 9 T J Q K` (also `10`, any case) then suit \
`S H D C` (also `♠ ♥ ♦ ♣`, any case). Responses always use the canonical form: `\"TS\"`, `\"AH\"`.\n\n\
## Errors\n\n\
Every error is `application/problem+json` (RFC 9457) with `type`, `title`, `status`, \
`detail` and a stable snake_case `code`; `type` is `/problems/<code>`, a page this \
service serves (`GET /problems` lists every code). \
Where it helps, `errors` lists each offending input as `{\"pointer\", \"code\", \"message\"}` \
with a JSON Pointer into the request body (`/knocker/hand/3`). Each operation lists the \
codes it can answer with under its error responses, one example each; the whole table \
closes this description.\n\n\
A request that asks whether something is valid gets 200 and a verdict; 422 is for \
requests that cannot be answered.\n\n\
## Request ids\n\n\
Every response carries `X-Request-Id`: the one the client sent (1 to 128 visible ASCII \
characters) or a generated UUID. Log lines of the request carry the same id.",
        license(name = "Apache-2.0", identifier = "Apache-2.0"),
    ),
    tags(
        (name = "melds", description = "Is a group of cards a meld?"),
        (name = "hands", description = "Optimal arrangements, hand scoring and hand audits."),
        (name = "layoffs", description = "What the defender can lay off on the knocker's melds."),
        (name = "matches", description = "Scoring a whole match from its hands, and auditing one from its record."),
        (name = "receipts", description = "The public keys that verify signed receipts."),
        (name = "profiles", description = "Rule presets (standard, Oklahoma, Hollywood, ...) and their parameters."),
        (name = "operations", description = "Probes and metrics for running the service."),
        (name = "errors", description = "The error codes: what each problem `code` means."),
    ),
    components(schemas(Problem, FieldError)),
)]
pub struct ApiDoc;

/// The schema of a field that holds any JSON value (an echoed `id`, a claimed
/// value): a schema without a `type`, which every JSON value matches and which
/// client generators read as "any" (a list of every type is not: generators
/// split it into a union and give up on an array without `items`).
pub fn any_json() -> utoipa::openapi::schema::Object {
    use utoipa::openapi::schema::{ObjectBuilder, SchemaType};
    ObjectBuilder::new()
        .schema_type(SchemaType::AnyValue)
        .description(Some("Any JSON value."))
        .build()
}

/// Closes the document's description with the error table (see
/// [`super::error_codes`]), so that it is generated from the same rows as
/// every problem.
pub fn append_error_table(api: &mut utoipa::openapi::OpenApi) {
    if let Some(description) = api.info.description.as_mut() {
        description.push_str("\n\n## Error codes\n\n");
        description.push_str(&super::error_codes::markdown_table());
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
