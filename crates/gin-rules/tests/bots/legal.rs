//! At every decision of many seeded hands, each bot's move is listed, and
//! the record it makes audits legal.

use gin_rules::bots::{BotName, BotSpec, ScoreContext, SeatView, choose, choose_for};
use gin_rules::{
    MatchPhase, MatchViewer, Players, Preset, Profile, ProfileOverrides, RecordedHand, Seat,
    Seating, audit_hand, audit_match, match_state,
};

use super::common::{deal, every_bot, play};

fn profiles() -> Vec<Profile> {
    [
        Preset::Standard,
        Preset::Oklahoma,
        Preset::Straight,
        Preset::Tournament,
        Preset::Jokers,
    ]
    .into_iter()
    .map(|preset| preset.profile())
    .collect()
}

#[test]
fn every_bot_plays_only_listed_moves_and_its_hands_audit_legal() {
    let mut decisions = 0;
    for profile in profiles() {
        for seed in 0..8 {
            for bot in every_bot(seed) {
                let opponent = BotSpec::new(BotName::Simple, seed + 1);
                let hand = play(
                    &profile,
                    deal(seed),
                    [bot, opponent],
                    2000,
                    |_, view, index| {
                        assert!(index < view.legal_actions().len());
                        decisions += 1;
                    },
                );
                let audit = audit_hand(&profile, hand.deal(), hand.actions()).unwrap();
                assert!(audit.is_legal(), "{:?}", audit.violation);
            }
        }
    }
    assert!(decisions > 1000, "{decisions}");
}

#[test]
fn a_seat_that_is_not_to_act_gets_not_to_act() {
    let hand = gin_rules::LiveHand::new(Profile::default(), deal(3)).unwrap();
    let spec = BotSpec::new(BotName::Random, 0);
    let error = choose_for(&hand, Seat::Dealer, &spec).unwrap_err();
    assert!(matches!(
        error,
        gin_rules::bots::BotError::NotToAct { seat: Seat::Dealer }
    ));
    assert!(choose_for(&hand, Seat::NonDealer, &spec).is_ok());
}

/// Plays a whole match through the match's live state, each player's view
/// built from its own table and story with the match score.
fn play_match(profile: &Profile, bots: [BotSpec; 2], seed: u64) -> (Vec<RecordedHand>, usize) {
    let names = ["ann".to_string(), "bob".to_string()];
    let players = Players::new(names[0].clone(), names[1].clone());
    let mut hands: Vec<RecordedHand> = Vec::new();
    let mut decisions = 0;
    for _ in 0..20_000 {
        let state = match_state(profile, &players, &hands, MatchViewer::Referee).unwrap();
        assert!(state.violation.is_none());
        match state.phase {
            MatchPhase::Over => return (hands, decisions),
            MatchPhase::Deal => {
                let dealer = match state.next_deal.map(|next| next.seating) {
                    Some(Seating::Two { dealer, .. }) => dealer,
                    _ => names[0].clone(),
                };
                hands.push(RecordedHand {
                    dealer,
                    non_dealer: None,
                    deal: deal(seed * 1000 + hands.len() as u64),
                    seeds: None,
                    actions: Vec::new(),
                });
            }
            MatchPhase::Play => {
                let name = state.to_act()[0].to_string();
                let mine =
                    match_state(profile, &players, &hands, MatchViewer::Player(&name)).unwrap();
                let table = &mine.tables[0];
                let me = usize::from(name == names[1]);
                let totals = mine.score.final_tally.map(|tally| tally.total as u32);
                let upcard = hands.last().unwrap().deal.upcard;
                let view = SeatView::from_state(profile, upcard, &table.state, table.log.clone())
                    .unwrap()
                    .with_score(ScoreContext {
                        own: totals[me],
                        opponent: totals[1 - me],
                        target: profile.target(),
                    });
                let index = choose(&bots[me], &view).unwrap();
                let action = view.legal_actions()[index].action.clone();
                hands.last_mut().unwrap().actions.push(action);
                decisions += 1;
            }
        }
    }
    panic!("the match did not end");
}

#[test]
fn every_bot_plays_whole_matches_whose_records_audit_legal() {
    let profile = ProfileOverrides {
        target: Some(40),
        ..ProfileOverrides::default()
    }
    .resolve()
    .unwrap();
    let mut decisions = 0;
    for seed in 0..3 {
        for bot in every_bot(seed) {
            let bots = [bot, BotSpec::new(BotName::Simple, seed + 9)];
            let (hands, played) = play_match(&profile, bots, seed);
            let players = Players::new("ann".to_string(), "bob".to_string());
            let audit = audit_match(&profile, &players, &hands).unwrap();
            assert!(audit.violation.is_none() && audit.score.complete);
            decisions += played;
        }
    }
    assert!(decisions > 300, "{decisions}");
}
