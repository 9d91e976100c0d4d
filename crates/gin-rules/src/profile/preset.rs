//! The named presets: one per source, as in the rules table.

use std::fmt;
use std::str::FromStr;

use super::{
    BoxBonusTiming, JokerRules, KnockLimit, NextDealer, Profile, ProfileError, Settlement,
    ShutoutRule, ShutoutTest, StockEnd,
};

/// The named presets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Preset {
    /// Hoyle as in `[S0]` (and `[S4]` apart from its shutout wording).
    Standard,
    /// `[S1]`'s Oklahoma: the first upcard sets the knock limit, spades double.
    Oklahoma,
    /// `[S1]`'s gin-only play: knock limit 0.
    Straight,
    /// Standard with the 50th-card rule at the end of the stock.
    Tournament,
    /// Three games scored at once.
    Hollywood,
    /// Pagat's values: gin 20, undercut 10, box 20, shutout game bonus 200.
    Pagat,
    /// `[S3]`: no game bonus, winner scores the difference, shutout +100.
    Schneider,
    /// `[S2]`: layoffs allowed on gin, shutout +100 if the loser won no hand.
    OpenGin,
    /// Partnership play: standard with a target of 125 (`[S3]` and the team
    /// rules in `docs/RULES.md`, "Partnership").
    Partnership,
    /// `standard` with two jokers, wild (`docs/RULES.md`, "Jokers"): a joker
    /// counts 15 in deadwood, every meld holds two natural cards, the
    /// defender may lay a joker off.
    Jokers,
    /// The EAAI-2021 Gin Rummy challenge's game (`docs/RULES.md`, "The EAAI
    /// challenge"): gin and undercut 25, no game, box or shutout bonus, and
    /// the deal passes only after a hand that scores.
    Eaai,
}

impl Preset {
    /// Every preset, in the order of the rules table.
    pub const ALL: [Preset; 11] = [
        Preset::Standard,
        Preset::Oklahoma,
        Preset::Straight,
        Preset::Tournament,
        Preset::Hollywood,
        Preset::Pagat,
        Preset::Schneider,
        Preset::OpenGin,
        Preset::Partnership,
        Preset::Jokers,
        Preset::Eaai,
    ];

    /// The preset's name, as clients write it (`open-gin`).
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Standard => "standard",
            Preset::Oklahoma => "oklahoma",
            Preset::Straight => "straight",
            Preset::Tournament => "tournament",
            Preset::Hollywood => "hollywood",
            Preset::Pagat => "pagat",
            Preset::Schneider => "schneider",
            Preset::OpenGin => "open-gin",
            Preset::Partnership => "partnership",
            Preset::Jokers => "jokers",
            Preset::Eaai => "eaai",
        }
    }

    /// The preset's parameters, as in `docs/RULES.md`, "Presets and parameters".
    // A table of data, hence its length: the standard parameters, then what
    // each preset changes.
    pub fn profile(self) -> Profile {
        let standard = Profile {
            name: self.name().to_owned(),
            base: self,
            knock_limit: KnockLimit::Fixed(10),
            ace_upcard_knock_limit: 0,
            spade_doubling: false,
            gin_bonus: 25,
            big_gin_bonus: None,
            undercut_bonus: 25,
            tie_is_undercut: true,
            scoreless_hand_won: false,
            layoffs_on_gin: false,
            stock_end: StockEnd::Void,
            next_dealer: NextDealer::Alternate,
            target: 100,
            hollywood: false,
            game_bonus: 100,
            box_bonus: 25,
            box_bonus_timing: BoxBonusTiming::EndOfGame,
            shutout: ShutoutRule::DoubleHandPointsAndGameBonus,
            shutout_bonus: 0,
            shutout_test: ShutoutTest::ScoredNothing,
            settlement: Settlement::TotalsAndNet,
            jokers: JokerRules::NONE,
        };
        match self {
            Preset::Standard => standard,
            Preset::Oklahoma => Profile {
                knock_limit: KnockLimit::Upcard,
                spade_doubling: true,
                target: 150,
                ..standard
            },
            Preset::Straight => Profile {
                knock_limit: KnockLimit::Fixed(0),
                ..standard
            },
            Preset::Tournament => Profile {
                stock_end: StockEnd::FiftiethCard,
                ..standard
            },
            Preset::Hollywood => Profile {
                hollywood: true,
                ..standard
            },
            Preset::Pagat => Profile {
                gin_bonus: 20,
                undercut_bonus: 10,
                box_bonus: 20,
                shutout: ShutoutRule::DoubleGameBonus,
                ..standard
            },
            Preset::Schneider => Profile {
                game_bonus: 0,
                box_bonus: 20,
                shutout: ShutoutRule::FlatBonus,
                shutout_bonus: 100,
                settlement: Settlement::WinnerScoresDifference,
                ..standard
            },
            Preset::OpenGin => Profile {
                gin_bonus: 20,
                undercut_bonus: 10,
                layoffs_on_gin: true,
                box_bonus: 20,
                shutout: ShutoutRule::FlatBonus,
                shutout_bonus: 100,
                shutout_test: ShutoutTest::WonNoHand,
                ..standard
            },
            Preset::Partnership => Profile {
                target: 125,
                ..standard
            },
            Preset::Jokers => Profile {
                jokers: JokerRules::TWO_JOKERS,
                ..standard
            },
            // A flat shutout bonus of 0 is how "no shutout bonus" is written:
            // each doubling rule would double something.
            Preset::Eaai => Profile {
                next_dealer: NextDealer::AlternateAfterScored,
                game_bonus: 0,
                box_bonus: 0,
                shutout: ShutoutRule::FlatBonus,
                shutout_bonus: 0,
                ..standard
            },
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Preset {
    type Err = ProfileError;

    fn from_str(name: &str) -> Result<Preset, ProfileError> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .ok_or_else(|| ProfileError::UnknownPreset(name.to_owned()))
    }
}
