//! A part of a view shown a few animation frames after it first appears, and a long list made
//! a few items a frame, so that a view of several heavy parts is built over a few frames, not
//! in one task that holds the page.

use gloo_render::request_animation_frame;
use yew::prelude::*;

/// Properties of [`Later`].
#[derive(Properties, PartialEq)]
pub struct LaterProps {
    /// How many animation frames after its first render the children appear (0: at once).
    pub frames: usize,
    /// What appears then, and from then on.
    pub children: Html,
}

/// What [`Later`] counts once its children appeared: they stay, whatever `frames` becomes.
const APPEARED: usize = usize::MAX;

/// Its children, from the `frames`-th animation frame after it was first rendered on.
#[function_component(Later)]
pub fn later(props: &LaterProps) -> Html {
    let waited = use_state(|| 0usize);
    let frames = props.frames;
    {
        let waited = waited.clone();
        use_effect_with((*waited, frames), move |&(n, frames)| {
            let next = if n == APPEARED {
                None
            } else if n >= frames {
                waited.set(APPEARED);
                None
            } else {
                Some(request_animation_frame(move |_| waited.set(n + 1)))
            };
            move || drop(next)
        });
    }
    if *waited >= frames {
        props.children.clone()
    } else {
        Html::default()
    }
}

/// How many of a list's `total` items to make now: `first` at the first render (and again
/// whenever `key` changes), `per_frame` more at each animation frame after, and from the frame
/// the last were made on, all of them (items added later come at once).
#[hook]
pub fn use_made<K: PartialEq + Clone + 'static>(
    key: K,
    total: usize,
    first: usize,
    per_frame: usize,
) -> usize {
    let made = use_state(|| (key.clone(), first));
    let n = if made.0 == key { made.1 } else { first };
    {
        let made = made.clone();
        use_effect_with((key, n, total), move |(key, n, total)| {
            let (key, n, total) = (key.clone(), *n, *total);
            let next = (n < total).then(|| {
                request_animation_frame(move |_| {
                    let more = n + per_frame;
                    made.set((key, if more >= total { APPEARED } else { more }));
                })
            });
            move || drop(next)
        });
    }
    n
}
