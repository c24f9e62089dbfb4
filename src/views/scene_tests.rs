//! The scene's layout: every box inside the group and its card, none overlapping, zones around
//! their members, the tray below, chips in rows and marks in rows of sixteen, at any width.

use super::*;
use crate::views::fixtures::{active, member};
use crate::views::frame::Countdown;

fn card(id: u32, chips: usize, zone: Option<&str>) -> Card {
    let chips = (0..chips as u32).map(|t| active(id * 1000 + t)).collect();
    member(id, chips, zone)
}

/// Every card inside the scene and apart from the others, its marks inside it, the tray below.
fn assert_well_laid_out(scene: &Scene, cards: &[Card]) {
    let whole = Rect::new(0.0, 0.0, scene.width, scene.height);
    assert_eq!(scene.members.len(), cards.len());
    let mut seen: Vec<usize> = scene.members.iter().map(|m| m.card).collect();
    seen.sort();
    assert_eq!(
        seen,
        (0..cards.len()).collect::<Vec<_>>(),
        "every card once"
    );
    for (i, m) in scene.members.iter().enumerate() {
        assert!(
            whole.holds(&m.rect),
            "card {:?} outside {:?}",
            m.rect,
            whole
        );
        assert!(
            m.rect.holds(&m.content),
            "marks {:?} outside their card {:?}",
            m.content,
            m.rect
        );
        assert!(m.scale > 0.0 && m.scale <= 1.0);
        for other in &scene.members[i + 1..] {
            assert!(
                !m.rect.overlaps(&other.rect),
                "{:?} and {:?} overlap",
                m.rect,
                other.rect
            );
        }
        if let Some(tray) = &scene.tray {
            assert!(!m.rect.overlaps(tray));
        }
        let chips: Vec<&ChipBox> = scene.chips_of(Holder::Member(m.card)).collect();
        if !scene.chips.is_empty() || chips.is_empty() {
            assert!(
                chips.iter().all(|c| m.content.holds(&c.rect)),
                "chips outside {:?}",
                m.content
            );
        }
    }
    if let Some(tray) = &scene.tray {
        assert!(whole.holds(tray));
        assert!(scene.chips_of(Holder::Tray).all(|c| tray.holds(&c.rect)));
    }
    for (i, a) in scene.chips.iter().enumerate() {
        for b in &scene.chips[i + 1..] {
            assert!(
                !a.rect.overlaps(&b.rect),
                "chips {:?} and {:?} overlap",
                a.rect,
                b.rect
            );
        }
    }
    for band in &scene.zones {
        for &i in &band.members {
            let m = scene.members.iter().find(|m| m.card == i).expect("placed");
            assert!(
                band.rect.holds(&m.rect),
                "{:?} outside its zone {:?}",
                m.rect,
                band.rect
            );
            assert_eq!(cards[i].zone, band.zone);
        }
    }
}

#[test]
fn a_wide_view_puts_cards_side_by_side_and_a_narrow_one_stacks_them() {
    let cards: Vec<Card> = (0..4).map(|i| card(i, 30, None)).collect();
    let wide = Scene::of(&cards, 0, Density::Cards, Content::Marks, 1000.0);
    let narrow = Scene::of(&cards, 0, Density::Cards, Content::Marks, 300.0);
    assert_well_laid_out(&wide, &cards);
    assert_well_laid_out(&narrow, &cards);
    assert!(
        wide.members.iter().all(|m| m.rect.y == 0.0),
        "four cards of 236 px fit in 1000 px"
    );
    let tops: Vec<f64> = narrow.members.iter().map(|m| m.rect.y).collect();
    assert!(
        tops.windows(2).all(|w| w[0] < w[1]),
        "one card a row: {tops:?}"
    );
    assert!(narrow.height > 3.0 * (wide.height - wide.tray.map_or(0.0, |t| t.h)));
}

#[test]
fn marks_come_in_rows_of_sixteen_and_a_row_of_cards_is_as_tall_as_its_tallest() {
    let cards = vec![card(0, 16, None), card(1, 17, None), card(2, 40, None)];
    let scene = Scene::of(&cards, 0, Density::Cards, Content::Marks, 800.0);
    assert_well_laid_out(&scene, &cards);
    let rows: Vec<f64> = scene.members.iter().map(|m| m.content.h).collect();
    assert_eq!(rows[1], 2.0 * rows[0]);
    assert_eq!(rows[2], 3.0 * rows[0]);
    assert!(scene
        .members
        .iter()
        .all(|m| m.rect.h == scene.members[2].rect.h));
}

#[test]
fn a_restarting_member_has_room_for_its_countdown_above_its_marks() {
    let mut cards = vec![card(0, 10, None), card(1, 10, None)];
    cards[1].restart = Some(Countdown {
        since: 0,
        back_at: 6000,
        back_in_ms: 3000,
        keep_state: true,
    });
    let scene = Scene::of(&cards, 0, Density::Cards, Content::Marks, 600.0);
    assert_well_laid_out(&scene, &cards);
    assert!(scene.members[1].content.y > scene.members[0].content.y);
}

#[test]
fn zones_are_bands_around_their_members_and_the_zoneless_come_last() {
    let cards = vec![
        card(0, 8, Some("b")),
        card(1, 8, Some("a")),
        card(2, 8, None),
        card(3, 8, Some("a")),
    ];
    let scene = Scene::of(&cards, 0, Density::Cards, Content::Marks, 1200.0);
    assert_well_laid_out(&scene, &cards);
    let names: Vec<Option<&str>> = scene.zones.iter().map(|z| z.zone.as_deref()).collect();
    assert_eq!(names, [Some("a"), Some("b"), None]);
    assert_eq!(scene.zones[0].members, [1, 3]);
    let tray = scene.tray.expect("a large group always shows its tray");
    assert!(scene.zones.iter().all(|z| z.rect.y + z.rect.h <= tray.y));
}

#[test]
fn lanes_are_one_member_a_row_with_marks_shrunk_to_fit() {
    let cards: Vec<Card> = (0..5).map(|i| card(i, 20, None)).collect();
    let scene = Scene::of(&cards, 0, Density::Lanes, Content::Marks, 215.0);
    assert_well_laid_out(&scene, &cards);
    for w in scene.members.windows(2) {
        assert!(w[0].rect.y + w[0].rect.h <= w[1].rect.y);
    }
    assert!(
        scene.members[0].scale < 1.0,
        "a narrow lane shrinks the marks"
    );
    let wide = Scene::of(&cards, 0, Density::Lanes, Content::Marks, 1200.0);
    assert_eq!(wide.members[0].scale, 1.0);
}

#[test]
fn only_the_cards_in_view_are_drawn() {
    let cards: Vec<Card> = (0..40).map(|i| card(i, 20, None)).collect();
    let scene = Scene::of(&cards, 0, Density::Cards, Content::Marks, 500.0);
    let shown: Vec<usize> = scene
        .members_between(300.0, 500.0)
        .map(|m| m.card)
        .collect();
    assert!(!shown.is_empty() && shown.len() < cards.len());
    for m in &scene.members {
        let inside = m.rect.y < 500.0 && m.rect.y + m.rect.h > 300.0;
        assert_eq!(shown.contains(&m.card), inside);
    }
}

/// Random groups (proptest does not build for wasm32, where clippy also checks the tests).
#[cfg(not(target_arch = "wasm32"))]
mod random {
    use super::*;
    use crate::engine::member::MemberStatus;
    use crate::views::frame::{Chip, ChipRole};
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn any_group_at_any_width_is_well_laid_out(
            chips in proptest::collection::vec(0usize..60, 0..30),
            zoned in any::<bool>(),
            lanes in any::<bool>(),
            marks in any::<bool>(),
            unowned in 0usize..30,
            width in 10.0f64..2400.0,
        ) {
            let cards: Vec<Card> = chips
                .iter()
                .enumerate()
                .map(|(i, &n)| card(i as u32, n, zoned.then_some(["a", "b", "c"][i % 3])))
                .collect();
            let density = if lanes { Density::Lanes } else { Density::Cards };
            let content = if marks { Content::Marks } else { Content::Chips };
            let scene = Scene::of(&cards, unowned, density, content, width);
            assert_well_laid_out(&scene, &cards);
            let held = cards.iter().map(|c| c.chips.len()).sum::<usize>() + unowned;
            prop_assert_eq!(scene.content, content);
            prop_assert_eq!(scene.chips.len(), if marks { 0 } else { held });
            prop_assert_eq!(scene.tray.is_some(), marks || unowned > 0);
            prop_assert!(width < 500.0 || scene.width == width, "laid out for {} in {width}", scene.width);
        }

        #[test]
        fn frames_of_one_shape_lay_out_alike_and_a_change_of_layout_changes_the_shape(
            chips in proptest::collection::vec(0usize..40, 1..24),
            zoned in any::<bool>(),
            restarting in proptest::collection::vec(any::<bool>(), 24),
            others in proptest::collection::vec((any::<bool>(), 0u8..=100, any::<bool>(), 0usize..3), 24),
            unowned in 0usize..10,
            width in 200.0f64..2400.0,
            changed in 0usize..24,
        ) {
            let countdown = Countdown { since: 0, back_at: 6_000, back_in_ms: 3_000, keep_state: true };
            let cards: Vec<Card> = chips
                .iter()
                .enumerate()
                .map(|(i, &n)| Card {
                    restart: restarting[i].then_some(countdown),
                    ..card(i as u32, n, zoned.then_some(["a", "b", "c"][i % 3]))
                })
                .collect();
            // The same group a moment later: replay went on, states and leadership changed,
            // and some cards hold a task or two more, in the same zones.
            let later: Vec<Card> = cards
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let (crashed, progress, leader, more) = others[i];
                    let replayed = c
                        .chips
                        .iter()
                        .map(|chip| Chip { progress, up: progress == 100, role: ChipRole::Learner, ..chip.clone() });
                    Card {
                        status: if crashed { MemberStatus::Crashed { at: 0, in_group: true } } else { c.status },
                        leader,
                        chips: replayed.chain((0..more as u32).map(|t| active(900_000 + t))).collect(),
                        restart: c.restart.map(|r| Countdown { back_in_ms: r.back_in_ms / 2, ..r }),
                        ..c.clone()
                    }
                })
                .collect();
            for content in [Content::Chips, Content::Marks, Content::Bars] {
                let same = Shape::of(&cards, unowned, content) == Shape::of(&later, unowned, content);
                let unchanged = others.iter().take(cards.len()).all(|o| o.3 == 0);
                prop_assert!(same || !unchanged, "as many tasks, the same shape");
                for density in [Density::Cards, Density::Lanes, Density::Tiles(3)] {
                    if same {
                        prop_assert_eq!(
                            Scene::of(&cards, unowned, density, content, width),
                            Scene::of(&later, unowned, density, content, width)
                        );
                    }
                }
            }
            // Whatever the layout reads, changed, changes the shape: as many more chips as a
            // row of marks holds and one, a zone, a restart.
            let i = changed % cards.len();
            let mut more = cards.clone();
            more[i].chips = more[i].chips.iter().cloned().chain((0..17).map(|t| active(999_000 + t))).collect();
            let mut moved = cards.clone();
            moved[i].zone = Some("elsewhere".into());
            let mut back = cards.clone();
            back[i].restart = if cards[i].restart.is_some() { None } else { Some(countdown) };
            for content in [Content::Chips, Content::Marks, Content::Bars] {
                let shape = Shape::of(&cards, unowned, content);
                let others = [&moved, &back].into_iter().chain((content != Content::Bars).then_some(&more));
                for other in others {
                    prop_assert_ne!(&shape, &Shape::of(other, unowned, content));
                }
                // A tray of chips grows with its chips; with marks or tiles it is one line.
                let tray = Shape::of(&cards, unowned + 1, content);
                prop_assert_eq!(shape == tray, content != Content::Chips);
                for density in [Density::Cards, Density::Lanes, Density::Tiles(3)] {
                    if shape == tray {
                        prop_assert_eq!(
                            Scene::of(&cards, unowned, density, content, width),
                            Scene::of(&cards, unowned + 1, density, content, width)
                        );
                    }
                }
            }
            // Tiles hold no tasks of their own: more tasks, the same tiles.
            prop_assert_eq!(Shape::of(&cards, unowned, Content::Bars), Shape::of(&more, unowned, Content::Bars));
        }
    }
}

/// Overviews of random groups (up to a thousand members) in random views.
#[cfg(not(target_arch = "wasm32"))]
mod overviews {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        // Each case lays out and checks up to a thousand tiles pairwise: fewer cases.
        #![proptest_config(ProptestConfig::with_cases(256))]
        #[test]
        fn an_overview_fits_the_view_when_its_smallest_tiles_can(
            members in 1usize..1000,
            zoned in any::<bool>(),
            unowned in 0usize..30,
            width in 320.0f64..2400.0,
            height in 200.0f64..1400.0,
        ) {
            let cards: Vec<Card> = (0..members)
                .map(|i| card(i as u32, i % 13, zoned.then_some(["a", "b", "c"][i % 3])))
                .collect();
            let scene = Scene::overview(&cards, unowned, width, height);
            assert_well_laid_out(&scene, &cards);
            prop_assert_eq!(scene.content, Content::Bars);
            prop_assert!(scene.chips.is_empty(), "no chips in an overview");
            prop_assert!(scene.tray.is_some(), "the tray keeps its line");
            let smallest = Scene::of(&cards, unowned, Density::Tiles(TILES.len() - 1), Content::Bars, width);
            if smallest.height <= height {
                prop_assert!(scene.height <= height, "{} tall in {height}", scene.height);
            } else {
                prop_assert_eq!(scene.height, smallest.height, "the smallest tiles when none fit");
            }
            // The largest tiles that fit: one step larger would not.
            let larger = TILES.iter().position(|&(_, h)| h == scene.members[0].rect.h).unwrap_or(0);
            if larger > 0 {
                let bigger = Scene::of(&cards, unowned, Density::Tiles(larger - 1), Content::Bars, width);
                prop_assert!(bigger.height > height);
            }
        }
    }
}

#[test]
fn an_overview_shows_fifty_members_as_named_tiles_and_a_thousand_as_small_ones() {
    let fifty: Vec<Card> = (0..50).map(|i| card(i, 10, None)).collect();
    let scene = Scene::overview(&fifty, 0, 1240.0, 500.0);
    assert!(scene.height <= 500.0);
    let tile = scene.members[0];
    assert!(
        tile.rect.h >= NAMED_TILE,
        "room for a name: {:?}",
        tile.rect
    );
    assert!(tile.content.h >= 9.0, "three bars: {:?}", tile.content);
    let thousand: Vec<Card> = (0..1000).map(|i| card(i, 10, None)).collect();
    let scene = Scene::overview(&thousand, 0, 1240.0, 500.0);
    assert!(scene.height <= 500.0, "{}", scene.height);
    assert!(scene.members[0].rect.h < NAMED_TILE, "too many to name");
    assert_eq!(scene.member_at(1.0, 1.0).map(|m| m.card), Some(0));
    let last = scene.members[999].rect;
    assert_eq!(
        scene.member_at(last.x + 2.0, last.y + 2.0).map(|m| m.card),
        Some(999)
    );
    assert_eq!(scene.member_at(-5.0, 1.0), None);
}

#[test]
fn the_arrow_keys_move_along_a_row_and_down_a_column_of_tiles() {
    let cards: Vec<Card> = (0..23).map(|i| card(i, 4, None)).collect();
    let scene = Scene::overview(&cards, 0, 500.0, 400.0);
    let columns = scene
        .members
        .iter()
        .filter(|m| m.rect.y == scene.members[0].rect.y)
        .count();
    assert!(columns > 1 && columns < 23, "{columns} columns");
    assert_eq!(scene.step(0, Step::Next), Some(1));
    assert_eq!(scene.step(0, Step::Previous), None);
    assert_eq!(scene.step(0, Step::Down), Some(columns));
    assert_eq!(scene.step(columns + 1, Step::Up), Some(1));
    assert_eq!(scene.step(1, Step::Up), None, "the top row");
    assert_eq!(scene.step(22, Step::Next), None);
    assert_eq!(scene.step(5, Step::First), Some(0));
    assert_eq!(scene.step(5, Step::Last), Some(22));
    // Zones side by side: down from a zone's last row goes to the band below, if any.
    let zoned: Vec<Card> = (0..12)
        .map(|i| card(i, 4, Some(["a", "b"][i as usize % 2])))
        .collect();
    let scene = Scene::overview(&zoned, 0, 1200.0, 400.0);
    let a_last = scene
        .members
        .iter()
        .rposition(|m| zoned[m.card].zone.as_deref() == Some("a"));
    let a_last = a_last.expect("zone a");
    let down = scene.step(a_last, Step::Down);
    assert!(
        down.is_none_or(|d| scene.members[d].rect.y > scene.members[a_last].rect.y),
        "never up or sideways"
    );
}

#[test]
fn the_cards_show_when_they_fit_or_a_person_chose_them() {
    assert_eq!(Zoom::shown(None, 400.0, 500.0), Zoom::Cards);
    assert_eq!(Zoom::shown(None, 900.0, 500.0), Zoom::Overview);
    assert_eq!(Zoom::shown(Some(Zoom::Cards), 900.0, 500.0), Zoom::Cards);
    assert_eq!(
        Zoom::shown(Some(Zoom::Overview), 400.0, 500.0),
        Zoom::Overview
    );
}

#[test]
fn chips_come_in_rows_inside_their_card_and_orphans_in_the_tray() {
    let cards = vec![card(0, 2, None), card(1, 12, None), card(2, 1, None)];
    let scene = Scene::of(&cards, 5, Density::Cards, Content::Chips, 660.0);
    assert_well_laid_out(&scene, &cards);
    assert_eq!(scene.chips.len(), 2 + 12 + 1 + 5);
    assert_eq!(scene.chips_of(Holder::Tray).count(), 5);
    let one = Scene::of(&cards[..1], 0, Density::Cards, Content::Chips, 660.0);
    assert!(
        scene.members[0].rect.h > one.members[0].rect.h,
        "a row is as tall as its tallest card"
    );
    assert!(one.tray.is_none(), "no tray when every task runs");
}

#[test]
fn a_chip_on_its_way_is_between_where_it_was_and_where_it_goes() {
    let (from, to) = (
        Rect::new(0.0, 0.0, 58.0, 30.0),
        Rect::new(100.0, 40.0, 58.0, 30.0),
    );
    assert_eq!(from.toward(&to, 0.0), from);
    assert_eq!(from.toward(&to, 1.0), to);
    assert_eq!(from.toward(&to, 0.5), Rect::new(50.0, 20.0, 58.0, 30.0));
}

#[test]
fn the_union_of_rectangles_holds_each_of_them_and_no_more() {
    let (a, b) = (
        Rect::new(10.0, 40.0, 20.0, 10.0),
        Rect::new(50.0, 0.0, 20.0, 10.0),
    );
    let both = a.union(&b);
    assert_eq!(both, Rect::new(10.0, 0.0, 60.0, 50.0));
    assert!(both.holds(&a) && both.holds(&b));
    assert_eq!(a.union(&a), a);
}

#[test]
fn a_rectangle_snapped_to_device_pixels_covers_whole_pixels_near_where_it_was() {
    let r = Rect::new(10.3, 4.6, 96.45, 35.9);
    assert_eq!(r.snapped(1.0), Rect::new(10.0, 5.0, 97.0, 36.0));
    let two = r.snapped(2.0);
    assert_eq!(
        (two.x * 2.0, two.y * 2.0, two.w * 2.0, two.h * 2.0),
        (21.0, 9.0, 193.0, 72.0)
    );
    // Neighbours that touch still touch: the snapped edge is shared.
    let next = Rect::new(r.x + r.w, r.y, 50.0, r.h);
    assert_eq!(r.snapped(1.5).x + r.snapped(1.5).w, next.snapped(1.5).x);
}

#[test]
fn each_band_lists_its_members_boxes_in_the_order_they_are_laid_out() {
    let cards: Vec<Card> = (0..9)
        .map(|i| card(i, 3, Some(["b", "a", "c"][i as usize % 3])))
        .collect();
    let scene = Scene::of(&cards, 0, Density::Cards, Content::Chips, 900.0);
    let bands = scene.members_by_band();
    assert_eq!(bands.len(), scene.zones.len());
    for (band, boxes) in bands {
        let in_scene_order: Vec<usize> = scene
            .members
            .iter()
            .filter(|m| band.members.contains(&m.card))
            .map(|m| m.card)
            .collect();
        let listed: Vec<usize> = boxes.iter().map(|m| m.card).collect();
        assert_eq!(listed, in_scene_order, "{:?}", band.zone);
        assert!(boxes.iter().all(|m| band.rect.holds(&m.rect)));
    }
}

#[test]
fn the_arrow_keys_home_and_end_are_steps_and_no_other_key_is() {
    assert_eq!(Step::of_key("ArrowRight"), Some(Step::Next));
    assert_eq!(Step::of_key("ArrowLeft"), Some(Step::Previous));
    assert_eq!(Step::of_key("ArrowDown"), Some(Step::Down));
    assert_eq!(Step::of_key("ArrowUp"), Some(Step::Up));
    assert_eq!(Step::of_key("Home"), Some(Step::First));
    assert_eq!(Step::of_key("End"), Some(Step::Last));
    assert_eq!(Step::of_key("Enter"), None);
}
