//! `gin_referee.Problem` from the native side: the same problem+json document
//! the service answers (`src/http/problem.rs`, `ProblemDocument`), raised as
//! the Python exception class `gin_referee._problem.Problem`.
//!
//! The codes the native functions raise are rows of the service's one error
//! table (`src/http/error_codes.rs`); their status and title are copied here
//! for the few codes this module raises itself. Once the actix-free contract
//! crate (`crates/gin-contract`) is a dependency, its `Problem` replaces this
//! copy (its `to_json` document goes straight to [`raise_document`]).

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// The codes this module raises by itself, with the service's status and title.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    /// 400: input that is not the shape asked for (an unreadable card, a bit
    /// past the deck); its `errors[]` entry has the field code.
    InvalidBody,
    /// 400: a profile name that is not a preset.
    UnknownProfile,
    /// 422: a card twice.
    DuplicateCard,
    /// 422: a hand of neither 10 nor 11 cards.
    WrongCardCount,
    /// 422: a joker where a mask holds none.
    JokerNotInDeck,
    /// 422: the profile's knock limit is the upcard's value, and none was given.
    UpcardRequired,
    /// 422: profile parameters that mean nothing together.
    InvalidProfileCombination,
    /// 400: a profile parameter out of range.
    InvalidProfile,
}

impl Code {
    /// The code as clients see it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Code::InvalidBody => "invalid_body",
            Code::UnknownProfile => "unknown_profile",
            Code::DuplicateCard => "duplicate_card",
            Code::WrongCardCount => "wrong_card_count",
            Code::JokerNotInDeck => "joker_not_in_deck",
            Code::UpcardRequired => "upcard_required",
            Code::InvalidProfileCombination => "invalid_profile_combination",
            Code::InvalidProfile => "invalid_profile",
        }
    }

    const fn status(self) -> u16 {
        match self {
            Code::InvalidBody | Code::UnknownProfile | Code::InvalidProfile => 400,
            Code::DuplicateCard
            | Code::WrongCardCount
            | Code::JokerNotInDeck
            | Code::UpcardRequired
            | Code::InvalidProfileCombination => 422,
        }
    }

    const fn title(self) -> &'static str {
        match self {
            Code::InvalidBody => "Invalid body",
            Code::UnknownProfile => "Unknown profile",
            Code::DuplicateCard => "Duplicate card",
            Code::WrongCardCount => "Wrong card count",
            Code::JokerNotInDeck => "Joker not in deck",
            Code::UpcardRequired => "Upcard required",
            Code::InvalidProfileCombination => "Invalid profile combination",
            Code::InvalidProfile => "Invalid profile",
        }
    }

    /// The code of a rules-library profile error (`ProfileError::code`).
    pub fn of_profile_error(error: &gin_rules::ProfileError) -> Code {
        match error {
            gin_rules::ProfileError::UnknownPreset(_) => Code::UnknownProfile,
            gin_rules::ProfileError::InvalidParameter { .. } => Code::InvalidProfile,
            gin_rules::ProfileError::Combination { .. } => Code::InvalidProfileCombination,
            gin_rules::ProfileError::UpcardRequired { .. } => Code::UpcardRequired,
        }
    }
}

/// One offending part of the input: a JSON Pointer (into the argument: `/3` is
/// its item 3), a field code and a message.
pub struct FieldError {
    pub pointer: String,
    pub code: &'static str,
    pub message: String,
}

/// A problem on its way to Python.
pub struct Problem {
    pub code: Code,
    pub detail: String,
    pub errors: Vec<FieldError>,
}

impl Problem {
    /// A problem whose one `errors[]` entry points at `pointer`.
    pub fn at(code: Code, pointer: String, field_code: &'static str, detail: String) -> Problem {
        Problem {
            code,
            errors: vec![FieldError {
                pointer,
                code: field_code,
                message: detail.clone(),
            }],
            detail,
        }
    }

    /// The problem document as a Python dict, shaped as the service's.
    fn document<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let document = PyDict::new(py);
        document.set_item("type", format!("/problems/{}", self.code.as_str()))?;
        document.set_item("title", self.code.title())?;
        document.set_item("status", self.code.status())?;
        document.set_item("detail", &self.detail)?;
        document.set_item("code", self.code.as_str())?;
        if !self.errors.is_empty() {
            let errors = PyList::empty(py);
            for error in &self.errors {
                let entry = PyDict::new(py);
                entry.set_item("pointer", &error.pointer)?;
                entry.set_item("code", error.code)?;
                entry.set_item("message", &error.message)?;
                errors.append(entry)?;
            }
            document.set_item("errors", errors)?;
        }
        Ok(document)
    }
}

/// The Python exception for a problem document (a dict, or problem+json
/// bytes): an instance of `gin_referee.Problem`.
pub fn raise_document(py: Python<'_>, document: Bound<'_, PyAny>) -> PyErr {
    let built = py
        .import("gin_referee._problem")
        .and_then(|module| module.getattr("Problem"))
        .and_then(|class| class.call1((document,)));
    match built {
        Ok(exception) => PyErr::from_value(exception),
        // The package is installed with its Python half, so this is a broken
        // installation: say so rather than lose the problem.
        Err(cause) => {
            let error = PyRuntimeError::new_err(
                "gin_referee._problem.Problem could not be raised (broken installation?)",
            );
            error.set_cause(py, Some(cause));
            error
        }
    }
}

impl Problem {
    /// The `gin_referee.Problem` exception of this problem.
    pub fn into_pyerr(self, py: Python<'_>) -> PyErr {
        match self.document(py) {
            Ok(document) => raise_document(py, document.into_any()),
            Err(error) => error,
        }
    }
}
