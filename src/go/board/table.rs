//! The board's storage: vectors indexed without bounds checks in release builds.

/// A vector indexed without bounds checks in release builds.
///
/// Soundness rests on one invariant of `Board`: every index used is below the table's length,
/// because points come from the board's own geometry (its neighbour tables, its heads and
/// chain links) or were checked against it at the public entry points (`assert_on_board`).
#[derive(PartialEq, Eq, Debug)]
pub(super) struct Table<T>(pub(super) Vec<T>);

// Written out because a derived `clone_from` allocates a new vector instead of reusing the
// buffer, and restoring a board with `clone_from` is what search and undo do all the time.
impl<T: Clone> Clone for Table<T> {
    fn clone(&self) -> Table<T> {
        Table(self.0.clone())
    }

    fn clone_from(&mut self, source: &Table<T>) {
        self.0.clone_from(&source.0);
    }
}

impl<T> std::ops::Deref for Table<T> {
    type Target = Vec<T>;
    fn deref(&self) -> &Vec<T> {
        &self.0
    }
}

impl<T> std::ops::DerefMut for Table<T> {
    fn deref_mut(&mut self) -> &mut Vec<T> {
        &mut self.0
    }
}

impl<T> std::ops::Index<usize> for Table<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, i: usize) -> &T {
        debug_assert!(i < self.0.len());
        // SAFETY: see the type's invariant.
        unsafe { self.0.get_unchecked(i) }
    }
}

impl<T> std::ops::IndexMut<usize> for Table<T> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut T {
        debug_assert!(i < self.0.len());
        // SAFETY: see the type's invariant.
        unsafe { self.0.get_unchecked_mut(i) }
    }
}
