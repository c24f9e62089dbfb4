//! ClientTagAwareStandbyTaskAssignorTest, with the zone as the one tag.

use super::*;

// ClientTagAwareStandbyTaskAssignorTest, with the zone as the one tag.

fn zoned(capacity: u32, zone: &str, actives: &[&str], all: &[&str]) -> Client {
    let mut c = Client::new(MemberId(0), capacity, Some(zone.to_string()));
    c.active = ids(all, actives);
    c
}

fn number(clients: &mut [Client]) {
    for (i, c) in clients.iter_mut().enumerate() {
        c.id = MemberId(i as u32 + 1);
    }
}

/// Which clients (numbered from 1) hold a standby of a task.
fn standby_holders(clients: &[Client], all: &[&str], task: &str) -> BTreeSet<u32> {
    let t = *ids(all, &[task]).iter().next().expect("task");
    clients
        .iter()
        .filter(|c| c.standby.contains(&t))
        .map(|c| c.id.0)
        .collect()
}

const GRID: [&str; 6] = ["0_0", "0_1", "0_2", "1_0", "1_1", "1_2"];

/// Nine clients with capacity 2 in zones 1, 2, 3, 1, 2, 3, ...; the actives on the given
/// clients (numbered from 1).
fn grid(actives: [(usize, [&str; 2]); 3]) -> Vec<Client> {
    let mut clients: Vec<Client> = (0..9)
        .map(|i| zoned(2, &format!("zone{}", i % 3 + 1), &[], &GRID))
        .collect();
    for (client, tasks) in actives {
        clients[client - 1].active = ids(&GRID, &tasks);
    }
    number(&mut clients);
    clients
}

#[test]
fn should_not_assign_stateless_tasks_to_any_clients() {
    let mut clients = grid([
        (1, ["0_0", "1_0"]),
        (4, ["0_1", "1_1"]),
        (7, ["0_2", "1_2"]),
    ]);
    let stateful: Vec<TaskId> = ids(&GRID, &["1_0", "1_1", "1_2"]).into_iter().collect();
    assign_standbys(&mut clients, &stateful, 2, true);
    for t in ["0_0", "0_1", "0_2"] {
        assert!(standby_holders(&clients, &GRID, t).is_empty(), "{t}");
    }
}

#[test]
fn should_remove_client_to_remaining_standbys_and_not_populate_pending_standby_tasks_to_client_id_when_all_standby_tasks_were_assigned(
) {
    // One client per zone, each running one task: two standbys fit in the two other zones.
    let mut clients = vec![
        zoned(2, "zone1", &["0_0"], &THREE),
        zoned(2, "zone2", &["0_1"], &THREE),
        zoned(2, "zone3", &["0_2"], &THREE),
    ];
    number(&mut clients);
    let tasks: Vec<TaskId> = ids(&THREE, &THREE).into_iter().collect();
    assign_standbys(&mut clients, &tasks, 2, true);
    assert_eq!(
        standby_holders(&clients, &THREE, "0_0"),
        BTreeSet::from([2, 3])
    );
    assert_eq!(
        standby_holders(&clients, &THREE, "0_1"),
        BTreeSet::from([1, 3])
    );
    assert_eq!(
        standby_holders(&clients, &THREE, "0_2"),
        BTreeSet::from([1, 2])
    );
}

#[test]
fn should_update_client_to_remaining_standbys_and_pending_standby_tasks_to_client_id_when_not_all_standby_tasks_were_assigned(
) {
    // Three standbys asked for, but only two other clients exist: one stays unassigned.
    let mut clients = vec![
        zoned(2, "zone1", &["0_0"], &THREE),
        zoned(2, "zone2", &["0_1"], &THREE),
        zoned(2, "zone3", &["0_2"], &THREE),
    ];
    number(&mut clients);
    let tasks: Vec<TaskId> = ids(&THREE, &THREE).into_iter().collect();
    assign_standbys(&mut clients, &tasks, 3, true);
    for t in THREE {
        assert_eq!(standby_holders(&clients, &THREE, t).len(), 2, "{t}");
    }
}

#[test]
fn should_permit_task_movement_when_client_tags_match() {
    assert!(standby_move_allowed(
        &zoned(1, "zone1", &[], &THREE),
        &zoned(2, "zone1", &[], &THREE)
    ));
}

#[test]
fn should_decline_task_movement_when_client_tags_do_not_match() {
    assert!(!standby_move_allowed(
        &zoned(1, "zone1", &[], &THREE),
        &zoned(1, "zone2", &[], &THREE)
    ));
}

#[test]
fn should_distribute_standby_tasks_using_function_and_supplier_tags() {
    let mut clients = grid([
        (1, ["0_0", "1_0"]),
        (2, ["0_1", "1_1"]),
        (3, ["0_2", "1_2"]),
    ]);
    let tasks: Vec<TaskId> = ids(&GRID, &GRID).into_iter().collect();
    assign_standbys(&mut clients, &tasks, 2, true);
    for c in &clients {
        assert!(c.assigned_count() >= 2, "every client reached its capacity");
    }
    let standbys: Vec<usize> = clients.iter().map(|c| c.standby.len()).collect();
    assert_eq!(standbys, [0, 0, 0, 2, 2, 2, 2, 2, 2]);
    let allowed = [
        (["0_0", "1_0"], [2, 3, 5, 6, 8, 9]),
        (["0_1", "1_1"], [1, 3, 4, 6, 7, 9]),
        (["0_2", "1_2"], [1, 2, 4, 5, 7, 8]),
    ];
    for (tasks, zones_apart) in allowed {
        for t in tasks {
            let holders = standby_holders(&clients, &GRID, t);
            assert!(
                holders.iter().all(|h| zones_apart.contains(h)),
                "{t}: {holders:?}"
            );
        }
    }
    assert_eq!(
        standby_holders(&clients, &GRID, "0_0"),
        BTreeSet::from([5, 6])
    );
    assert_eq!(
        standby_holders(&clients, &GRID, "0_1"),
        BTreeSet::from([4, 9])
    );
    assert_eq!(
        standby_holders(&clients, &GRID, "0_2"),
        BTreeSet::from([7, 8])
    );
}

#[test]
fn should_do_the_partial_rack_awareness() {
    // One tag with two zones: the first standby goes to the other zone; then both zones are
    // used, the zone stops constraining, and the second goes to the least loaded client.
    let all = ["0_0", "1_0"];
    let mut clients = vec![
        zoned(1, "zone1", &["0_0"], &all),
        zoned(1, "zone1", &[], &all),
        zoned(1, "zone1", &[], &all),
        zoned(1, "zone2", &["1_0"], &all),
    ];
    number(&mut clients);
    let tasks: Vec<TaskId> = ids(&all, &all).into_iter().collect();
    assign_standbys(&mut clients, &tasks, 2, true);
    let of_0_0 = standby_holders(&clients, &all, "0_0");
    assert!(
        of_0_0.contains(&4),
        "one standby of 0_0 in the other zone: {of_0_0:?}"
    );
    assert_eq!(of_0_0.len(), 2);
    let of_1_0 = standby_holders(&clients, &all, "1_0");
    assert_eq!(of_1_0.len(), 2);
    assert!(of_1_0.iter().all(|&c| c != 4));
}

#[test]
fn should_distribute_clients_on_different_zone_tags_even_when_clients_reached_capacity() {
    let mut clients = vec![
        zoned(1, "zone1", &["0_0"], &GRID),
        zoned(1, "zone2", &["0_1"], &GRID),
        zoned(1, "zone3", &["0_2"], &GRID),
        zoned(1, "zone1", &["1_0"], &GRID),
        zoned(1, "zone2", &["1_1"], &GRID),
        zoned(1, "zone3", &["1_2"], &GRID),
    ];
    number(&mut clients);
    let tasks: Vec<TaskId> = ids(&GRID, &GRID).into_iter().collect();
    assign_standbys(&mut clients, &tasks, 1, true);
    for c in &clients {
        assert_eq!(c.standby.len(), 1);
    }
    let expected = [
        ("0_0", 2),
        ("0_1", 1),
        ("0_2", 4),
        ("1_0", 3),
        ("1_1", 6),
        ("1_2", 5),
    ];
    for (t, holder) in expected {
        assert_eq!(
            standby_holders(&clients, &GRID, t),
            BTreeSet::from([holder]),
            "{t}"
        );
    }
}

#[test]
fn should_distribute_standby_tasks_on_least_loaded_clients_when_clients_are_not_on_different_tag_dimensions(
) {
    let all = ["0_0", "0_1", "0_2", "1_0"];
    let mut clients: Vec<Client> = all.iter().map(|t| zoned(3, "zone1", &[t], &all)).collect();
    number(&mut clients);
    let tasks: Vec<TaskId> = ids(&all, &all).into_iter().collect();
    assign_standbys(&mut clients, &tasks, 1, true);
    for c in &clients {
        assert_eq!(c.standby.len(), 1);
    }
}

#[test]
fn should_not_assign_standby_tasks_if_there_are_no_enough_clients() {
    let mut clients = vec![zoned(3, "zone1", &["0_0"], &["0_0"])];
    number(&mut clients);
    let tasks: Vec<TaskId> = ids(&["0_0"], &["0_0"]).into_iter().collect();
    assign_standbys(&mut clients, &tasks, 1, true);
    assert!(clients[0].standby.is_empty());
}
