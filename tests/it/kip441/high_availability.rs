//! HighAvailabilityTaskAssignorTest, through the assignor the engine and `handoff assign` run.

use super::*;

#[test]
fn should_be_sticky_for_active_and_standby_tasks_while_warming_up() {
    let c1 = client(1, &lagging(&A9, 0));
    let c2 = client(1, &lagging(&A9, 10));
    let c3 = client(1, &[]);
    let out = hata(&[c1, c2, c3], &A9, &A9, Settings(11, 2, 1));
    assert_eq!(
        (out.assigned(0), out.assigned(1), out.assigned(2)),
        (9, 9, 2)
    );
    assert!(out.probing);
    assert_eq!(out.active(0), set(&["0_0", "0_2", "1_0", "2_0", "2_2"]));
    assert_eq!(out.standby(0), set(&["0_1", "1_1", "1_2", "2_1"]));
    assert_eq!(out.active(1), set(&["0_1", "1_1", "1_2", "2_1"]));
    assert_eq!(out.standby(1), set(&["0_0", "0_2", "1_0", "2_0", "2_2"]));
    assert_eq!(out.standby(2), set(&["0_1", "0_2"]));
    assert_eq!(
        out.clients[2].warmup,
        set(&["0_1", "0_2"]),
        "warm-ups are learners"
    );
}

#[test]
fn should_skip_warmups_when_acceptable_lag_is_max() {
    let c1 = client(1, &lagging(&A9, 0));
    let out = hata(
        &[c1, client(1, &[]), client(1, &[])],
        &A9,
        &A9,
        Settings(u64::MAX, 1, 1),
    );
    for c in 0..3 {
        assert_eq!(out.active(c).len(), 3);
        assert_eq!(out.standby(c).len(), 3);
        assert!(out.clients[c].warmup.is_empty());
    }
    assert!(!out.probing);
}

fn even_nine(capacity: u32, clients: usize) -> Outcome {
    let specs: Vec<ClientSpec> = (0..clients)
        .map(|_| client(capacity, &lagging(&A9, 10)))
        .collect();
    let out = hata(&specs, &A9, &A9, Settings(0, 1, 0));
    assert!(!out.probing);
    out.valid(0, 0);
    out.balanced_active();
    out.balanced_stateful();
    assert!(out.subtopology_skew() <= 1);
    out
}

#[test]
fn should_assign_active_stateful_tasks_evenly_over_clients_where_number_of_clients_integral_divisor_of_number_of_tasks(
) {
    let out = even_nine(1, 3);
    assert_eq!(out.active(0), set(&["0_0", "1_0", "2_0"]));
    assert_eq!(out.active(1), set(&["0_1", "1_1", "2_1"]));
    assert_eq!(out.active(2), set(&["0_2", "1_2", "2_2"]));
}

#[test]
fn should_assign_active_stateful_tasks_evenly_over_clients_where_number_of_threads_integral_divisor_of_number_of_tasks(
) {
    let out = even_nine(3, 3);
    assert_eq!(out.active(0), set(&["0_0", "1_0", "2_0"]));
}

#[test]
fn should_assign_active_stateful_tasks_evenly_over_clients_where_number_of_clients_not_integral_divisor_of_number_of_tasks(
) {
    let out = even_nine(1, 2);
    assert_eq!(out.active(0), set(&["0_0", "0_2", "1_1", "2_0", "2_2"]));
    assert_eq!(out.active(1), set(&["0_1", "1_0", "1_2", "2_1"]));
}

#[test]
fn should_assign_active_stateful_tasks_evenly_over_unevenly_distributed_stream_threads() {
    let tasks = ["0_0", "0_1", "0_2", "1_0", "1_1", "1_2"];
    let specs: Vec<ClientSpec> = [1, 2, 3]
        .iter()
        .map(|&c| client(c, &lagging(&tasks, 10)))
        .collect();
    let out = hata(&specs, &tasks, &tasks, Settings(0, 1, 0));
    assert!(!out.probing);
    out.valid(0, 0);
    out.balanced_active();
    out.balanced_stateful();
    let counts: Vec<usize> = (0..3).map(|c| out.active(c).len()).collect();
    assert_eq!(counts, [1, 2, 3]);
    assert!(out.subtopology_skew() > 1, "a skewed subtopology exists");
    assert_eq!(out.active(0), set(&["1_0"]));
    assert_eq!(out.active(1), set(&["0_1", "1_1"]));
    assert_eq!(out.active(2), set(&["0_0", "0_2", "1_2"]));
}

#[test]
fn should_assign_active_stateful_tasks_evenly_over_clients_with_more_clients_than_tasks() {
    let tasks = ["0_0", "0_1"];
    let specs: Vec<ClientSpec> = (0..3).map(|_| client(1, &lagging(&tasks, 10))).collect();
    let out = hata(&specs, &tasks, &tasks, Settings(0, 1, 0));
    assert!(!out.probing);
    out.valid(0, 0);
    out.balanced_active();
    out.balanced_stateful();
    assert!(out.subtopology_skew() <= 1);
    assert_eq!(out.active(0), set(&["0_0"]));
    assert_eq!(out.active(1), set(&["0_1"]));
    assert!(out.active(2).is_empty());
}

#[test]
fn should_assign_active_stateful_tasks_evenly_over_clients_and_stream_threads_with_equal_stream_threads_per_client_as_tasks(
) {
    let out = even_nine(9, 3);
    assert_eq!(out.active(2), set(&["0_2", "1_2", "2_2"]));
}

#[test]
fn should_assign_warm_up_tasks_if_stateful_active_tasks_balanced_over_stream_threads_but_not_over_clients(
) {
    let tasks = ["0_0", "0_1", "1_0", "1_1"];
    let c1 = client(5, &lagging(&tasks, 0));
    let out = hata(
        &[c1, client(5, &[]), client(5, &[])],
        &tasks,
        &tasks,
        Settings(0, 4 / 3 + 1, 0),
    );
    assert!(out.probing);
    assert!(!out.standby(1).is_empty() && !out.standby(2).is_empty());
    out.valid(0, 2);
    assert_eq!(out.active(0), set(&tasks));
    assert_eq!(out.standby(1), set(&["0_1"]));
    assert_eq!(out.standby(2), set(&["1_0"]));
}

#[test]
fn should_evenly_assign_active_stateful_tasks_if_clients_are_warmed_up_to_balance_task_over_clients(
) {
    let tasks = ["0_0", "0_1", "1_0", "1_1"];
    let c1 = client(5, &lagging(&tasks, 0));
    let c2 = client(5, &[("0_1", 0)]);
    let c3 = client(5, &[("1_0", 0)]);
    let out = hata(&[c1, c2, c3], &tasks, &tasks, Settings(0, 2, 0));
    assert!(!out.probing);
    out.valid(0, 0);
    out.balanced_active();
    out.balanced_stateful();
    assert!(out.subtopology_skew() <= 1);
    assert_eq!(out.active(0), set(&["0_0", "1_1"]));
    assert_eq!(out.active(1), set(&["0_1"]));
    assert_eq!(out.active(2), set(&["1_0"]));
}

#[test]
fn should_assign_active_stateful_tasks_evenly_over_stream_threads_but_best_effort_over_clients() {
    let specs = [client(6, &lagging(&A9, 10)), client(3, &lagging(&A9, 10))];
    let out = hata(&specs, &A9, &A9, Settings(0, 1, 0));
    assert!(!out.probing);
    out.valid(0, 0);
    out.balanced_active();
    out.balanced_stateful();
    assert_eq!((out.active(0).len(), out.active(1).len()), (6, 3));
    assert_eq!(
        out.active(0),
        set(&["0_0", "0_1", "0_2", "1_1", "2_0", "2_2"])
    );
    assert_eq!(out.active(1), set(&["1_0", "1_2", "2_1"]));
}

#[test]
fn should_compute_new_assignment_if_there_are_unassigned_active_tasks() {
    let out = hata(
        &[caught_up_on(&["0_0"])],
        &["0_0", "0_1"],
        &["0_0"],
        NO_STANDBY,
    );
    assert!(!out.probing);
    assert_eq!(out.active(0).len(), 2);
    assert!(out.standby(0).is_empty());
    out.balanced_active();
    out.balanced_stateful();
    assert!(out.subtopology_skew() <= 1);
}

#[test]
fn should_compute_new_assignment_if_there_are_unassigned_standby_tasks() {
    let out = hata(
        &[caught_up_on(&["0_0"]), caught_up_on(&["0_0"])],
        &["0_0"],
        &["0_0"],
        ONE_STANDBY,
    );
    assert_eq!(out.standby(1), set(&["0_0"]));
    assert!(!out.probing);
    out.valid(1, 0);
    out.balanced_active();
    out.balanced_stateful();
}

#[test]
fn should_compute_new_assignment_if_active_tasks_was_not_on_caught_up_client() {
    let c1 = client(1, &[("0_0", 500)]);
    let c2 = client(1, &[("0_0", 0)]);
    let out = hata(&[c1, c2], &["0_0", "0_1"], &["0_0"], NO_STANDBY);
    assert_eq!(out.active(0), set(&["0_1"]));
    assert_eq!(out.active(1), set(&["0_0"]));
    assert!(out.probing);
    out.valid(0, 1);
    out.balanced_active();
    out.balanced_stateful();
    assert_eq!(out.clients[0].warmup, set(&["0_0"]));
}

#[test]
fn should_assign_to_most_caught_up_if_active_tasks_was_not_on_caught_up_client() {
    let specs = [
        client(1, &[]),
        client(1, &[("0_0", 1000)]),
        client(1, &[("0_0", 500)]),
    ];
    let out = hata(&specs, &["0_0"], &["0_0"], ONE_STANDBY);
    assert_eq!(out.active(2), set(&["0_0"]));
    assert_eq!(out.standby(0), set(&["0_0"]));
    assert_eq!(out.clients[0].warmup, set(&["0_0"]), "a warm-up");
    assert_eq!(out.standby(1), set(&["0_0"]));
    assert!(out.clients[1].warmup.is_empty(), "the real standby");
    assert!(out.standby(2).is_empty());
    assert!(out.probing);
    out.valid(1, 1);
    out.balanced_active();
    out.balanced_stateful();
}

#[test]
fn should_assign_standbys_for_stateful_tasks() {
    let tasks = ["0_0", "0_1"];
    let out = hata(
        &[caught_up_on(&["0_0"]), caught_up_on(&["0_1"])],
        &tasks,
        &tasks,
        ONE_STANDBY,
    );
    assert_eq!(
        (out.active(0), out.standby(0)),
        (set(&["0_0"]), set(&["0_1"]))
    );
    assert_eq!(
        (out.active(1), out.standby(1)),
        (set(&["0_1"]), set(&["0_0"]))
    );
    assert!(!out.probing);
}

#[test]
fn should_not_assign_standbys_for_stateless_tasks() {
    let out = hata(
        &[client(1, &[]), client(1, &[])],
        &["0_0", "0_1"],
        &[],
        ONE_STANDBY,
    );
    for c in 0..2 {
        assert_eq!(out.active(c).len(), 1);
        assert!(out.standby(c).is_empty());
    }
    assert!(!out.probing);
}

#[test]
fn should_assign_warmup_replicas_even_if_no_standby_replicas_configured() {
    let tasks = ["0_0", "0_1"];
    let out = hata(
        &[caught_up_on(&tasks), client(1, &[])],
        &tasks,
        &tasks,
        NO_STANDBY,
    );
    assert_eq!(out.active(0), set(&tasks));
    assert!(out.standby(0).is_empty());
    assert!(out.active(1).is_empty());
    assert_eq!(out.standby(1), set(&["0_1"]));
    assert!(out.probing);
}

#[test]
fn should_not_assign_more_than_max_warmup_replicas() {
    let out = hata(
        &[caught_up_on(&T4), client(1, &[])],
        &T4,
        &T4,
        Settings(100, 1, 0),
    );
    assert_eq!(out.active(0), set(&T4));
    assert!(out.active(1).is_empty());
    assert_eq!(out.standby(1), set(&["0_1"]));
    assert!(out.probing);
}

#[test]
fn should_not_assign_warmup_and_standby_to_the_same_client() {
    let out = hata(
        &[caught_up_on(&T4), client(1, &[])],
        &T4,
        &T4,
        Settings(100, 1, 1),
    );
    assert_eq!(out.active(0), set(&T4));
    assert!(out.standby(0).is_empty());
    assert_eq!(out.standby(1), set(&T4));
    assert!(out.active(1).is_empty());
    assert!(
        out.clients[1].warmup.is_empty(),
        "both movements were swaps"
    );
    assert!(out.probing);
}

#[test]
fn should_not_assign_any_standbys_with_insufficient_capacity() {
    let tasks = ["0_0", "0_1"];
    let out = hata(&[caught_up_on(&tasks)], &tasks, &tasks, ONE_STANDBY);
    assert_eq!(out.active(0), set(&tasks));
    assert!(out.standby(0).is_empty());
    assert!(!out.probing);
}

#[test]
fn should_assign_active_tasks_to_not_caught_up_client_if_none_exist() {
    let tasks = ["0_0", "0_1"];
    let out = hata(&[client(1, &[])], &tasks, &tasks, ONE_STANDBY);
    assert_eq!(out.active(0), set(&tasks));
    assert!(out.standby(0).is_empty());
    assert!(!out.probing);
}

#[test]
fn should_not_assign_more_than_max_warmup_replicas_with_standbys() {
    let out = hata(
        &[caught_up_on(&T4), client(1, &[]), client(1, &[])],
        &T4,
        &T4,
        ONE_STANDBY,
    );
    out.valid(1, 2);
    assert!(out.probing);
    assert_eq!(out.active(0), set(&T4));
    assert_eq!(out.standby(1), set(&T4));
    assert_eq!(out.standby(2), set(&["0_1", "0_2"]));
}

#[test]
fn should_distribute_stateless_tasks_to_balance_total_task_load() {
    let all = ["0_0", "0_1", "0_2", "0_3", "1_0", "1_1", "1_2"];
    let out = hata(&[caught_up_on(&T4), client(1, &[])], &all, &T4, ONE_STANDBY);
    out.valid(1, 2);
    out.balanced_active();
    out.balanced_stateful();
    assert!(out.subtopology_skew() > 1, "a skewed subtopology exists");
    assert!(out.probing);
    assert_eq!(out.active(0), set(&T4));
    assert_eq!(out.active(1), set(&["1_0", "1_1", "1_2"]));
    assert_eq!(out.standby(1), set(&T4));
}

#[test]
fn should_distribute_stateful_active_tasks_to_all_clients() {
    let tasks = [
        "0_0", "0_1", "0_2", "0_3", "1_0", "1_1", "1_2", "1_3", "2_0",
    ];
    let specs: Vec<ClientSpec> = [100, 50, 1]
        .iter()
        .map(|&c| client(c, &lagging(&tasks, 0)))
        .collect();
    let out = hata(&specs, &tasks, &tasks, Settings(100, 2, 0));
    for c in 0..3 {
        assert!(!out.active(c).is_empty(), "client {c} has an active");
    }
    assert!(!out.probing);
    assert_eq!(
        out.active(0),
        set(&["0_0", "0_1", "0_2", "0_3", "1_1", "1_2"])
    );
    assert_eq!(out.active(1), set(&["1_0", "1_3"]));
    assert_eq!(out.active(2), set(&["2_0"]));
}

#[test]
fn should_return_false_if_previous_assignment_is_reused() {
    let out = hata(
        &[caught_up_on(&["0_0", "0_2"]), caught_up_on(&["0_1", "0_3"])],
        &T4,
        &T4,
        NO_STANDBY,
    );
    assert!(!out.probing);
    assert_eq!(out.active(0), set(&["0_0", "0_2"]));
    assert_eq!(out.active(1), set(&["0_1", "0_3"]));
}

#[test]
fn should_return_false_if_no_warmup_tasks_are_assigned() {
    let out = hata(&[client(1, &[]), client(1, &[])], &T4, &[], NO_STANDBY);
    assert!(!out.probing);
    assert!(out.standby(0).is_empty() && out.standby(1).is_empty());
}

#[test]
fn should_return_true_if_warmup_tasks_are_assigned() {
    let tasks = ["0_0", "0_1"];
    let out = hata(
        &[caught_up_on(&tasks), client(1, &[])],
        &tasks,
        &tasks,
        NO_STANDBY,
    );
    assert!(out.probing);
    assert_eq!(out.standby(1).len(), 1);
}

const STATELESS7: [&str; 7] = ["0_0", "0_1", "0_2", "0_3", "1_0", "1_1", "1_2"];

fn stateless_over(capacities: &[u32]) -> Outcome {
    let specs: Vec<ClientSpec> = capacities.iter().map(|&c| client(c, &[])).collect();
    let out = hata(&specs, &STATELESS7, &[], Settings(0, 1, 0));
    out.valid(0, 0);
    out.balanced_active();
    assert!(!out.probing);
    out
}

#[test]
fn should_distribute_stateless_tasks_evenly_over_clients_with_equal_stream_threads_per_client_as_tasks_and_no_stateful_tasks(
) {
    let out = stateless_over(&[7, 7, 7]);
    assert_eq!(out.active(0), set(&["0_0", "0_3", "1_2"]));
    assert_eq!(out.active(1), set(&["0_1", "1_0"]));
    assert_eq!(out.active(2), set(&["0_2", "1_1"]));
}

#[test]
fn should_distribute_stateless_tasks_evenly_over_clients_with_less_stream_threads_per_client_as_tasks_and_no_stateful_tasks(
) {
    let out = stateless_over(&[2, 2, 2]);
    assert_eq!(out.active(0), set(&["0_0", "0_3", "1_2"]));
    assert_eq!(out.active(1), set(&["0_1", "1_0"]));
    assert_eq!(out.active(2), set(&["0_2", "1_1"]));
}

#[test]
fn should_distribute_stateless_tasks_evenly_over_clients_with_unevenly_distributed_stream_threads_and_no_stateful_tasks(
) {
    let out = stateless_over(&[1, 2, 3]);
    assert_eq!(out.active(0), set(&["0_0", "1_2"]));
    assert_eq!(out.active(1), set(&["0_1", "1_0"]));
    assert_eq!(out.active(2), set(&["0_2", "0_3", "1_1"]));
}

#[test]
fn should_distribute_stateless_tasks_evenly_with_previous_assignment_and_no_stateful_tasks() {
    // Kafka's test gives client 1 all seven tasks as its previous assignment; stateless tasks
    // have no lag, so nothing tells the assignor, and it does not stick to them.
    let out = stateless_over(&[3, 3, 3]);
    assert_eq!(out.active(0), set(&["0_0", "0_3", "1_2"]));
    assert_eq!(out.active(1), set(&["0_1", "1_0"]));
    assert_eq!(out.active(2), set(&["0_2", "1_1"]));
}

#[test]
fn should_assign_random_input() {
    let names: Vec<String> = (0..60)
        .flat_map(|s| (0..3).map(move |p| format!("{s}_{p}")))
        .collect();
    let leaked: Vec<&'static str> = names
        .iter()
        .map(|n| &*Box::leak(n.clone().into_boxed_str()))
        .collect();
    let mut seed: u64 = 0x5eed;
    let mut next = |n: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % n
    };
    for _ in 0..20 {
        let stateful_count = 1 + next(180) as usize;
        let mut order: Vec<&'static str> = leaked.clone();
        for i in (1..order.len()).rev() {
            let j = next(i as u64 + 1) as usize;
            order.swap(i, j);
        }
        let stateful: Vec<&'static str> = order[..stateful_count].to_vec();
        let specs: Vec<ClientSpec> = (0..50)
            .map(|_| client(1 + next(3) as u32, &lagging(&stateful, 0)))
            .collect();
        let out = hata(&specs, &leaked, &stateful, Settings(100, 2, 3));
        out.valid(3, 0);
        out.balanced_active();
        assert!(!out.probing, "everyone is caught up");
    }
}
