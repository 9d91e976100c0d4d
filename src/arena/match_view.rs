//! The `/v1/matches/state` answer a remote bot is sent in a whole match,
//! built from the match as the arena holds it rather than by the operation
//! over the whole record at each decision (whose cost grows with the match).
//!
//! During a hand the operation's answer for the player to act is fixed but
//! for its one table: the match is legal and in play, no next deal, the
//! player to act is the one asked, and the score is that of the hands over.
//! [`MatchView`] keeps that score's answer (built once per hand from the
//! arena's own standing), and at each decision adds the table: the held
//! hand's `/v1/hands/state` answer for the seat with the players' names,
//! built by the contract's own function for a held hand. The tests check,
//! at every decision of whole matches, that the text equals the operation's.

use gin_contract::answers::match_state::{MatchStateResponse, MatchTable, SeatedTable};
use gin_contract::answers::state;
use gin_contract::wire::formats::MatchAnswer;
use gin_contract::wire::score_sheet::MatchResponse;
use gin_rules::{LiveHand, MatchPhase, MatchScore, Seat};

/// A match's answer for its hand in play, less the table (see the module
/// docs).
pub struct MatchView<'a> {
    names: [&'a str; 2],
    score: MatchAnswer,
}

impl<'a> MatchView<'a> {
    /// The view of a match between `names` whose hands over are scored
    /// `score`.
    pub fn new(names: [&'a str; 2], score: &MatchScore, hollywood: bool) -> MatchView<'a> {
        MatchView {
            names,
            score: MatchAnswer::TwoPlayers(MatchResponse::new(score, hollywood)),
        }
    }

    /// The answer for player `who` (0 or 1), to act at `seat` of `live`,
    /// dealt by player `dealer`, as JSON text.
    pub fn answer(
        &self,
        dealer: usize,
        live: &LiveHand,
        who: usize,
        seat: Seat,
    ) -> Result<String, String> {
        let name = |i: usize| self.names.get(i).copied().unwrap_or_default().to_owned();
        let table = SeatedTable {
            dealer: name(dealer),
            non_dealer: name(1 - dealer),
            state: state::held_answer(live, Some(seat), false),
        };
        let response = MatchStateResponse {
            legal: true,
            violation: None,
            phase: MatchPhase::Play,
            next_deal: None,
            to_act: vec![name(who)],
            tables: vec![MatchTable::Seated(Box::new(table))],
            score: self.score.clone(),
        };
        serde_json::to_string(&response).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use gin_rules::bots::{BotName, BotSpec, choose_for};
    use gin_rules::fair_deal::ServerSeed;
    use gin_rules::{Players, Preset};
    use serde_json::{Value, json};

    use super::*;
    use crate::arena::play::{Setup, Unit, at, deal, hand_json, match_view};
    use crate::arena::standing::{Next, Standing};

    /// Plays whole matches of `simple` against `random` under `preset`,
    /// checking at every decision that the held answer's text is the
    /// operation's; answers the decisions checked.
    fn check_matches(preset: Preset, profile_json: Value, matches: u64) -> usize {
        let profile = preset.profile();
        let seed = ServerSeed::from_hex(&"07".repeat(32)).unwrap();
        let setup = Setup {
            profile: &profile,
            profile_json: &profile_json,
            unit: Unit::Match,
            seed: &seed,
            client_seed: "held",
        };
        let names = ["ann", "bob"];
        let players = Players::new(names[0].to_owned(), names[1].to_owned());
        let bots = [
            BotSpec::new(BotName::Simple, 1),
            BotSpec::new(BotName::Random, 2),
        ];
        let mut decisions = 0;
        for game in 0..matches {
            let mut standing = Standing::new(&profile, &players).unwrap();
            let mut hands_json: Vec<Value> = Vec::new();
            let mut dealer = (game % 2) as usize;
            for k in 0..200 {
                let mut live = deal(&setup, game * 1000 + k).unwrap();
                let score = standing.score().unwrap();
                let held = MatchView::new(names, &score, profile.hollywood());
                while let (_, Some(seat), _) = live.now() {
                    let who = at(seat, dealer);
                    assert_eq!(
                        held.answer(dealer, &live, who, seat).unwrap(),
                        match_view(&setup, names, &hands_json, dealer, &live, who).unwrap(),
                        "match {game}, hand {k}, after {} actions",
                        live.actions().len()
                    );
                    decisions += 1;
                    let chosen = choose_for(&live, seat, &bots[who]).unwrap();
                    live.apply(chosen.action).unwrap();
                }
                hands_json.push(hand_json(names, dealer, &live));
                match standing.after(&profile, &players, dealer, &live) {
                    Some(Next::Deal(next)) => dealer = next,
                    _ => break,
                }
            }
        }
        decisions
    }

    #[test]
    fn the_held_answer_is_the_operations_text_at_every_decision_of_whole_matches() {
        let decisions = check_matches(Preset::Standard, Value::Null, 3)
            + check_matches(Preset::Oklahoma, json!("oklahoma"), 1)
            + check_matches(Preset::Jokers, json!("jokers"), 1)
            + check_matches(Preset::Hollywood, json!("hollywood"), 1);
        assert!(decisions > 500, "{decisions}");
    }
}
