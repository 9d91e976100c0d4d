//! The resources, one file each (several for the audit and the jokers): what
//! each route answers, as a client sees it.

mod audit;
mod audit_jokers;
mod deals;
mod jokers;
mod match_audit;
mod match_state;
mod matches;
mod receipts;
mod referee;
mod state;
