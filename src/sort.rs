//! Stable sorts that compile to one copy of the standard library's sort per element type.
//!
//! `slice::sort_by_key` and its kin are generic over the element type and the closure, so each
//! call site becomes a copy of the whole sort (about 3.5 KB of wasm each). These functions
//! sort the items' positions instead, with the standard library's stable sort and the
//! comparison behind a `dyn` call, then move the items into that order: one copy of the sort
//! for the whole crate. The order is the one `slice::sort_by` gives. `clippy.toml` disallows
//! the slice methods so that new code comes here.

use std::cmp::Ordering;

/// Sorts `items` stably in ascending order.
pub fn ascending<T: Ord>(items: &mut [T]) {
    by(items, T::cmp);
}

/// Sorts `items` stably by `compare`.
pub fn by<T>(items: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    by_dyn(items, &mut compare);
}

/// Sorts `items` stably by the key `key` gives each of them.
pub fn by_key<T, K: Ord>(items: &mut [T], mut key: impl FnMut(&T) -> K) {
    by(items, |a, b| key(a).cmp(&key(b)));
}

/// How many positions are sorted on the stack; longer lists sort theirs on the heap (the
/// engine sorts many short lists a frame).
const ON_STACK: usize = 64;

fn by_dyn<T>(items: &mut [T], compare: &mut dyn FnMut(&T, &T) -> Ordering) {
    if items.len() < 2 {
        return;
    }
    let (mut stack, mut heap) = ([0; ON_STACK], Vec::new());
    let order = if items.len() <= ON_STACK {
        &mut stack[..items.len()]
    } else {
        heap.resize(items.len(), 0);
        &mut heap[..]
    };
    for (k, position) in order.iter_mut().enumerate() {
        *position = k;
    }
    positions_by(order, &mut |&a, &b| compare(&items[a], &items[b]));
    into_order(items, order);
}

#[inline(never)]
#[allow(clippy::disallowed_methods)]
fn positions_by(order: &mut [usize], compare: &mut dyn FnMut(&usize, &usize) -> Ordering) {
    order.sort_by(|a, b| compare(a, b));
}

/// Puts the item at `order[k]` at position `k`, for every `k`, following each cycle of the
/// permutation with swaps (`order` is a permutation of the positions).
fn into_order<T>(items: &mut [T], order: &mut [usize]) {
    const DONE: usize = usize::MAX;
    for start in 0..order.len() {
        let mut at = start;
        while order[at] != DONE {
            let from = order[at];
            order[at] = DONE;
            if from == start {
                break;
            }
            items.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Reverse;

    #[test]
    fn ascending_orders_every_item() {
        let mut items = vec![5, 3, 9, 1, 3, 0];
        ascending(&mut items);
        assert_eq!(items, [0, 1, 3, 3, 5, 9]);
    }

    #[test]
    fn by_key_keeps_the_order_of_items_with_equal_keys() {
        let mut items = vec![(2, 'a'), (1, 'b'), (2, 'c'), (1, 'd'), (0, 'e')];
        by_key(&mut items, |&(k, _)| Reverse(k));
        assert_eq!(items, [(2, 'a'), (2, 'c'), (1, 'b'), (1, 'd'), (0, 'e')]);
    }

    #[test]
    fn into_order_moves_each_item_to_where_the_order_puts_it() {
        let mut items = vec!['a', 'b', 'c', 'd', 'e', 'f'];
        into_order(&mut items, &mut [3, 0, 1, 2, 5, 4]);
        assert_eq!(items, ['d', 'a', 'b', 'c', 'f', 'e']);
    }

    #[test]
    fn by_follows_the_comparison_given() {
        let mut items = vec![1.5, -2.0, 0.25, 8.0];
        by(&mut items, |a: &f64, b: &f64| b.total_cmp(a));
        assert_eq!(items, [8.0, 1.5, 0.25, -2.0]);
    }
}

/// Random lists (proptest does not build for wasm32, where clippy also checks the tests).
#[cfg(all(test, not(target_arch = "wasm32")))]
mod random {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn by_key_gives_the_order_of_the_standard_stable_sort(
            items in proptest::collection::vec((0u8..6, any::<u32>()), 0..150),
        ) {
            let mut ours = items.clone();
            by_key(&mut ours, |&(k, _)| k);
            let mut std = items;
            #[allow(clippy::disallowed_methods)]
            std.sort_by_key(|&(k, _)| k);
            prop_assert_eq!(ours, std);
        }
    }
}
