//! Cards and chips for the views' tests: a live member's card and a running active chip, to be
//! changed with struct update where a test needs otherwise.

use super::frame::{Card, Chip, ChipRole};
use crate::engine::member::MemberStatus;
use crate::model::{MemberId, TaskId};

/// Task `task`'s active chip, named `T{task}`, stateful, processing, fully replayed.
pub fn active(task: u32) -> Chip {
    Chip {
        task: TaskId(task),
        name: format!("T{task}").into(),
        role: ChipRole::Active,
        stateful: true,
        learned: false,
        ready: false,
        progress: 100,
        lag: 0,
        up: true,
        ready_in_ms: None,
    }
}

/// Member `id`'s card (named `S{id + 1}`, the leader when `id` is 0), live, holding `chips`.
pub fn member(id: u32, chips: Vec<Chip>, zone: Option<&str>) -> Card {
    Card {
        id: MemberId(id),
        name: format!("S{}", id + 1),
        status: MemberStatus::Live { joined_at: 0 },
        leader: id == 0,
        capacity: 1,
        restore_rate: 1000,
        chips: chips.into(),
        can_crash: true,
        can_drain: true,
        can_restart: true,
        zone: zone.map(str::to_string),
        restart: None,
    }
}
