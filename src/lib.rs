//! gin-referee placeholder crate root (replaced as modules land).
pub mod rules;
