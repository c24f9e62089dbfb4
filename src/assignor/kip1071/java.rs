//! The orders of the Java collections Kafka's coordinator code goes through, where they decide
//! an assignment: `String.hashCode` and a record's `hashCode`, `java.util.HashMap`'s iteration
//! order, `java.util.PriorityQueue`, `String.compareTo`, and `java.util.Random` with
//! `Collections.shuffle` for Kafka's seeded fuzz tests. Each follows OpenJDK 17 to 25.

use std::cmp::Ordering;

/// `String.hashCode`: `s[0]*31^(n-1) + ... + s[n-1]` over UTF-16 code units, wrapping.
pub fn string_hash(s: &str) -> i32 {
    s.encode_utf16()
        .fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(i32::from(c)))
}

/// The `hashCode` of Kafka's `record TaskId(String subtopologyId, int partition)`: OpenJDK's
/// `ObjectMethods` folds the components from 0 with `h * 31 + component`.
pub fn task_hash(subtopology: &str, partition: i32) -> i32 {
    string_hash(subtopology)
        .wrapping_mul(31)
        .wrapping_add(partition)
}

/// `String.compareTo`: lexicographic over UTF-16 code units (Rust's `str` order compares
/// UTF-8 bytes, which differs for characters beyond the Basic Multilingual Plane). Where the
/// strings first differ in an ASCII byte of both, or one is a prefix of the other, the byte
/// order is the UTF-16 order, and no code units are decoded.
#[inline]
pub fn compare_strings(a: &str, b: &str) -> Ordering {
    let (x, y) = (a.as_bytes(), b.as_bytes());
    match x.iter().zip(y).position(|(p, q)| p != q) {
        None => x.len().cmp(&y.len()),
        Some(i) if x[i].is_ascii() && y[i].is_ascii() => x[i].cmp(&y[i]),
        Some(_) => a.encode_utf16().cmp(b.encode_utf16()),
    }
}

/// `HashMap.hash`: the key's hash with its high half folded into the low half.
pub fn spread(hash: i32) -> i32 {
    hash ^ ((hash as u32) >> 16) as i32
}

/// `HashMap.tableSizeFor`: the least power of two at or above `capacity` (1 for 0).
pub fn table_size_for(capacity: usize) -> usize {
    capacity.max(1).next_power_of_two().min(1 << 30)
}

/// How a `java.util.HashMap` was created, which sets its first table size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashMapCapacity {
    /// `new HashMap<>()`: a table of 16 on the first put.
    Default,
    /// `new HashMap<>(n)`: a table of `tableSizeFor(n)` on the first put.
    Initial(usize),
}

/// The iteration order of a `java.util.HashMap` (or `HashSet`) into which keys of the given
/// hashes were put, each once, in this order: the indices of `hashes`, bucket by bucket, in
/// insertion order within a bucket. The table grows as OpenJDK's does: doubled when the size
/// passes three quarters of it, and also when a bucket reaches nine keys while the table is
/// under 64 (`treeifyBin`). The second value says whether a bucket would have become a tree
/// (nine keys in a table of 64 or more), whose iteration order this does not model.
pub fn hash_map_order(hashes: &[i32], capacity: HashMapCapacity) -> (Vec<usize>, bool) {
    let mut table = Table::new(capacity);
    for (key, &hash) in hashes.iter().enumerate() {
        table.put(key, spread(hash));
    }
    let order = table
        .buckets
        .into_iter()
        .flatten()
        .map(|(key, _)| key)
        .collect();
    (order, table.treeified)
}

/// The iteration order of `hash_map_order` applied to string keys.
pub fn string_map_order<S: AsRef<str>>(
    keys: &[S],
    capacity: HashMapCapacity,
) -> (Vec<usize>, bool) {
    let hashes: Vec<i32> = keys.iter().map(|k| string_hash(k.as_ref())).collect();
    hash_map_order(&hashes, capacity)
}

/// A `HashMap`'s table as far as order goes: buckets of (key index, spread hash).
struct Table {
    buckets: Vec<Vec<(usize, i32)>>,
    threshold: usize,
    size: usize,
    treeified: bool,
}

impl Table {
    fn new(capacity: HashMapCapacity) -> Table {
        let threshold = match capacity {
            HashMapCapacity::Default => 0,
            HashMapCapacity::Initial(n) => table_size_for(n),
        };
        Table {
            buckets: Vec::new(),
            threshold,
            size: 0,
            treeified: false,
        }
    }

    fn put(&mut self, key: usize, hash: i32) {
        if self.buckets.is_empty() {
            self.resize();
        }
        let bucket = (hash as u32 as usize) & (self.buckets.len() - 1);
        self.buckets[bucket].push((key, hash));
        // `putVal` calls `treeifyBin` when a bucket's chain reaches TREEIFY_THRESHOLD + 1.
        if self.buckets[bucket].len() > 8 {
            if self.buckets.len() < 64 {
                self.resize();
            } else {
                self.treeified = true;
            }
        }
        self.size += 1;
        if self.size > self.threshold {
            self.resize();
        }
    }

    /// `HashMap.resize`: a first table from the threshold (or 16), else twice the table; the
    /// threshold doubles from a table of 16 on, below that it is `(int) (capacity * 0.75f)`.
    fn resize(&mut self) {
        let old = self.buckets.len();
        let (capacity, threshold) = if old > 0 {
            (old * 2, if old >= 16 { self.threshold * 2 } else { 0 })
        } else if self.threshold > 0 {
            (self.threshold, 0)
        } else {
            (16, 12)
        };
        self.threshold = if threshold == 0 {
            (capacity as f32 * 0.75) as usize
        } else {
            threshold
        };
        let mut buckets = vec![Vec::new(); capacity];
        for entry in std::mem::take(&mut self.buckets).into_iter().flatten() {
            buckets[(entry.1 as u32 as usize) & (capacity - 1)].push(entry);
        }
        self.buckets = buckets;
    }
}

/// `java.util.PriorityQueue` with a comparator: the same array heap, `offer` sifting up and
/// `poll` moving the last element to the root and sifting it down, so that equal elements
/// come out in the order OpenJDK gives them. `addAll` is `offer` in turn.
#[derive(Clone, Debug, Default)]
pub struct PriorityQueue<T> {
    heap: Vec<T>,
}

impl<T> PriorityQueue<T> {
    /// An empty queue.
    pub fn new() -> PriorityQueue<T> {
        PriorityQueue { heap: Vec::new() }
    }

    /// How many elements it holds.
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// Whether it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    /// The heap array, root first.
    pub fn as_slice(&self) -> &[T] {
        &self.heap
    }

    /// `offer`: appends and sifts up while strictly less than the parent.
    pub fn offer(&mut self, x: T, cmp: impl Fn(&T, &T) -> Ordering) {
        self.heap.push(x);
        let mut k = self.heap.len() - 1;
        while k > 0 {
            let parent = (k - 1) >> 1;
            if cmp(&self.heap[k], &self.heap[parent]) != Ordering::Less {
                break;
            }
            self.heap.swap(k, parent);
            k = parent;
        }
    }

    /// `poll`: takes the root, moves the last element there and sifts it down towards the
    /// smaller child (the left one on a tie) while it is strictly greater.
    pub fn poll(&mut self, cmp: impl Fn(&T, &T) -> Ordering) -> Option<T> {
        if self.heap.is_empty() {
            return None;
        }
        let result = self.heap.swap_remove(0);
        let n = self.heap.len();
        let mut k = 0;
        while k < n >> 1 {
            let mut child = 2 * k + 1;
            let right = child + 1;
            if right < n && cmp(&self.heap[child], &self.heap[right]) == Ordering::Greater {
                child = right;
            }
            if cmp(&self.heap[k], &self.heap[child]) != Ordering::Greater {
                break;
            }
            self.heap.swap(k, child);
            k = child;
        }
        Some(result)
    }
}

/// `Double.compare` for the finite, non-negative loads compared here (and `total_cmp`'s
/// order otherwise, which only differs from Java's on NaN payloads).
pub fn compare_doubles(a: f64, b: f64) -> Ordering {
    a.total_cmp(&b)
}

/// `java.util.Random`: the 48-bit linear congruential generator of OpenJDK.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JavaRandom {
    seed: u64,
}

const MULTIPLIER: u64 = 0x5_DEEC_E66D;
const MASK: u64 = (1 << 48) - 1;

impl JavaRandom {
    /// `new Random(seed)`: the seed scrambled with the multiplier.
    pub fn new(seed: i64) -> JavaRandom {
        JavaRandom {
            seed: (seed as u64 ^ MULTIPLIER) & MASK,
        }
    }

    /// `next(bits)`: one step of the generator, its top `bits` bits as an int.
    pub fn next(&mut self, bits: u32) -> i32 {
        self.seed = (self.seed.wrapping_mul(MULTIPLIER).wrapping_add(0xB)) & MASK;
        (self.seed >> (48 - bits)) as i32
    }

    /// `nextInt()`.
    pub fn next_int(&mut self) -> i32 {
        self.next(32)
    }

    /// `nextInt(bound)` for a positive bound, with its rejection loop (a bound of 0 or less,
    /// on which Java throws, is taken as 1).
    pub fn next_int_bounded(&mut self, bound: i32) -> i32 {
        let bound = bound.max(1);
        let mut r = self.next(31);
        let m = bound - 1;
        if bound & m == 0 {
            return ((i64::from(bound) * i64::from(r)) >> 31) as i32;
        }
        let mut u = r;
        loop {
            r = u % bound;
            if u.wrapping_sub(r).wrapping_add(m) >= 0 {
                return r;
            }
            u = self.next(31);
        }
    }

    /// `nextLong()`.
    pub fn next_long(&mut self) -> i64 {
        let high = i64::from(self.next(32)) << 32;
        high.wrapping_add(i64::from(self.next(32)))
    }

    /// `nextBoolean()`.
    pub fn next_boolean(&mut self) -> bool {
        self.next(1) != 0
    }

    /// `nextDouble()`: 53 random bits over 2^53.
    pub fn next_double(&mut self) -> f64 {
        let bits = (i64::from(self.next(26)) << 27) + i64::from(self.next(27));
        bits as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// `Collections.shuffle(list, random)`: from the end, each place swapped with one at or
    /// before it.
    pub fn shuffle<T>(&mut self, list: &mut [T]) {
        for i in (2..=list.len()).rev() {
            let j = self.next_int_bounded(i as i32) as usize;
            list.swap(i - 1, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_hash_is_javas() {
        assert_eq!(string_hash(""), 0);
        assert_eq!(string_hash("a"), 97);
        assert_eq!(string_hash("ab"), 97 * 31 + 98);
        // Overflows wrap: 31 * 97 * 31^6 + ... worked out with 32-bit arithmetic.
        assert_eq!(string_hash("process1"), -1_005_146_206);
        assert_eq!(string_hash("process2"), -1_005_146_205);
        // A character beyond the Basic Multilingual Plane counts as its two UTF-16 units.
        assert_eq!(string_hash("\u{10000}"), 0xD800 * 31 + 0xDC00);
    }

    #[test]
    fn task_hash_folds_the_record_components_from_zero() {
        assert_eq!(task_hash("a", 0), 97 * 31);
        assert_eq!(task_hash("ab", 5), 3105 * 31 + 5);
        assert_ne!(task_hash("a", 1), task_hash("a", 2));
    }

    #[test]
    fn strings_compare_by_utf16_code_units() {
        assert_eq!(compare_strings("10", "2"), Ordering::Less);
        assert_eq!(compare_strings("s1", "s10"), Ordering::Less);
        assert_eq!(compare_strings("abc", "abc"), Ordering::Equal);
        // U+10000 is the surrogate pair D800 DC00, below U+FFFF in Java (above it in UTF-8).
        assert_eq!(compare_strings("\u{10000}", "\u{FFFF}"), Ordering::Less);
        assert_eq!("\u{10000}".cmp("\u{FFFF}"), Ordering::Greater);
        assert_eq!(compare_strings("ab\u{10000}", "ab\u{FFFF}"), Ordering::Less);
        assert_eq!(compare_strings("s", "s1"), Ordering::Less);
        assert_eq!(compare_strings("é", "e"), Ordering::Greater);
    }

    #[test]
    fn table_size_is_the_next_power_of_two() {
        assert_eq!(table_size_for(0), 1);
        assert_eq!(table_size_for(1), 1);
        assert_eq!(table_size_for(3), 4);
        assert_eq!(table_size_for(16), 16);
        assert_eq!(table_size_for(17), 32);
    }

    #[test]
    fn hash_map_iterates_bucket_by_bucket() {
        // "a", "b", "c" hash to 97, 98, 99: buckets 1, 2, 3 of 16.
        let (order, _) = string_map_order(&["a", "b", "c"], HashMapCapacity::Default);
        assert_eq!(order, vec![0, 1, 2]);
        // "c" (99) and "q" (113 = 16 * 7 + 1) against "a" (97): q shares a's bucket 1 and
        // follows it there, c sits in bucket 3.
        let (order, _) = string_map_order(&["c", "q", "a"], HashMapCapacity::Default);
        assert_eq!(order, vec![1, 2, 0]);
        // process1/2/3 spread to buckets 4, 5 and 2 of 16.
        let (order, _) = string_map_order(
            &["process1", "process2", "process3"],
            HashMapCapacity::Default,
        );
        assert_eq!(order, vec![2, 0, 1]);
    }

    #[test]
    fn hash_map_splits_buckets_when_it_grows() {
        // In 16 buckets q (113) and a (97) share bucket 1, q first; the thirteenth key passes
        // the threshold of 12 and the table doubles: a stays in bucket 1, q moves to 17, and
        // b..l (98..108) sit in buckets 2..12 between them.
        let keys = [
            "q", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l",
        ];
        let (order, treeified) = string_map_order(&keys, HashMapCapacity::Default);
        let mut expected: Vec<usize> = (1..13).collect();
        expected.push(0);
        assert_eq!(order, expected);
        assert!(!treeified);
        // Twelve keys stay within the threshold: q then a in bucket 1.
        let (order, _) = string_map_order(&keys[..12], HashMapCapacity::Default);
        assert_eq!(&order[..2], &[0, 1]);
    }

    #[test]
    fn hash_map_grows_from_a_small_initial_capacity() {
        // new HashMap<>(1): a table of 1 with threshold 0, doubled to 2 (threshold 1) by the
        // first put and to 4 (threshold 3) by the second; b (98) lands in bucket 2, a (97) in 1.
        let (order, _) = string_map_order(&["b", "a"], HashMapCapacity::Initial(1));
        assert_eq!(order, vec![1, 0]);
        // new HashMap<>(3) has 4 buckets: 98 & 3 = 2 and 97 & 3 = 1 again.
        let (order, _) = string_map_order(&["b", "a"], HashMapCapacity::Initial(3));
        assert_eq!(order, vec![1, 0]);
    }

    #[test]
    fn a_ninth_key_in_one_bucket_of_a_small_table_doubles_it() {
        // Characters 17, 33, ..., 145 all land in bucket 1 of 16; the ninth makes treeifyBin
        // double the table (under 64 buckets), which splits them over buckets 1 and 17.
        let keys: Vec<String> = (0..9)
            .map(|i| {
                char::from_u32(17 + 16 * i)
                    .map(String::from)
                    .unwrap_or_default()
            })
            .collect();
        let (order, treeified) = string_map_order(&keys, HashMapCapacity::Default);
        assert_eq!(order, vec![1, 3, 5, 7, 0, 2, 4, 6, 8]);
        assert!(!treeified);
        // Eight of them stay in one bucket, in insertion order.
        let (order, _) = string_map_order(&keys[..8], HashMapCapacity::Default);
        assert_eq!(order, (0..8).collect::<Vec<_>>());
    }

    #[test]
    fn a_ninth_key_in_one_bucket_of_a_large_table_is_reported() {
        // 64 buckets from the start; nine keys with hashes 64 * i + 1 share bucket 1.
        let hashes: Vec<i32> = (0..9).map(|i| 64 * i + 1).collect();
        let (_, treeified) = hash_map_order(&hashes, HashMapCapacity::Initial(64));
        assert!(treeified);
    }

    #[test]
    fn priority_queue_breaks_ties_as_openjdk() {
        // Offer (1,a) (1,b) (1,c) (0,d): d sifts up past b and a, giving [d a c b]. poll takes
        // d and moves b to the root, where it stays (a and c are not smaller): [b a c]; then b,
        // leaving [c a]; then c and a. So the three equal keys come out b, c, a.
        let by_key = |x: &(u32, char), y: &(u32, char)| x.0.cmp(&y.0);
        let mut queue = PriorityQueue::new();
        for x in [(1, 'a'), (1, 'b'), (1, 'c'), (0, 'd')] {
            queue.offer(x, by_key);
        }
        assert_eq!(queue.as_slice(), &[(0, 'd'), (1, 'a'), (1, 'c'), (1, 'b')]);
        let mut out = Vec::new();
        while let Some(x) = queue.poll(by_key) {
            out.push(x.1);
        }
        assert_eq!(out, vec!['d', 'b', 'c', 'a']);
    }

    #[test]
    fn priority_queue_sifts_down_towards_the_smaller_child() {
        let by_key = |x: &u32, y: &u32| x.cmp(y);
        let mut queue = PriorityQueue::new();
        for x in [5, 3, 8, 1, 9, 2] {
            queue.offer(x, by_key);
        }
        assert_eq!(queue.as_slice(), &[1, 3, 2, 5, 9, 8]);
        let mut out = Vec::new();
        while let Some(x) = queue.poll(by_key) {
            out.push(x);
        }
        assert_eq!(out, vec![1, 2, 3, 5, 8, 9]);
        assert!(queue.poll(by_key).is_none());
    }

    #[test]
    fn random_follows_the_48_bit_generator() {
        // new Random(42): the values every Java programmer has seen, and the next ones worked
        // out from seed' = (seed * 0x5DEECE66D + 0xB) mod 2^48.
        let mut random = JavaRandom::new(42);
        assert_eq!(random.next_int(), -1_170_105_035);
        assert_eq!(random.next_int_bounded(10), 3);
        assert_eq!(random.next_int_bounded(7), 6);
        assert_eq!(random.next_long(), 884_324_181_205_335_268);
        let mut random = JavaRandom::new(42);
        assert_eq!(
            (0..3)
                .map(|_| random.next_int_bounded(10))
                .collect::<Vec<_>>(),
            vec![0, 3, 8]
        );
        let mut random = JavaRandom::new(42);
        assert_eq!(random.next_double(), 0.727_563_680_032_868_1);
        let mut random = JavaRandom::new(42);
        assert_eq!(
            (0..5).map(|_| random.next_boolean()).collect::<Vec<_>>(),
            vec![true, false, true, false, false]
        );
        let mut random = JavaRandom::new(0);
        assert_eq!(
            (0..10)
                .map(|_| random.next_int_bounded(5))
                .collect::<Vec<_>>(),
            vec![0, 3, 4, 2, 0, 3, 1, 1, 4, 4]
        );
        // RefinerFuzzTest's seeds: new Random(1071).nextLong() three times.
        let mut random = JavaRandom::new(1071);
        assert_eq!(random.next_long(), -6_725_968_835_267_427_091);
        assert_eq!(random.next_long(), 2_663_843_550_148_410_062);
        assert_eq!(random.next_long(), 2_670_464_164_242_817_083);
    }

    #[test]
    fn shuffle_swaps_from_the_end() {
        let mut random = JavaRandom::new(42);
        let mut list = [0, 1, 2, 3, 4];
        random.shuffle(&mut list);
        assert_eq!(list, [1, 2, 3, 4, 0]);
    }
}
