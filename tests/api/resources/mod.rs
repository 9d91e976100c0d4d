//! The resources, one file each (several for the audit and the jokers): what
//! each route answers, as a client sees it.

mod audit;
mod audit_jokers;
mod deals;
mod eaai;
mod jokers;
mod knock_faults;
mod match_audit;
mod match_state;
mod match_state_reply;
mod matches;
mod moves;
mod pictures;
mod pictures_cost;
mod pictures_exact;
mod ratings;
mod receipts;
mod referee;
mod state;
