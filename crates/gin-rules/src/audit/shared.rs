//! Read-only data the referee reads (the profile, the listed stock):
//! borrowed for the length of one replay, or shared (reference-counted) by
//! a hand held between calls ([`super::LiveHand`]), so that copying a held
//! hand copies pointers, not the deal.

use std::ops::Deref;
use std::sync::Arc;

/// Borrowed for a replay, or shared by a held hand.
#[derive(Debug)]
pub(super) enum Shared<'a, T: ?Sized> {
    Borrowed(&'a T),
    Owned(Arc<T>),
}

impl<T: ?Sized> Clone for Shared<'_, T> {
    fn clone(&self) -> Self {
        match self {
            Shared::Borrowed(value) => Shared::Borrowed(value),
            Shared::Owned(value) => Shared::Owned(Arc::clone(value)),
        }
    }
}

impl<T: ?Sized> Deref for Shared<'_, T> {
    type Target = T;

    fn deref(&self) -> &T {
        match self {
            Shared::Borrowed(value) => value,
            Shared::Owned(value) => value,
        }
    }
}
