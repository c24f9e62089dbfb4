//! The crate's one sort. Every sort in the core goes through here: the standard library's
//! sort is compiled anew for each element type and comparison (several kilobytes of wasm
//! each, and the crate sorts some thirty kinds of things), while this sorts positions with
//! one comparison behind a reference and then moves the items, so the browser build holds
//! a single copy of the sorting code.
//!
//! Every sort here is stable: items that compare equal keep their order. (Where the core
//! once sorted unstably, equal items were identical, so the result is the same.)

use std::cmp::Ordering;

/// Sorts `items` by `compare`, stably.
pub fn by<T>(items: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    // Nothing to order (the assignor sorts a short list per task, often of one).
    if items.len() < 2 {
        return;
    }
    let order = order(items.len(), &mut |a, b| compare(&items[a], &items[b]));
    permute(items, order);
}

/// Sorts `items` by the key `key` gives each, stably.
pub fn by_key<T, K: Ord>(items: &mut [T], mut key: impl FnMut(&T) -> K) {
    by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` in ascending order.
pub fn ascending<T: Ord>(items: &mut [T]) {
    by(items, T::cmp);
}

/// Sorts `items` stably by a small index `key` gives each, in time linear in the items and
/// the largest index (a counting sort, [`group_by_index`]): for long lists keyed by task or
/// client index, where [`by`] would compare through a reference at every step.
pub fn by_index<T: Copy>(items: &mut [T], key: impl Fn(&T) -> usize) {
    let Some(largest) = items.iter().map(&key).max() else {
        return;
    };
    let (_, sorted) = group_by_index(largest + 1, items.iter().map(|item| (key(item), *item)));
    items.copy_from_slice(&sorted);
}

/// Groups `(index, item)` pairs (indices below `n`) by index, each index's items in the
/// order given, by counting: the items in index order, and where each index's items start
/// (`n + 1` marks, the last one the end of the last index's items).
pub fn group_by_index<T: Copy>(
    n: usize,
    pairs: impl Iterator<Item = (usize, T)> + Clone,
) -> (Vec<usize>, Vec<T>) {
    // Count each index's items, then make the counts the ends of their runs.
    let mut end = vec![0; n + 1];
    for (k, _) in pairs.clone() {
        end[k + 1] += 1;
    }
    for k in 0..n {
        end[k + 1] += end[k];
    }
    // Fill each run from its start (the previous run's end), moving that mark along: once
    // filled, `end[k]` is where index `k`'s run ends and `k + 1`'s starts.
    // Every slot is written; the first item fills them until then (none: no slots).
    let mut items = pairs
        .clone()
        .next()
        .map_or_else(Vec::new, |(_, first)| vec![first; end[n]]);
    for (k, item) in pairs {
        let at = &mut end[k];
        items[*at] = item;
        *at += 1;
    }
    end.rotate_right(1);
    end[0] = 0;
    (end, items)
}

/// The positions `0..len` in the order `compare` puts them, ties by position: the only
/// place the standard sort is compiled.
#[allow(clippy::disallowed_methods)]
fn order(len: usize, compare: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| compare(a, b));
    order
}

/// Rearranges `items` so that the item at `order[i]` ends at `i`, following each cycle of
/// the permutation with swaps (`order` is used up as the record of what is in place).
fn permute<T>(items: &mut [T], mut order: Vec<usize>) {
    for start in 0..items.len() {
        let mut at = start;
        while order[at] != start {
            let from = order[at];
            items.swap(at, from);
            order[at] = at;
            at = from;
        }
        order[at] = at;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_index_sorts_like_by_key() {
        let mut seed = 11_u64;
        for len in [0, 1, 2, 5, 40, 300] {
            let items: Vec<(usize, usize)> = (0..len)
                .map(|i| {
                    seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    (((seed >> 33) % 9) as usize, i)
                })
                .collect();
            let mut expected = items.clone();
            by_key(&mut expected, |&(k, _)| k);
            let mut got = items.clone();
            by_index(&mut got, |&(k, _)| k);
            assert_eq!(got, expected, "{len} items");
        }
    }

    #[test]
    // `by` is checked against the standard sorts.
    #[allow(clippy::unnecessary_sort_by, clippy::disallowed_methods)]
    fn sorts_like_the_standard_stable_sort() {
        // Pairs compared by their first half only, so stability shows in the second.
        let mut seed = 7_u64;
        for len in [0, 1, 2, 3, 10, 33, 200] {
            let items: Vec<(u64, usize)> = (0..len)
                .map(|i| {
                    seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    ((seed >> 33) % 7, i)
                })
                .collect();
            let mut expected = items.clone();
            expected.sort_by_key(|&(k, _)| k);
            let mut got = items.clone();
            by_key(&mut got, |&(k, _)| k);
            assert_eq!(got, expected, "by key, {len} items");
            let mut expected = items.clone();
            expected.sort_by(|a, b| b.0.cmp(&a.0));
            let mut got = items.clone();
            by(&mut got, |a, b| b.0.cmp(&a.0));
            assert_eq!(got, expected, "descending, {len} items");
            let mut expected = items.clone();
            expected.sort();
            let mut got = items;
            ascending(&mut got);
            assert_eq!(got, expected, "ascending, {len} items");
        }
    }

    #[test]
    fn moves_items_that_cannot_be_copied() {
        let mut names: Vec<String> = ["S3", "S10", "S1", "S2"].map(String::from).to_vec();
        by_key(&mut names, |n| n.len());
        assert_eq!(names, ["S3", "S1", "S2", "S10"]);
        ascending(&mut names);
        assert_eq!(names, ["S1", "S10", "S2", "S3"]);
    }
}
