use super::*;

fn resolve(json: &str) -> Result<Profile, ProfileError> {
    serde_json::from_str::<ProfileOverrides>(json)
        .unwrap()
        .resolve()
}

#[test]
fn every_preset_matches_the_rules_table() {
    let row = |p: Preset| {
        let p = p.profile();
        (
            p.knock_limit,
            p.spade_doubling,
            p.gin_bonus,
            p.undercut_bonus,
            p.layoffs_on_gin,
            p.stock_end,
            p.target,
            p.game_bonus,
            p.box_bonus,
            p.shutout,
            p.settlement,
        )
    };
    use KnockLimit::*;
    use ShutoutRule::*;
    use StockEnd::*;
    assert_eq!(
        row(Preset::Standard),
        (
            Fixed(10),
            false,
            25,
            25,
            false,
            Void,
            100,
            100,
            25,
            DoubleHandPointsAndGameBonus,
            Settlement::TotalsAndNet
        )
    );
    assert_eq!(
        row(Preset::Oklahoma),
        (
            Upcard,
            true,
            25,
            25,
            false,
            Void,
            150,
            100,
            25,
            DoubleHandPointsAndGameBonus,
            Settlement::TotalsAndNet
        )
    );
    assert_eq!(
        row(Preset::Straight),
        (
            Fixed(0),
            false,
            25,
            25,
            false,
            Void,
            100,
            100,
            25,
            DoubleHandPointsAndGameBonus,
            Settlement::TotalsAndNet
        )
    );
    assert_eq!(
        row(Preset::Tournament),
        (
            Fixed(10),
            false,
            25,
            25,
            false,
            FiftiethCard,
            100,
            100,
            25,
            DoubleHandPointsAndGameBonus,
            Settlement::TotalsAndNet
        )
    );
    assert_eq!(
        row(Preset::Hollywood),
        (
            Fixed(10),
            false,
            25,
            25,
            false,
            Void,
            100,
            100,
            25,
            DoubleHandPointsAndGameBonus,
            Settlement::TotalsAndNet
        )
    );
    assert_eq!(
        row(Preset::Pagat),
        (
            Fixed(10),
            false,
            20,
            10,
            false,
            Void,
            100,
            100,
            20,
            DoubleGameBonus,
            Settlement::TotalsAndNet
        )
    );
    assert_eq!(
        row(Preset::Schneider),
        (
            Fixed(10),
            false,
            25,
            25,
            false,
            Void,
            100,
            0,
            20,
            FlatBonus,
            Settlement::WinnerScoresDifference
        )
    );
    assert_eq!(
        row(Preset::OpenGin),
        (
            Fixed(10),
            false,
            20,
            10,
            true,
            Void,
            100,
            100,
            20,
            FlatBonus,
            Settlement::TotalsAndNet
        )
    );
    assert!(Preset::Hollywood.profile().hollywood);
    assert_eq!(
        Preset::OpenGin.profile().shutout_test,
        ShutoutTest::WonNoHand
    );
    assert_eq!(Preset::Schneider.profile().shutout_bonus, 100);
    assert!(
        Preset::ALL
            .iter()
            .all(|p| p.profile().big_gin_bonus.is_none() && p.profile().tie_is_undercut)
    );
}

#[test]
fn preset_names_round_trip() {
    for preset in Preset::ALL {
        assert_eq!(preset.name().parse::<Preset>(), Ok(preset));
        assert_eq!(
            serde_json::to_string(&preset).unwrap(),
            format!("\"{}\"", preset.name())
        );
    }
    assert!(matches!(
        "gin".parse::<Preset>().unwrap_err(),
        ProfileError::UnknownPreset(_)
    ));
}

#[test]
fn overrides_change_only_what_they_name() {
    let p = resolve(r#"{"base": "pagat", "target": 250, "big_gin_bonus": 31}"#).unwrap();
    assert_eq!(
        (p.target, p.big_gin_bonus, p.gin_bonus, p.name.as_str()),
        (250, Some(31), 20, "custom")
    );
    let unchanged = resolve(r#"{"base": "schneider"}"#).unwrap();
    assert_eq!(unchanged, Preset::Schneider.profile());
    assert_eq!(resolve("{}").unwrap(), Profile::default());
    let off = resolve(r#"{"big_gin_bonus": null}"#).unwrap();
    assert_eq!(off.big_gin_bonus, None);
}

#[test]
fn out_of_range_values_and_meaningless_combinations_are_rejected() {
    assert!(serde_json::from_str::<ProfileOverrides>(r#"{"knock_limit": 11}"#).is_err());
    assert!(serde_json::from_str::<ProfileOverrides>(r#"{"knock_limit": "seven"}"#).is_err());
    assert!(serde_json::from_str::<ProfileOverrides>(r#"{"gin": 20}"#).is_err());
    assert!(serde_json::from_str::<ProfileOverrides>(r#"{"gin_bonus": null}"#).is_err());
    assert!(serde_json::from_str::<ProfileOverrides>(r#"{"base": null}"#).is_err());
    assert!(matches!(
        resolve(r#"{"target": 0}"#).unwrap_err(),
        ProfileError::InvalidParameter { .. }
    ));
    assert!(matches!(
        resolve(r#"{"gin_bonus": 10001}"#).unwrap_err(),
        ProfileError::InvalidParameter { .. }
    ));
    assert!(matches!(
        resolve(r#"{"base": "oklahoma", "ace_upcard_knock_limit": 2}"#).unwrap_err(),
        ProfileError::InvalidParameter { .. }
    ));
    assert!(matches!(
        resolve(r#"{"ace_upcard_knock_limit": 1}"#).unwrap_err(),
        ProfileError::Combination { .. }
    ));
    assert!(matches!(
        resolve(r#"{"shutout_bonus": 50}"#).unwrap_err(),
        ProfileError::Combination { .. }
    ));
    assert!(resolve(r#"{"base": "oklahoma", "ace_upcard_knock_limit": 1}"#).is_ok());
    assert!(resolve(r#"{"shutout": "flat_bonus", "shutout_bonus": 50}"#).is_ok());
}

#[test]
fn oklahoma_ace_upcard_is_gin_only_unless_the_looser_reading_is_chosen() {
    let ace: Card = "AS".parse().unwrap();
    assert_eq!(Preset::Oklahoma.profile().knock_limit_for(Some(ace)), Ok(0));
    let loose = resolve(r#"{"base": "oklahoma", "ace_upcard_knock_limit": 1}"#).unwrap();
    assert_eq!(loose.knock_limit_for(Some(ace)), Ok(1));
}

#[test]
fn spades_double_only_under_spade_doubling() {
    let spade: Card = "9S".parse().unwrap();
    let heart: Card = "9H".parse().unwrap();
    let oklahoma = Preset::Oklahoma.profile();
    assert_eq!(oklahoma.multiplier_for(Some(spade)), Ok(2));
    assert_eq!(oklahoma.multiplier_for(Some(heart)), Ok(1));
    assert_eq!(Profile::default().multiplier_for(Some(spade)), Ok(1));
    assert!(matches!(
        oklahoma.multiplier_for(None).unwrap_err(),
        ProfileError::UpcardRequired { .. }
    ));
}

#[test]
fn every_preset_passes_the_checks_and_resolves_to_itself() {
    for preset in Preset::ALL {
        let overrides = ProfileOverrides {
            base: Some(preset),
            ..ProfileOverrides::default()
        };
        assert_eq!(overrides.resolve(), Ok(preset.profile()), "{preset}");
    }
    assert_eq!(resolve("{}"), Ok(Profile::default()));
}

#[test]
fn the_json_form_lists_every_parameter_by_name() {
    let json = serde_json::to_value(Preset::Oklahoma.profile()).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "name": "oklahoma",
            "base": "oklahoma",
            "knock_limit": "upcard",
            "ace_upcard_knock_limit": 0,
            "spade_doubling": true,
            "gin_bonus": 25,
            "big_gin_bonus": null,
            "undercut_bonus": 25,
            "tie_is_undercut": true,
            "scoreless_hand_won": false,
            "layoffs_on_gin": false,
            "stock_end": "void",
            "next_dealer": "alternate",
            "target": 150,
            "hollywood": false,
            "game_bonus": 100,
            "box_bonus": 25,
            "box_bonus_timing": "end_of_game",
            "shutout": "double_hand_points_and_game_bonus",
            "shutout_bonus": 0,
            "shutout_test": "scored_nothing",
            "settlement": "totals_and_net"
        })
    );
}

#[test]
fn the_jokers_preset_is_standard_with_two_wild_jokers() {
    let jokers = Preset::Jokers.profile();
    assert_eq!(
        (
            jokers.jokers(),
            jokers.joker_deadwood(),
            jokers.joker_min_natural(),
            jokers.joker_layoff(),
            jokers.joker_pickup_must_meld()
        ),
        (2, 15, 2, true, false)
    );
    let standard = Profile {
        name: "jokers".into(),
        base: Preset::Jokers,
        jokers: JokerRules::TWO_JOKERS,
        ..Preset::Standard.profile()
    };
    assert_eq!(jokers, standard);
    for preset in Preset::ALL.into_iter().filter(|&p| p != Preset::Jokers) {
        assert_eq!(preset.profile().joker_rules(), JokerRules::NONE, "{preset}");
    }
    assert_eq!("jokers".parse::<Preset>(), Ok(Preset::Jokers));
}

#[test]
fn joker_parameters_are_checked_and_need_jokers() {
    let p = resolve(r#"{"base": "jokers", "jokers": 1, "joker_deadwood": 25, "joker_min_natural": 3, "joker_layoff": false, "joker_pickup_must_meld": true}"#).unwrap();
    assert_eq!(
        (
            p.jokers(),
            p.joker_deadwood(),
            p.joker_min_natural(),
            p.joker_layoff(),
            p.joker_pickup_must_meld()
        ),
        (1, 25, 3, false, true)
    );
    assert_eq!(resolve(r#"{"jokers": 2}"#).unwrap().joker_deadwood(), 15);
    for bad in [
        r#"{"jokers": 3}"#,
        r#"{"base": "jokers", "joker_deadwood": 10}"#,
        r#"{"base": "jokers", "joker_min_natural": 0}"#,
        r#"{"base": "jokers", "joker_min_natural": 4}"#,
    ] {
        assert!(
            matches!(
                resolve(bad).unwrap_err(),
                ProfileError::InvalidParameter { .. }
            ),
            "{bad}"
        );
    }
    let error = resolve(r#"{"jokers": 3}"#).unwrap_err();
    assert!(matches!(
        error,
        ProfileError::InvalidParameter {
            parameter: "jokers",
            ..
        }
    ));
    for meaningless in [
        r#"{"joker_deadwood": 25}"#,
        r#"{"base": "jokers", "jokers": 0, "joker_min_natural": 3}"#,
        r#"{"joker_layoff": false}"#,
    ] {
        assert!(
            matches!(
                resolve(meaningless).unwrap_err(),
                ProfileError::Combination { .. }
            ),
            "{meaningless}"
        );
    }
    assert!(serde_json::from_str::<ProfileOverrides>(r#"{"jokers": null}"#).is_err());
    assert!(serde_json::from_str::<ProfileOverrides>(r#"{"jokers": -1}"#).is_err());
    assert!(JokerRules::new(2, 25, 1).is_ok());
    assert!(JokerRules::new(2, 20, 1).is_err());
}

#[test]
fn joker_parameters_appear_in_the_json_form_only_with_jokers() {
    for preset in Preset::ALL.into_iter().filter(|&p| p != Preset::Jokers) {
        let json = serde_json::to_value(preset.profile()).unwrap();
        assert!(
            json.get("jokers").is_none() && json.get("joker_deadwood").is_none(),
            "{preset}"
        );
        assert_eq!(json.as_object().unwrap().len(), 22, "{preset}");
    }
    let json = serde_json::to_value(Preset::Jokers.profile()).unwrap();
    assert_eq!(json["name"], "jokers");
    assert_eq!(json["jokers"], 2);
    assert_eq!(json["joker_deadwood"], 15);
    assert_eq!(json["joker_min_natural"], 2);
    assert_eq!(json["joker_layoff"], true);
    assert_eq!(json["joker_pickup_must_meld"], false);
}

#[test]
fn the_eaai_preset_is_standard_without_game_box_or_shutout_bonus_and_keeps_the_deal_after_a_void() {
    let eaai = Preset::Eaai.profile();
    let expected = Profile {
        name: "eaai".into(),
        base: Preset::Eaai,
        next_dealer: NextDealer::AlternateAfterScored,
        game_bonus: 0,
        box_bonus: 0,
        shutout: ShutoutRule::FlatBonus,
        shutout_bonus: 0,
        ..Preset::Standard.profile()
    };
    assert_eq!(eaai, expected);
    assert_eq!(
        (
            eaai.target,
            eaai.gin_bonus,
            eaai.undercut_bonus,
            eaai.tie_is_undercut,
            eaai.big_gin_bonus
        ),
        (100, 25, 25, true, None)
    );
    assert_eq!("eaai".parse::<Preset>(), Ok(Preset::Eaai));
    let json = serde_json::to_value(&eaai).unwrap();
    assert_eq!(json["next_dealer"], "alternate_after_scored");
    assert_eq!(
        resolve(r#"{"next_dealer": "alternate_after_scored"}"#)
            .unwrap()
            .next_dealer(),
        NextDealer::AlternateAfterScored
    );
}
