//! How far the group is zoomed, as the page shows it: the choice between the cards and the
//! overview (a person's, or the cards when they fit the room the view has), what ctrl and the
//! wheel ask for, and which members travel from their place at one zoom to their place at the
//! other.

use super::frame::Card;
use super::geometry::Rect;
use super::scene::{Content, Density, Scene, Zoom};
use std::collections::HashMap;

/// What the group is laid out as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// One row per member (the compare view's lanes), never zoomed.
    pub small: bool,
    /// What the cards hold: chips, or marks for a large group.
    pub content: Content,
    /// The zoom a person chose, if any.
    pub chosen: Option<Zoom>,
}

/// The group laid out as the page shows it, `width` wide with `room` in height below its
/// top, and the zoom shown (none for the compare view's lanes): the overview if chosen; the
/// cards if chosen or, nothing chosen, if they are no taller than the room; else the overview.
pub fn laid_out(
    cards: &[Card],
    unowned: usize,
    layout: Layout,
    (width, room): (f64, f64),
) -> (Scene, Option<Zoom>) {
    if layout.small {
        let scene = Scene::of(cards, unowned, Density::Lanes, layout.content, width);
        return (scene, None);
    }
    let overview = || Scene::overview(cards, unowned, width, room);
    if layout.chosen == Some(Zoom::Overview) {
        return (overview(), Some(Zoom::Overview));
    }
    let laid = Scene::of(cards, unowned, Density::Cards, layout.content, width);
    match Zoom::shown(layout.chosen, laid.height, room) {
        Zoom::Cards => (laid, Some(Zoom::Cards)),
        Zoom::Overview => (overview(), Some(Zoom::Overview)),
    }
}

/// The zoom ctrl and the wheel ask for over the group shown at `shown`: rolled up (`up`),
/// from the overview into the cards; down, from the cards out to the overview; nothing
/// otherwise.
pub fn wheel(shown: Zoom, up: bool) -> Option<Zoom> {
    match (shown, up) {
        (Zoom::Overview, true) => Some(Zoom::Cards),
        (Zoom::Cards, false) => Some(Zoom::Overview),
        _ => None,
    }
}

/// The margin kept under the group, in CSS pixels.
const ROOM_MARGIN: f64 = 16.0;

/// The height a view `view` high has for a group whose top is `top` down the page: what is
/// left below it, less a margin, but at least half the view (the page above scrolls away);
/// whole pixels. Before the group is on the page, its top is taken as 200.
pub fn room(view: f64, top: Option<f64>) -> f64 {
    match top {
        Some(top) => (view - top - ROOM_MARGIN).max(view / 2.0).floor(),
        None => (view - 200.0).max(view / 2.0),
    }
}

/// A member travelling from its place at one zoom to its place at the other.
#[derive(Clone, Debug, PartialEq)]
pub struct Traveller {
    /// The member's name.
    pub name: String,
    /// Where it was, in the group.
    pub from: Rect,
    /// Where it goes.
    pub to: Rect,
}

/// The members that travel when the zoom changes from `old` to `new` (each a scene and the
/// cards it was laid out from): those seen in the view at both places (the group's top
/// `top` down the view, `view` high), and the member zoomed into (`centre`) wherever it is;
/// at most `most`, in the new scene's order.
pub fn travellers(
    old: (&Scene, &[Card]),
    new: (&Scene, &[Card]),
    centre: Option<&str>,
    (top, view): (f64, f64),
    most: usize,
) -> Vec<Traveller> {
    let was: HashMap<&str, Rect> = old
        .0
        .members
        .iter()
        .filter_map(|m| Some((old.1.get(m.card)?.name.as_str(), m.rect)))
        .collect();
    let seen = |r: &Rect| top + r.y < view && top + r.y + r.h > 0.0;
    new.0
        .members
        .iter()
        .filter_map(|m| {
            let name = &new.1.get(m.card)?.name;
            let from = *was.get(name.as_str())?;
            let wanted = centre == Some(name.as_str()) || (seen(&from) && seen(&m.rect));
            wanted.then(|| Traveller {
                name: name.clone(),
                from,
                to: m.rect,
            })
        })
        .take(most)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::views::fixtures::{active, member};

    /// `n` members of 8 tasks each.
    fn group(n: u32) -> Vec<Card> {
        (0..n)
            .map(|id| member(id, (0..8).map(|t| active(id * 8 + t)).collect(), None))
            .collect()
    }

    fn layout(chosen: Option<Zoom>) -> Layout {
        Layout {
            small: false,
            content: Content::Chips,
            chosen,
        }
    }

    #[test]
    fn the_cards_show_when_they_fit_the_room_and_the_overview_when_they_do_not() {
        let cards = group(6);
        let height = Scene::of(&cards, 0, Density::Cards, Content::Chips, 1000.0).height;
        let (scene, zoom) = laid_out(&cards, 0, layout(None), (1000.0, height));
        assert_eq!(zoom, Some(Zoom::Cards), "they fit exactly");
        assert_eq!(scene.content, Content::Chips);
        let (scene, zoom) = laid_out(&cards, 0, layout(None), (1000.0, height - 1.0));
        assert_eq!(zoom, Some(Zoom::Overview));
        assert_eq!(scene.content, Content::Bars);
        assert!(scene.height <= height - 1.0, "the overview fits");
    }

    #[test]
    fn a_persons_choice_wins_and_the_lanes_are_never_zoomed() {
        let cards = group(6);
        let (_, zoom) = laid_out(&cards, 0, layout(Some(Zoom::Cards)), (1000.0, 10.0));
        assert_eq!(zoom, Some(Zoom::Cards), "cards chosen, however tall");
        let (scene, zoom) = laid_out(&cards, 0, layout(Some(Zoom::Overview)), (1000.0, 1e6));
        assert_eq!((zoom, scene.content), (Some(Zoom::Overview), Content::Bars));
        let lanes = Layout {
            small: true,
            ..layout(Some(Zoom::Overview))
        };
        let (scene, zoom) = laid_out(&cards, 0, lanes, (1000.0, 10.0));
        assert_eq!(zoom, None);
        assert_eq!(
            scene,
            Scene::of(&cards, 0, Density::Lanes, Content::Chips, 1000.0)
        );
    }

    #[test]
    fn the_wheel_zooms_in_from_the_overview_and_out_from_the_cards() {
        assert_eq!(wheel(Zoom::Overview, true), Some(Zoom::Cards));
        assert_eq!(wheel(Zoom::Cards, false), Some(Zoom::Overview));
        assert_eq!(wheel(Zoom::Cards, true), None, "no further in");
        assert_eq!(wheel(Zoom::Overview, false), None, "no further out");
    }

    #[test]
    fn the_room_is_what_the_view_has_below_the_group_but_at_least_half_of_it() {
        assert_eq!(room(720.0, Some(200.0)), 504.0);
        assert_eq!(room(720.0, Some(200.4)), 503.0, "whole pixels");
        assert_eq!(room(720.0, Some(600.0)), 360.0, "half the view");
        assert_eq!(room(720.0, None), 520.0, "before the group is on the page");
        assert_eq!(room(300.0, None), 150.0);
    }

    #[test]
    fn the_members_seen_at_both_zooms_and_the_one_zoomed_into_travel() {
        let cards = group(40);
        let overview = Scene::overview(&cards, 0, 1000.0, 400.0);
        let laid = Scene::of(&cards, 0, Density::Cards, Content::Chips, 1000.0);
        let view = (0.0, 400.0);
        let moving = travellers((&overview, &cards), (&laid, &cards), None, view, 64);
        assert!(!moving.is_empty());
        for t in &moving {
            assert!(
                t.to.y < 400.0 && t.from.y < 400.0,
                "{} seen at both",
                t.name
            );
            let card = cards
                .iter()
                .position(|c| c.name == t.name)
                .expect("a member");
            let at = |s: &Scene| s.members.iter().find(|m| m.card == card).map(|m| m.rect);
            assert_eq!((Some(t.from), Some(t.to)), (at(&overview), at(&laid)));
        }
        let last = &cards[39].name;
        assert!(
            moving.iter().all(|t| &t.name != last),
            "S40's card is far below"
        );
        let centred = travellers((&overview, &cards), (&laid, &cards), Some(last), view, 64);
        assert!(
            centred.iter().any(|t| &t.name == last),
            "the member zoomed into travels"
        );
        assert_eq!(
            travellers((&overview, &cards), (&laid, &cards), None, view, 2).len(),
            2,
            "at most `most`"
        );
    }
}
