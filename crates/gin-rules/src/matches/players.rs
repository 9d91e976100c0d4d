//! The two players of a match, and one value per player.

/// One of the two players of a match: the first or the second named.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Player {
    First,
    Second,
}

impl Player {
    /// Both players, in the order they were named.
    pub(crate) const BOTH: [Player; 2] = [Player::First, Player::Second];

    /// The player's position in the match's list of players: 0 or 1.
    pub(crate) const fn index(self) -> usize {
        match self {
            Player::First => 0,
            Player::Second => 1,
        }
    }

    /// The opponent.
    pub(crate) const fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }
}

/// One value per player, in the order the players were named. Reached by
/// [`Player`], so there is no index to get wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) struct Players<T>([T; 2]);

impl<T> Players<T> {
    /// The values of the first and the second player.
    pub(crate) const fn new(first: T, second: T) -> Players<T> {
        Players([first, second])
    }

    /// One player's value.
    pub(crate) const fn get(&self, player: Player) -> &T {
        let [first, second] = &self.0;
        match player {
            Player::First => first,
            Player::Second => second,
        }
    }

    /// One player's value, to change it.
    pub(crate) fn get_mut(&mut self, player: Player) -> &mut T {
        let [first, second] = &mut self.0;
        match player {
            Player::First => first,
            Player::Second => second,
        }
    }

    /// Each player's value transformed, with the player it belongs to.
    pub(crate) fn map<U>(self, mut f: impl FnMut(Player, T) -> U) -> Players<U> {
        let [first, second] = self.0;
        Players([f(Player::First, first), f(Player::Second, second)])
    }

    /// The values as an array: the first player's at 0.
    pub(crate) fn into_array(self) -> [T; 2] {
        self.0
    }
}
