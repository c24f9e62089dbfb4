//! A value kept until what it was read from changes: the views read off the session (in the
//! worker) and off the scenario (on the page) are kept between frames this way.

use std::cell::RefCell;
use std::rc::Rc;

/// A value kept until what it was read from changes (the key).
#[derive(Debug)]
pub struct Memo<K, V>(RefCell<Option<(K, Rc<V>)>>);

impl<K, V> Default for Memo<K, V> {
    fn default() -> Self {
        Memo(RefCell::new(None))
    }
}

impl<K: PartialEq, V> Memo<K, V> {
    /// The value for `key`, computed only if the key changed.
    pub fn get(&self, key: K, compute: impl FnOnce() -> V) -> Rc<V> {
        match self.kept(|k| *k == key) {
            Some(value) => value,
            None => self.keep(key, compute()),
        }
    }

    /// The value kept if `same` says its key is the one wanted, else the value `compute`
    /// makes, kept with the key `key` makes (a key of several parts, some borrowed, is
    /// copied only when it changed).
    pub fn get_when(
        &self,
        same: impl FnOnce(&K) -> bool,
        key: impl FnOnce() -> K,
        compute: impl FnOnce() -> V,
    ) -> Rc<V> {
        match self.kept(same) {
            Some(value) => value,
            None => self.keep(key(), compute()),
        }
    }

    /// The value kept, if `same` says its key is the one wanted.
    fn kept(&self, same: impl FnOnce(&K) -> bool) -> Option<Rc<V>> {
        let slot = self.0.borrow();
        let (k, v) = slot.as_ref()?;
        same(k).then(|| v.clone())
    }

    /// Keeps `value` for `key`, in place of what was kept.
    fn keep(&self, key: K, value: V) -> Rc<V> {
        let value = Rc::new(value);
        *self.0.borrow_mut() = Some((key, value.clone()));
        value
    }

    /// Forgets the value (the session it was read from was replaced).
    pub fn clear(&mut self) {
        *self.0.get_mut() = None;
    }
}
