//! The two players of a match, and one value per player.

/// One of the two players of a match: the first or the second named.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// The player named first (index 0 in results).
    First,
    /// The player named second (index 1 in results).
    Second,
}

impl Player {
    /// Both players, in the order they were named.
    pub const BOTH: [Player; 2] = [Player::First, Player::Second];

    /// The player's position in the match's list of players: 0 or 1. Results
    /// ([`MatchScore`](crate::MatchScore) and its parts) name players by it.
    pub const fn index(self) -> usize {
        match self {
            Player::First => 0,
            Player::Second => 1,
        }
    }

    /// The opponent.
    pub const fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }
}

/// One value per player of a two-player match, in the order the players were
/// named: exactly two, reached by [`Player`], so there is no count to check and
/// no index to get wrong.
///
/// [`score_match`](crate::score_match) takes the players' names as a
/// `Players<String>`. Other formats (three players, partnerships) would be
/// types of their own with their own scoring function, not a longer list here.
///
/// ```
/// use gin_rules::{Player, Players};
/// let names = Players::new("Mom".to_string(), "Dad".to_string());
/// assert_eq!(names.get(Player::Second), "Dad");
/// let lengths = names.map(|_, name| name.len());
/// assert_eq!(lengths.into_array(), [3, 3]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Players<T>([T; 2]);

impl<T> Players<T> {
    /// The values of the first and the second player.
    pub const fn new(first: T, second: T) -> Players<T> {
        Players([first, second])
    }

    /// One player's value.
    pub const fn get(&self, player: Player) -> &T {
        let [first, second] = &self.0;
        match player {
            Player::First => first,
            Player::Second => second,
        }
    }

    /// One player's value, to change it.
    pub fn get_mut(&mut self, player: Player) -> &mut T {
        let [first, second] = &mut self.0;
        match player {
            Player::First => first,
            Player::Second => second,
        }
    }

    /// Each player's value transformed, with the player it belongs to.
    pub fn map<U>(self, mut f: impl FnMut(Player, T) -> U) -> Players<U> {
        let [first, second] = self.0;
        Players([f(Player::First, first), f(Player::Second, second)])
    }

    /// Each player with their value, in order.
    pub fn iter(&self) -> impl Iterator<Item = (Player, &T)> {
        Player::BOTH.into_iter().zip(&self.0)
    }

    /// The values as an array: the first player's at index 0.
    pub const fn as_array(&self) -> &[T; 2] {
        &self.0
    }

    /// The values as an array: the first player's at index 0.
    pub fn into_array(self) -> [T; 2] {
        self.0
    }
}

impl<T> From<[T; 2]> for Players<T> {
    fn from(values: [T; 2]) -> Players<T> {
        Players(values)
    }
}
