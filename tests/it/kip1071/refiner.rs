//! AssignmentRefinerTest (Kafka trunk, file id 70970555383), every case, through the refiner's
//! passes as Kafka's test calls them. Kafka's fixtures are `Map.of` maps, whose order the
//! refiner does not depend on; here members are listed as the test lists them.

use handoff::assignor::kip1071::refiner::{
    is_caught_up, preserves_active_task_count, ActiveHolder, CurrentAssignmentIndex,
    MemberTaskOffsets, ProcessLoad, RefineInput, Refinement, Refiner, StagedMigration,
    StreamsGroupMember, TaskCopy, TaskDecisions, TaskGrant, TaskRole, TasksTuple, WarmupPlan,
};
use handoff::assignor::kip1071::{TaskId, Tasks};
use std::collections::{BTreeMap, BTreeSet};

const STATEFUL: &str = "stateful-subtopology";
const STATELESS: &str = "stateless-subtopology";
const ACCEPTABLE_RECOVERY_LAG: i64 = 100;

fn t(partition: i32) -> TaskId {
    TaskId::new(STATEFUL, partition)
}

fn stateful(partitions: &[i32]) -> Tasks {
    if partitions.is_empty() {
        return Tasks::new();
    }
    [(STATEFUL.to_string(), partitions.iter().copied().collect())].into()
}

/// `mkTasksTuple(role, mkTasks(STATEFUL, partitions...))`.
fn a(partitions: &[i32]) -> TasksTuple {
    TasksTuple {
        active: stateful(partitions),
        ..TasksTuple::default()
    }
}

fn s(partitions: &[i32]) -> TasksTuple {
    TasksTuple {
        standby: stateful(partitions),
        ..TasksTuple::default()
    }
}

fn w(partitions: &[i32]) -> TasksTuple {
    TasksTuple {
        warmup: stateful(partitions),
        ..TasksTuple::default()
    }
}

/// `new TasksTuple(Map.of(STATEFUL, active), Map.of(STATEFUL, standby), Map.of(STATEFUL, warmup))`.
fn tuple(active: &[i32], standby: &[i32], warmup: &[i32]) -> TasksTuple {
    TasksTuple {
        active: stateful(active),
        standby: stateful(standby),
        warmup: stateful(warmup),
    }
}

fn e() -> TasksTuple {
    TasksTuple::default()
}

fn member(id: &str, process: &str, assigned: TasksTuple) -> StreamsGroupMember {
    member_pending(id, process, assigned, e())
}

fn member_pending(
    id: &str,
    process: &str,
    assigned: TasksTuple,
    pending: TasksTuple,
) -> StreamsGroupMember {
    StreamsGroupMember {
        member_id: id.into(),
        process_id: process.into(),
        assigned,
        pending_revocation: pending,
    }
}

fn target(entries: Vec<(&str, TasksTuple)>) -> BTreeMap<String, TasksTuple> {
    entries
        .into_iter()
        .map(|(m, t)| (m.to_string(), t))
        .collect()
}

/// `offsets(offset, endOffset)` of partition 0.
fn o(offset: i64, end: i64) -> MemberTaskOffsets {
    op(0, offset, end)
}

fn op(partition: i32, offset: i64, end: i64) -> MemberTaskOffsets {
    om(&[(partition, offset)], &[(partition, end)])
}

fn om(offsets: &[(i32, i64)], ends: &[(i32, i64)]) -> MemberTaskOffsets {
    MemberTaskOffsets {
        offsets: [(STATEFUL.to_string(), offsets.iter().copied().collect())].into(),
        end_offsets: [(STATEFUL.to_string(), ends.iter().copied().collect())].into(),
    }
}

fn offs(entries: Vec<(&str, MemberTaskOffsets)>) -> BTreeMap<String, MemberTaskOffsets> {
    entries
        .into_iter()
        .map(|(m, o)| (m.to_string(), o))
        .collect()
}

fn copy(
    member: &'static str,
    process: &'static str,
    role: TaskRole,
    caught_up: bool,
    restore_started: bool,
) -> TaskCopy<'static> {
    TaskCopy {
        member_id: member,
        process_id: process,
        role,
        caught_up,
        restore_started,
    }
}

fn holder(member: &'static str, restoring: bool, caught_up: bool) -> ActiveHolder<'static> {
    ActiveHolder {
        member_id: member,
        restoring,
        caught_up,
    }
}

fn staged(
    task: i32,
    current: &'static str,
    target: &'static str,
    process: Option<&'static str>,
    on_target: Option<TaskCopy<'static>>,
) -> StagedMigration<'static> {
    StagedMigration {
        task: t(task),
        current_owner: current,
        target_owner: target,
        target_process_id: process,
        copy_on_target_process: on_target,
    }
}

fn grant(task: i32, target: &'static str) -> TaskGrant<'static> {
    TaskGrant {
        task: t(task),
        target_owner: target,
    }
}

fn tasks_of(partitions: &[i32]) -> BTreeSet<TaskId> {
    partitions.iter().map(|&p| t(p)).collect()
}

fn warmups(entries: &[(i32, &'static str)]) -> BTreeMap<TaskId, &'static str> {
    entries.iter().map(|&(p, m)| (t(p), m)).collect()
}

fn withheld(entries: &[(&'static str, &[i32])]) -> BTreeMap<&'static str, BTreeSet<TaskId>> {
    entries.iter().map(|&(m, ps)| (m, tasks_of(ps))).collect()
}

/// One case's group: the test's `members`, `targetAssignment` and `taskOffsets`, with the
/// test's two subtopologies (one with a changelog).
struct Case {
    members: Vec<StreamsGroupMember>,
    target: BTreeMap<String, TasksTuple>,
    offsets: BTreeMap<String, MemberTaskOffsets>,
    stateful: BTreeSet<String>,
}

fn case(
    members: Vec<StreamsGroupMember>,
    target: BTreeMap<String, TasksTuple>,
    offsets: BTreeMap<String, MemberTaskOffsets>,
) -> Case {
    Case {
        members,
        target,
        offsets,
        stateful: [STATEFUL.to_string()].into(),
    }
}

impl Case {
    fn refiner(&self, budget: u32) -> Refiner<'_> {
        Refiner::new(RefineInput {
            members: &self.members,
            target: &self.target,
            task_offsets: &self.offsets,
            stateful_subtopologies: &self.stateful,
            num_warmup_replicas: budget,
            acceptable_recovery_lag: ACCEPTABLE_RECOVERY_LAG,
        })
    }

    fn index(&self) -> CurrentAssignmentIndex<'_> {
        self.refiner(1).index_current_assignment()
    }

    fn load(&self) -> BTreeMap<&str, ProcessLoad> {
        self.refiner(1).index_process_load()
    }

    fn analyze(&self) -> TaskDecisions<'_> {
        self.refiner(1).analyze_tasks(&self.index(), &self.load())
    }

    fn plan(&self, budget: u32) -> WarmupPlan<'_> {
        self.refiner(budget)
            .plan_warmups(&self.analyze(), &self.index(), &self.load())
    }

    fn filter(&self, budget: u32) -> BTreeMap<&str, BTreeSet<TaskId>> {
        self.filter_with(&self.analyze(), budget)
    }

    fn filter_with<'a>(
        &'a self,
        decisions: &TaskDecisions<'a>,
        budget: u32,
    ) -> BTreeMap<&'a str, BTreeSet<TaskId>> {
        let refiner = self.refiner(budget);
        let index = self.index();
        let plan = refiner.plan_warmups(decisions, &index, &self.load());
        refiner.filter_standbys(&index, decisions, &plan)
    }

    /// The whole derivation through `refine`.
    fn assemble(&self, budget: u32) -> BTreeMap<String, TasksTuple> {
        self.refine(budget).to_map()
    }

    fn refine(&self, budget: u32) -> Refinement<'_> {
        self.refiner(budget).refine()
    }
}

fn active_only(entries: Vec<(&str, Tasks)>) -> BTreeMap<String, TasksTuple> {
    entries
        .into_iter()
        .map(|(m, active)| {
            (
                m.to_string(),
                TasksTuple {
                    active,
                    ..TasksTuple::default()
                },
            )
        })
        .collect()
}

fn sub0(partitions: &[i32]) -> Tasks {
    if partitions.is_empty() {
        return Tasks::new();
    }
    [("0".to_string(), partitions.iter().copied().collect())].into()
}

// preservesActiveTaskCount

#[test]
fn should_preserve_active_task_count_of_unchanged_assignment() {
    let target = active_only(vec![("memberA", sub0(&[0, 1])), ("memberB", sub0(&[2]))]);
    assert!(preserves_active_task_count(&target, &target));
}

#[test]
fn should_preserve_active_task_count_when_a_task_is_held_back_with_its_current_owner() {
    let target = active_only(vec![("memberA", sub0(&[0, 1])), ("memberB", sub0(&[2]))]);
    let mut refined = active_only(vec![("memberA", sub0(&[0, 1, 2]))]);
    refined.insert(
        "memberB".into(),
        TasksTuple {
            warmup: sub0(&[2]),
            ..TasksTuple::default()
        },
    );
    assert!(preserves_active_task_count(&target, &refined));
}

#[test]
fn should_preserve_active_task_count_when_standbys_are_deferred() {
    let target = target(vec![
        (
            "memberA",
            TasksTuple {
                active: sub0(&[0]),
                standby: sub0(&[1]),
                ..TasksTuple::default()
            },
        ),
        (
            "memberB",
            TasksTuple {
                active: sub0(&[1]),
                standby: sub0(&[0]),
                ..TasksTuple::default()
            },
        ),
    ]);
    let refined = active_only(vec![("memberA", sub0(&[0])), ("memberB", sub0(&[1]))]);
    assert!(preserves_active_task_count(&target, &refined));
}

#[test]
fn should_not_preserve_active_task_count_when_a_task_was_dropped() {
    let target = active_only(vec![("memberA", sub0(&[0, 1])), ("memberB", sub0(&[2]))]);
    let refined = active_only(vec![("memberA", sub0(&[0, 1])), ("memberB", sub0(&[]))]);
    assert!(!preserves_active_task_count(&target, &refined));
}

#[test]
fn should_not_preserve_active_task_count_when_a_subtopology_was_dropped_entirely() {
    let mut both = sub0(&[0]);
    both.insert("1".into(), [0].into());
    let target = active_only(vec![("memberA", both)]);
    let refined = active_only(vec![("memberA", sub0(&[0]))]);
    assert!(!preserves_active_task_count(&target, &refined));
}

#[test]
fn should_not_preserve_active_task_count_when_a_task_was_handed_to_two_members() {
    let target = active_only(vec![("memberA", sub0(&[0])), ("memberB", sub0(&[1]))]);
    let refined = active_only(vec![("memberA", sub0(&[0, 1])), ("memberB", sub0(&[1]))]);
    assert!(!preserves_active_task_count(&target, &refined));
}

#[test]
fn should_not_preserve_active_task_count_when_a_task_was_invented() {
    let target = active_only(vec![("memberA", sub0(&[0]))]);
    let refined = active_only(vec![("memberA", sub0(&[0, 1]))]);
    assert!(!preserves_active_task_count(&target, &refined));
}

#[test]
fn should_not_detect_a_drop_and_a_duplicate_cancelling_each_other_out() {
    let target = active_only(vec![("memberA", sub0(&[0])), ("memberB", sub0(&[1]))]);
    let refined = active_only(vec![("memberA", sub0(&[1])), ("memberB", sub0(&[1]))]);
    assert!(preserves_active_task_count(&target, &refined));
}

#[test]
fn should_preserve_active_task_count_when_the_target_assignment_itself_duplicates_a_task() {
    let target = active_only(vec![("memberA", sub0(&[0])), ("memberB", sub0(&[0]))]);
    assert!(preserves_active_task_count(&target, &target));
}

// isCaughtUp

#[test]
fn should_be_caught_up_when_the_lag_is_within_the_acceptable_recovery_lag() {
    assert!(is_caught_up(&o(1000, 1050), &t(0), ACCEPTABLE_RECOVERY_LAG));
}

#[test]
fn should_be_caught_up_when_the_lag_is_exactly_the_acceptable_recovery_lag() {
    assert!(is_caught_up(&o(1000, 1100), &t(0), ACCEPTABLE_RECOVERY_LAG));
}

#[test]
fn should_not_be_caught_up_when_the_lag_exceeds_the_acceptable_recovery_lag() {
    assert!(!is_caught_up(
        &o(1000, 1101),
        &t(0),
        ACCEPTABLE_RECOVERY_LAG
    ));
}

#[test]
fn should_be_caught_up_when_the_lag_is_negative() {
    assert!(is_caught_up(&o(1000, 999), &t(0), ACCEPTABLE_RECOVERY_LAG));
}

#[test]
fn should_not_be_caught_up_when_nothing_was_reported() {
    assert!(!is_caught_up(
        &MemberTaskOffsets::default(),
        &t(0),
        ACCEPTABLE_RECOVERY_LAG
    ));
}

#[test]
fn should_not_be_caught_up_when_only_the_end_offset_was_reported() {
    let offsets = MemberTaskOffsets {
        end_offsets: o(0, 1000).end_offsets,
        ..MemberTaskOffsets::default()
    };
    assert!(!is_caught_up(&offsets, &t(0), ACCEPTABLE_RECOVERY_LAG));
}

#[test]
fn should_not_be_caught_up_when_only_the_offset_was_reported() {
    let offsets = MemberTaskOffsets {
        offsets: o(1000, 0).offsets,
        ..MemberTaskOffsets::default()
    };
    assert!(!is_caught_up(&offsets, &t(0), ACCEPTABLE_RECOVERY_LAG));
}

#[test]
fn should_not_be_caught_up_when_the_restore_has_not_started() {
    assert!(!is_caught_up(
        &o(i64::MAX, 1000),
        &t(0),
        ACCEPTABLE_RECOVERY_LAG
    ));
    assert!(!is_caught_up(
        &o(1000, i64::MAX),
        &t(0),
        ACCEPTABLE_RECOVERY_LAG
    ));
}

#[test]
fn should_not_be_caught_up_when_another_task_was_reported() {
    assert!(!is_caught_up(
        &o(1000, 1000),
        &t(1),
        ACCEPTABLE_RECOVERY_LAG
    ));
}

// indexCurrentAssignment

#[test]
fn should_index_the_member_processing_a_task_as_its_active_holder() {
    let c = case(
        vec![member("memberA", "processA", a(&[0, 1]))],
        target(vec![]),
        offs(vec![]),
    );
    let index = c.index();
    assert_eq!(
        index.active_holder,
        [
            (t(0), holder("memberA", false, false)),
            (t(1), holder("memberA", false, false))
        ]
        .into()
    );
    assert!(index.task_copies.is_empty());
}

#[test]
fn should_index_an_active_holder_that_is_still_restoring_as_not_processing() {
    let c = case(
        vec![member("memberA", "processA", a(&[0]))],
        target(vec![]),
        offs(vec![("memberA", o(500, 10_000))]),
    );
    assert_eq!(
        c.index().active_holder,
        [(t(0), holder("memberA", true, false))].into()
    );
}

#[test]
fn should_index_an_active_holder_whose_restore_has_not_started_as_not_processing() {
    let c = case(
        vec![member("memberA", "processA", a(&[0]))],
        target(vec![]),
        offs(vec![("memberA", o(i64::MAX, i64::MAX))]),
    );
    assert_eq!(
        c.index().active_holder,
        [(t(0), holder("memberA", true, false))].into()
    );
}

#[test]
fn should_not_index_an_active_holder_for_a_task_that_is_pending_revocation() {
    let c = case(
        vec![member_pending("memberA", "processA", e(), a(&[0]))],
        target(vec![]),
        offs(vec![]),
    );
    let index = c.index();
    assert!(index.active_holder.is_empty());
    assert!(index.task_copies.is_empty());
}

fn copies_of<'a>(index: &CurrentAssignmentIndex<'a>, task: i32) -> Vec<TaskCopy<'a>> {
    let mut copies = index.task_copies[&t(task)].clone();
    copies.sort_by(|x, y| x.member_id.cmp(y.member_id));
    copies
}

#[test]
fn should_index_standby_and_warmup_holders_with_whether_they_are_caught_up() {
    let c = case(
        vec![
            member("memberA", "processA", s(&[0])),
            member("memberB", "processB", w(&[0])),
        ],
        target(vec![]),
        offs(vec![("memberA", o(1000, 1000)), ("memberB", o(0, 10_000))]),
    );
    let index = c.index();
    assert!(index.active_holder.is_empty());
    assert_eq!(
        copies_of(&index, 0),
        vec![
            copy("memberA", "processA", TaskRole::Standby, true, true),
            copy("memberB", "processB", TaskRole::Warmup, false, true)
        ]
    );
}

#[test]
fn should_index_whether_a_copy_has_started_its_restore() {
    let c = case(
        vec![
            member("memberA", "processA", s(&[0])),
            member("memberB", "processB", w(&[0])),
            member("memberC", "processC", s(&[0])),
        ],
        target(vec![]),
        offs(vec![
            ("memberA", o(1000, 2000)),
            ("memberB", o(i64::MAX, i64::MAX)),
        ]),
    );
    assert_eq!(
        copies_of(&c.index(), 0),
        vec![
            copy("memberA", "processA", TaskRole::Standby, false, true),
            copy("memberB", "processB", TaskRole::Warmup, false, false),
            copy("memberC", "processC", TaskRole::Standby, false, false)
        ]
    );
}

#[test]
fn should_not_index_stateless_tasks() {
    let stateless = |role_active: bool| {
        let tasks: Tasks = [(STATELESS.to_string(), [0].into())].into();
        if role_active {
            TasksTuple {
                active: tasks,
                ..TasksTuple::default()
            }
        } else {
            TasksTuple {
                standby: tasks,
                ..TasksTuple::default()
            }
        }
    };
    let c = case(
        vec![
            member("memberA", "processA", stateless(true)),
            member("memberB", "processB", stateless(false)),
        ],
        target(vec![]),
        offs(vec![]),
    );
    let index = c.index();
    assert!(index.active_holder.is_empty());
    assert!(index.task_copies.is_empty());
}

#[test]
fn should_index_an_active_holder_within_the_acceptable_recovery_lag_as_caught_up() {
    let c = case(
        vec![member("memberA", "processA", a(&[0]))],
        target(vec![]),
        offs(vec![("memberA", o(1000, 1050))]),
    );
    assert_eq!(
        c.index().active_holder,
        [(t(0), holder("memberA", true, true))].into()
    );
}

#[test]
fn should_index_state_on_disk_only_for_tasks_the_process_holds_no_copy_of() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[0])),
            member("memberB", "processB", s(&[2])),
        ],
        target(vec![]),
        offs(vec![
            (
                "memberA",
                om(&[(0, 500), (1, 1000)], &[(0, 10_000), (1, 1000)]),
            ),
            ("memberB", op(2, 0, 10_000)),
        ]),
    );
    assert_eq!(
        c.index().on_disk_by_process,
        [("processA", tasks_of(&[1]))].into()
    );
}

#[test]
fn should_not_index_state_on_disk_for_a_task_a_sibling_member_holds() {
    let c = case(
        vec![
            member("memberA", "processA", e()),
            member("memberB", "processA", s(&[0])),
        ],
        target(vec![]),
        offs(vec![("memberA", o(1000, 1050))]),
    );
    assert!(c.index().on_disk_by_process.is_empty());
}

// analyzeTasks

fn assert_decisions(
    c: &Case,
    staged_expected: Vec<StagedMigration>,
    granted_expected: Vec<TaskGrant>,
) {
    let decisions = c.analyze();
    assert_eq!(decisions.staged, staged_expected);
    assert_eq!(decisions.granted, granted_expected);
}

/// The common move: the active on memberA, the target on memberB.
fn a_to_b(b_holds: TasksTuple) -> (Vec<StreamsGroupMember>, BTreeMap<String, TasksTuple>) {
    (
        vec![
            member("memberA", "processA", a(&[0])),
            member("memberB", "processB", b_holds),
        ],
        target(vec![("memberA", e()), ("memberB", a(&[0]))]),
    )
}

#[test]
fn should_decide_nothing_when_every_task_already_runs_where_it_belongs() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[0])),
            member("memberB", "processB", a(&[1])),
        ],
        target(vec![("memberA", a(&[0])), ("memberB", a(&[1]))]),
        offs(vec![]),
    );
    assert_decisions(&c, vec![], vec![]);
}

#[test]
fn should_stage_a_migration_to_a_member_that_holds_no_state() {
    let (members, target) = a_to_b(e());
    let c = case(members, target, offs(vec![]));
    assert_decisions(
        &c,
        vec![staged(0, "memberA", "memberB", Some("processB"), None)],
        vec![],
    );
}

#[test]
fn should_grant_a_task_whose_holder_is_still_restoring_it_rather_than_stage_it() {
    let (members, target) = a_to_b(s(&[0]));
    let c = case(
        members,
        target,
        offs(vec![("memberA", o(500, 10_000)), ("memberB", o(0, 10_000))]),
    );
    assert_decisions(&c, vec![], vec![grant(0, "memberB")]);
}

#[test]
fn should_grant_a_task_whose_holder_is_still_restoring_it_even_to_a_cold_member() {
    let (members, target) = a_to_b(e());
    let c = case(members, target, offs(vec![("memberA", o(500, 10_000))]));
    assert_decisions(&c, vec![], vec![grant(0, "memberB")]);
}

#[test]
fn should_decide_nothing_when_the_task_is_already_with_its_target_owner_but_still_restoring() {
    let c = case(
        vec![member("memberA", "processA", a(&[0]))],
        target(vec![("memberA", a(&[0]))]),
        offs(vec![("memberA", o(500, 10_000))]),
    );
    assert_decisions(&c, vec![], vec![]);
}

#[test]
fn should_hold_a_task_with_a_holder_that_is_still_restoring_it_when_its_target_owner_is_gone() {
    let c = case(
        vec![member("memberA", "processA", a(&[0]))],
        target(vec![("departedMember", a(&[0]))]),
        offs(vec![("memberA", o(500, 10_000))]),
    );
    assert_decisions(
        &c,
        vec![staged(0, "memberA", "departedMember", None, None)],
        vec![],
    );
}

#[test]
fn should_stage_a_migration_when_the_holder_has_not_reported_any_offsets_yet() {
    let (members, target) = a_to_b(e());
    let c = case(members, target, offs(vec![]));
    assert_decisions(
        &c,
        vec![staged(0, "memberA", "memberB", Some("processB"), None)],
        vec![],
    );
}

#[test]
fn should_grant_the_task_when_the_target_owner_already_holds_a_caught_up_replica() {
    let (members, target) = a_to_b(s(&[0]));
    let c = case(members, target, offs(vec![("memberB", o(1000, 1000))]));
    assert_decisions(&c, vec![], vec![grant(0, "memberB")]);
}

#[test]
fn should_stage_when_the_replica_on_the_target_process_is_not_caught_up_yet() {
    let (members, target) = a_to_b(s(&[0]));
    let c = case(members, target, offs(vec![("memberB", o(0, 10_000))]));
    let on_target = copy("memberB", "processB", TaskRole::Standby, false, true);
    assert_decisions(
        &c,
        vec![staged(
            0,
            "memberA",
            "memberB",
            Some("processB"),
            Some(on_target),
        )],
        vec![],
    );
}

#[test]
fn should_grant_the_task_when_a_sibling_on_the_target_process_holds_a_caught_up_replica() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[0])),
            member("memberB", "processB", e()),
            member("memberC", "processB", s(&[0])),
        ],
        target(vec![
            ("memberA", e()),
            ("memberB", a(&[0])),
            ("memberC", e()),
        ]),
        offs(vec![("memberC", o(1000, 1000))]),
    );
    assert_decisions(&c, vec![], vec![grant(0, "memberB")]);
}

#[test]
fn should_grant_the_task_when_it_moves_between_two_members_of_one_process() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[0])),
            member("memberB", "processA", e()),
        ],
        target(vec![("memberA", e()), ("memberB", a(&[0]))]),
        offs(vec![]),
    );
    assert_decisions(&c, vec![], vec![grant(0, "memberB")]);
}

#[test]
fn should_grant_a_task_nobody_runs_even_to_a_cold_member() {
    let c = case(
        vec![member("memberA", "processA", e())],
        target(vec![("memberA", a(&[0]))]),
        offs(vec![]),
    );
    assert_decisions(&c, vec![], vec![grant(0, "memberA")]);
}

#[test]
fn should_grant_a_task_whose_previous_owner_was_already_told_to_revoke_it() {
    let c = case(
        vec![
            member_pending("memberA", "processA", e(), a(&[0])),
            member("memberB", "processB", w(&[0])),
        ],
        target(vec![("memberA", e()), ("memberB", a(&[0]))]),
        offs(vec![]),
    );
    assert_decisions(&c, vec![], vec![grant(0, "memberB")]);
}

#[test]
fn should_decide_nothing_for_a_task_the_target_assignment_no_longer_contains() {
    let c = case(
        vec![member("memberA", "processA", a(&[0]))],
        target(vec![("memberA", e())]),
        offs(vec![]),
    );
    assert_decisions(&c, vec![], vec![]);
}

#[test]
fn should_not_stage_stateless_tasks() {
    let stateless = TasksTuple {
        active: [(STATELESS.to_string(), [0].into())].into(),
        ..TasksTuple::default()
    };
    let c = case(
        vec![
            member("memberA", "processA", stateless.clone()),
            member("memberB", "processB", e()),
        ],
        target(vec![("memberA", e()), ("memberB", stateless)]),
        offs(vec![]),
    );
    assert_decisions(&c, vec![], vec![]);
}

#[test]
fn should_report_an_in_flight_warmup_on_the_target_process() {
    let (members, target) = a_to_b(w(&[0]));
    let c = case(members, target, offs(vec![]));
    let on_target = copy("memberB", "processB", TaskRole::Warmup, false, false);
    assert_eq!(
        c.analyze().staged,
        vec![staged(
            0,
            "memberA",
            "memberB",
            Some("processB"),
            Some(on_target)
        )]
    );
}

#[test]
fn should_hold_a_task_where_it_runs_when_its_target_owner_is_gone() {
    let c = case(
        vec![member("memberA", "processA", a(&[0]))],
        target(vec![("memberA", e()), ("goneMember", a(&[0]))]),
        offs(vec![]),
    );
    assert_decisions(
        &c,
        vec![staged(0, "memberA", "goneMember", None, None)],
        vec![],
    );
}

#[test]
fn should_decide_nothing_for_an_unowned_task_whose_target_owner_is_gone() {
    let c = case(
        vec![member("memberA", "processA", e())],
        target(vec![("memberA", e()), ("goneMember", a(&[0]))]),
        offs(vec![]),
    );
    assert_decisions(&c, vec![], vec![]);
}

#[test]
fn should_return_decisions_in_canonical_task_order() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[2, 0, 1])),
            member("memberB", "processB", e()),
        ],
        target(vec![("memberA", e()), ("memberB", a(&[2, 0, 1]))]),
        offs(vec![]),
    );
    let order: Vec<TaskId> = c.analyze().staged.into_iter().map(|m| m.task).collect();
    assert_eq!(order, vec![t(0), t(1), t(2)]);
}

#[test]
fn should_decide_each_diverging_task_exactly_once() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[0, 1, 2])),
            member("memberB", "processB", s(&[2])),
        ],
        target(vec![("memberA", a(&[0])), ("memberB", a(&[1, 2, 3]))]),
        offs(vec![("memberB", op(2, 1000, 1000))]),
    );
    let decisions = c.analyze();
    assert_eq!(
        decisions
            .staged
            .into_iter()
            .map(|m| m.task)
            .collect::<Vec<_>>(),
        vec![t(1)]
    );
    assert_eq!(
        decisions
            .granted
            .into_iter()
            .map(|g| g.task)
            .collect::<Vec<_>>(),
        vec![t(2), t(3)]
    );
}

#[test]
fn should_promote_the_caught_up_copy_holder_of_a_task_nobody_holds() {
    let c = case(
        vec![
            member("memberA", "processA", e()),
            member("memberB", "processB", s(&[0])),
        ],
        target(vec![("memberA", a(&[0])), ("memberB", e())]),
        offs(vec![("memberB", o(1000, 1050))]),
    );
    assert_decisions(
        &c,
        vec![staged(0, "memberB", "memberA", Some("processA"), None)],
        vec![],
    );
}

#[test]
fn should_grant_a_task_nobody_holds_when_no_copy_of_it_is_caught_up() {
    let c = case(
        vec![
            member("memberA", "processA", e()),
            member("memberB", "processB", s(&[0])),
        ],
        target(vec![("memberA", a(&[0])), ("memberB", e())]),
        offs(vec![("memberB", o(500, 10_000))]),
    );
    assert_decisions(&c, vec![], vec![grant(0, "memberA")]);
}

#[test]
fn should_grant_a_task_nobody_holds_when_its_target_process_reports_state_on_disk() {
    let c = case(
        vec![
            member("memberA", "processA", e()),
            member("memberB", "processB", s(&[0])),
        ],
        target(vec![("memberA", a(&[0])), ("memberB", e())]),
        offs(vec![("memberA", o(1000, 1000)), ("memberB", o(1000, 1050))]),
    );
    assert_decisions(&c, vec![], vec![grant(0, "memberA")]);
}

#[test]
fn should_promote_a_caught_up_copy_holder_of_a_task_nobody_holds_when_its_target_owner_is_gone() {
    let c = case(
        vec![member("memberA", "processA", s(&[0]))],
        target(vec![("goneMember", a(&[0]))]),
        offs(vec![("memberA", o(1000, 1050))]),
    );
    assert_decisions(
        &c,
        vec![staged(0, "memberA", "goneMember", None, None)],
        vec![],
    );
}

fn holder_copy_and_cold_target(a_offsets: MemberTaskOffsets) -> Case {
    case(
        vec![
            member("memberA", "processA", a(&[0])),
            member("memberB", "processB", s(&[0])),
            member("memberC", "processC", e()),
        ],
        target(vec![
            ("memberA", e()),
            ("memberB", e()),
            ("memberC", a(&[0])),
        ]),
        offs(vec![("memberA", a_offsets), ("memberB", o(1000, 1050))]),
    )
}

#[test]
fn should_stage_from_an_active_holder_within_the_acceptable_recovery_lag_rather_than_promote_a_copy(
) {
    let c = holder_copy_and_cold_target(o(1000, 1050));
    assert_decisions(
        &c,
        vec![staged(0, "memberA", "memberC", Some("processC"), None)],
        vec![],
    );
}

#[test]
fn should_stage_from_a_caught_up_copy_when_the_active_holder_is_too_far_behind_to_run_the_task() {
    let c = holder_copy_and_cold_target(o(500, 10_000));
    assert_decisions(
        &c,
        vec![staged(0, "memberB", "memberC", Some("processC"), None)],
        vec![],
    );
}

#[test]
fn should_promote_a_copy_holder_the_target_assignment_does_not_name_as_a_standby_holder() {
    let c = case(
        vec![
            member("memberA", "processA", e()),
            member("memberB", "processB", s(&[0])),
            member("memberC", "processC", tuple(&[1, 2], &[0], &[])),
        ],
        target(vec![
            ("memberA", a(&[0])),
            ("memberB", s(&[0])),
            ("memberC", a(&[1, 2])),
        ]),
        offs(vec![("memberB", o(1000, 1050)), ("memberC", o(1000, 1050))]),
    );
    assert_decisions(
        &c,
        vec![staged(0, "memberC", "memberA", Some("processA"), None)],
        vec![],
    );
}

#[test]
fn should_promote_the_caught_up_copy_on_the_least_loaded_process() {
    let c = case(
        vec![
            member("memberA", "processA", e()),
            member("memberB", "processB", tuple(&[1], &[0], &[])),
            member("memberC", "processC", s(&[0])),
        ],
        target(vec![
            ("memberA", a(&[0])),
            ("memberB", a(&[1])),
            ("memberC", e()),
        ]),
        offs(vec![("memberB", o(1000, 1050)), ("memberC", o(1000, 1050))]),
    );
    assert_decisions(
        &c,
        vec![staged(0, "memberC", "memberA", Some("processA"), None)],
        vec![],
    );
}

#[test]
fn should_break_a_tie_among_caught_up_copies_on_the_member_id() {
    // memberC listed first, so that the member id and not the order decides.
    let c = case(
        vec![
            member("memberA", "processA", e()),
            member("memberC", "processC", s(&[0])),
            member("memberB", "processB", s(&[0])),
        ],
        target(vec![
            ("memberA", a(&[0])),
            ("memberB", e()),
            ("memberC", e()),
        ]),
        offs(vec![("memberB", o(1000, 1050)), ("memberC", o(1000, 1050))]),
    );
    assert_eq!(
        c.analyze().staged,
        vec![staged(0, "memberB", "memberA", Some("processA"), None)]
    );
}

// indexProcessLoad

#[test]
fn should_count_stateful_tasks_of_every_role_towards_process_load() {
    let c = case(
        vec![member("memberA", "processA", tuple(&[0], &[1], &[2]))],
        target(vec![]),
        offs(vec![]),
    );
    assert_eq!(
        c.load(),
        [(
            "processA",
            ProcessLoad {
                stateful_task_count: 3,
                member_count: 1
            }
        )]
        .into()
    );
}

#[test]
fn should_not_count_stateless_tasks_towards_process_load() {
    let mut active = stateful(&[0]);
    active.insert(STATELESS.into(), [0, 1, 2].into());
    let c = case(
        vec![member(
            "memberA",
            "processA",
            TasksTuple {
                active,
                ..TasksTuple::default()
            },
        )],
        target(vec![]),
        offs(vec![]),
    );
    assert_eq!(
        c.load(),
        [(
            "processA",
            ProcessLoad {
                stateful_task_count: 1,
                member_count: 1
            }
        )]
        .into()
    );
}

#[test]
fn should_divide_process_load_by_the_number_of_members_the_process_runs() {
    let c = case(
        vec![
            member("memberA1", "processA", a(&[0, 1])),
            member("memberA2", "processA", a(&[2, 3])),
        ],
        target(vec![]),
        offs(vec![]),
    );
    let load = c.load();
    assert_eq!(
        load,
        [(
            "processA",
            ProcessLoad {
                stateful_task_count: 4,
                member_count: 2
            }
        )]
        .into()
    );
    assert_eq!(load["processA"].load(), 2.0);
}

#[test]
fn should_not_count_tasks_pending_revocation_towards_process_load() {
    let c = case(
        vec![member_pending("memberA", "processA", a(&[0]), a(&[1]))],
        target(vec![]),
        offs(vec![]),
    );
    assert_eq!(
        c.load(),
        [(
            "processA",
            ProcessLoad {
                stateful_task_count: 1,
                member_count: 1
            }
        )]
        .into()
    );
}

// planWarmups

fn assert_plan(
    plan: &WarmupPlan<'_>,
    warmup: &[(i32, &'static str)],
    borrowed: &[i32],
    parked: &[i32],
) {
    assert_eq!(plan.warmup_tasks, warmups(warmup));
    assert_eq!(plan.borrowed, tasks_of(borrowed));
    assert_eq!(plan.parked, tasks_of(parked));
}

#[test]
fn should_plant_a_warmup_on_the_target_owner_of_a_staged_migration() {
    let (members, target) = a_to_b(e());
    assert_plan(
        &case(members, target, offs(vec![])).plan(1),
        &[(0, "memberB")],
        &[],
        &[],
    );
}

#[test]
fn should_fund_a_promoted_migrations_plant_like_any_other() {
    let c = case(
        vec![
            member("memberA", "processA", e()),
            member("memberB", "processB", s(&[0])),
        ],
        target(vec![("memberA", a(&[0])), ("memberB", e())]),
        offs(vec![("memberB", o(1000, 1050))]),
    );
    assert_plan(&c.plan(1), &[(0, "memberA")], &[], &[]);
}

#[test]
fn should_keep_funding_a_warmup_that_is_already_restoring() {
    let (members, target) = a_to_b(w(&[0]));
    let group = case(members, target, offs(vec![]));

    let plan = group.plan(1);
    assert_eq!(plan.warmup_tasks, warmups(&[(0, "memberB")]));
    assert!(plan.parked.is_empty());
}

#[test]
fn should_borrow_a_standby_on_the_target_owner_itself_instead_of_spending_a_slot() {
    let (members, target) = a_to_b(s(&[0]));
    assert_plan(&case(members, target, offs(vec![])).plan(1), &[], &[0], &[]);
}

fn sibling_move() -> (Vec<StreamsGroupMember>, BTreeMap<String, TasksTuple>) {
    (
        vec![
            member("memberA", "processA", a(&[0])),
            member("memberB1", "processB", s(&[0])),
            member("memberB2", "processB", e()),
        ],
        target(vec![
            ("memberA", e()),
            ("memberB1", e()),
            ("memberB2", a(&[0])),
        ]),
    )
}

#[test]
fn should_spend_a_slot_moving_a_standby_on_a_sibling_onto_the_target_owner() {
    let (members, target) = sibling_move();
    assert_plan(
        &case(members, target, offs(vec![])).plan(1),
        &[(0, "memberB2")],
        &[],
        &[],
    );
}

#[test]
fn should_borrow_a_sibling_standby_where_it_sits_when_the_budget_cannot_move_it() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[0, 1])),
            member("memberB1", "processB", s(&[0])),
            member("memberB2", "processB", e()),
            member("memberC", "processC", e()),
        ],
        target(vec![
            ("memberA", e()),
            ("memberB1", e()),
            ("memberB2", a(&[0])),
            ("memberC", a(&[1])),
        ]),
        offs(vec![]),
    );
    assert_plan(&c.plan(1), &[(1, "memberC")], &[0], &[]);
}

#[test]
fn should_fund_a_fresh_plant_ahead_of_a_sibling_move_even_on_a_heavier_process() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[0, 1])),
            member("memberH", "processHeavy", a(&[2, 3])),
            member("memberL1", "processLight", e()),
            member("memberL2", "processLight", s(&[1])),
        ],
        target(vec![
            ("memberA", e()),
            ("memberH", a(&[0, 2, 3])),
            ("memberL1", a(&[1])),
            ("memberL2", e()),
        ]),
        offs(vec![]),
    );
    assert_plan(&c.plan(1), &[(0, "memberH")], &[1], &[]);
}

#[test]
fn should_count_warmups_funded_this_pass_in_the_source_process_load() {
    let c = case(
        vec![
            member("memberP1", "processP", a(&[1])),
            member("memberP2", "processP", e()),
            member("memberQ1", "processQ", a(&[0])),
            member("memberQ2", "processQ", e()),
            member("memberR", "processR", a(&[3])),
            member("memberS", "processS", a(&[2])),
        ],
        target(vec![
            ("memberP1", e()),
            ("memberP2", a(&[2])),
            ("memberQ1", e()),
            ("memberR", a(&[0, 1, 3])),
            ("memberS", e()),
        ]),
        offs(vec![]),
    );
    assert_plan(&c.plan(2), &[(2, "memberP2"), (1, "memberR")], &[], &[0]);
}

#[test]
fn should_not_fund_a_migration_whose_target_member_has_left_the_group() {
    let c = case(
        vec![member("memberA", "processA", a(&[0]))],
        target(vec![("memberGone", a(&[0]))]),
        offs(vec![]),
    );
    let plan = c.plan(1);
    assert!(plan.warmup_tasks.is_empty());
    assert_eq!(plan.parked, tasks_of(&[0]));
}

fn two_moves_from_a() -> Case {
    case(
        vec![
            member("memberA", "processA", a(&[0, 1])),
            member("memberB", "processB", e()),
            member("memberC", "processC", e()),
        ],
        target(vec![
            ("memberA", e()),
            ("memberB", a(&[0])),
            ("memberC", a(&[1])),
        ]),
        offs(vec![]),
    )
}

#[test]
fn should_park_the_migrations_the_budget_cannot_cover() {
    let group = two_moves_from_a();

    let plan = group.plan(1);
    assert_eq!(plan.warmup_tasks, warmups(&[(0, "memberB")]));
    assert_eq!(plan.parked, tasks_of(&[1]));
}

#[test]
fn should_not_fund_a_warmup_whose_task_was_re_targeted_to_another_process() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[0])),
            member("memberB", "processB", w(&[0])),
            member("memberC", "processC", e()),
        ],
        target(vec![
            ("memberA", e()),
            ("memberB", e()),
            ("memberC", a(&[0])),
        ]),
        offs(vec![]),
    );
    let plan = c.plan(1);
    assert_eq!(plan.warmup_tasks, warmups(&[(0, "memberC")]));
    assert!(plan.parked.is_empty());
}

#[test]
fn should_relabel_a_warmup_onto_the_new_target_owner_within_the_same_process() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[0])),
            member("memberB1", "processB", w(&[0])),
            member("memberB2", "processB", e()),
        ],
        target(vec![
            ("memberA", e()),
            ("memberB1", e()),
            ("memberB2", a(&[0])),
        ]),
        offs(vec![]),
    );
    let plan = c.plan(1);
    assert_eq!(plan.warmup_tasks, warmups(&[(0, "memberB2")]));
    assert!(plan.parked.is_empty());
}

#[test]
fn should_free_the_slot_of_a_warmup_whose_task_is_granted_in_the_same_step() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[0, 1])),
            member("memberB", "processB", w(&[0])),
            member("memberC", "processC", e()),
        ],
        target(vec![
            ("memberA", e()),
            ("memberB", a(&[0])),
            ("memberC", a(&[1])),
        ]),
        offs(vec![("memberB", o(9_950, 10_000))]),
    );
    let plan = c.plan(1);
    assert_eq!(plan.warmup_tasks, warmups(&[(1, "memberC")]));
    assert!(plan.parked.is_empty());
}

#[test]
fn should_fund_the_migration_with_the_least_loaded_destination_first() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[0, 1])),
            member("memberB", "processB", s(&[2, 3])),
            member("memberC", "processC", e()),
        ],
        target(vec![
            ("memberA", e()),
            ("memberB", a(&[0])),
            ("memberC", a(&[1])),
        ]),
        offs(vec![]),
    );
    let plan = c.plan(1);
    assert_eq!(plan.warmup_tasks, warmups(&[(1, "memberC")]));
    assert_eq!(plan.parked, tasks_of(&[0]));
}

#[test]
fn should_fund_the_migration_relieving_the_busier_source_when_destinations_tie() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[1, 2, 3])),
            member("memberD", "processD", a(&[0])),
            member("memberB", "processB", e()),
            member("memberC", "processC", e()),
        ],
        target(vec![
            ("memberA", a(&[1, 2])),
            ("memberD", e()),
            ("memberB", a(&[0])),
            ("memberC", a(&[3])),
        ]),
        offs(vec![]),
    );
    let plan = c.plan(1);
    assert_eq!(plan.warmup_tasks, warmups(&[(3, "memberC")]));
    assert_eq!(plan.parked, tasks_of(&[0]));
}

#[test]
fn should_break_a_full_tie_on_the_canonical_task_order() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[0, 1])),
            member("memberB", "processB", e()),
            member("memberC", "processC", e()),
        ],
        target(vec![
            ("memberA", e()),
            ("memberB", a(&[1])),
            ("memberC", a(&[0])),
        ]),
        offs(vec![]),
    );
    let plan = c.plan(1);
    assert_eq!(plan.warmup_tasks, warmups(&[(0, "memberC")]));
    assert_eq!(plan.parked, tasks_of(&[1]));
}

#[test]
fn should_spread_concurrent_plants_across_processes_rather_than_stacking_them() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[0, 1, 2])),
            member("memberB", "processB", e()),
            member("memberC1", "processC", s(&[3])),
            member("memberC2", "processC", e()),
        ],
        target(vec![
            ("memberA", e()),
            ("memberB", a(&[0, 1])),
            ("memberC1", e()),
            ("memberC2", a(&[2])),
        ]),
        offs(vec![]),
    );
    let plan = c.plan(2);
    assert_eq!(
        plan.warmup_tasks,
        warmups(&[(0, "memberB"), (2, "memberC2")])
    );
    assert_eq!(plan.parked, tasks_of(&[1]));
}

#[test]
fn should_not_count_a_funded_sibling_move_towards_its_target_process_load() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[0, 1, 2])),
            member("memberX1", "processX", e()),
            member("memberX2", "processX", s(&[0, 1])),
            member("memberX3", "processX", e()),
            member("memberX4", "processX", e()),
            member("memberY1", "processY", e()),
            member("memberY2", "processY", s(&[2])),
            member("memberY3", "processY", a(&[3])),
        ],
        target(vec![
            ("memberA", e()),
            ("memberX1", a(&[0, 1])),
            ("memberX2", e()),
            ("memberX3", e()),
            ("memberX4", e()),
            ("memberY1", a(&[2])),
            ("memberY2", e()),
            ("memberY3", a(&[3])),
        ]),
        offs(vec![]),
    );
    assert_plan(&c.plan(2), &[(0, "memberX1"), (1, "memberX1")], &[2], &[]);
}

#[test]
fn should_fund_on_the_load_this_steps_grants_leave_behind() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[0, 1])),
            member("memberX1", "processX", e()),
            member("memberX2", "processX", e()),
            member("memberY", "processY", e()),
        ],
        target(vec![
            ("memberA", e()),
            ("memberX1", a(&[0])),
            ("memberX2", a(&[2])),
            ("memberY", a(&[1])),
        ]),
        offs(vec![]),
    );
    let plan = c.plan(1);
    assert_eq!(plan.warmup_tasks, warmups(&[(1, "memberY")]));
    assert_eq!(plan.parked, tasks_of(&[0]));
}

#[test]
fn should_not_count_a_warm_grant_towards_the_destination_process_load() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[0, 1])),
            member("memberX1", "processX", s(&[2])),
            member("memberX2", "processX", e()),
            member("memberY1", "processY", s(&[3])),
            member("memberY2", "processY", e()),
        ],
        target(vec![
            ("memberA", e()),
            ("memberX1", a(&[0])),
            ("memberX2", a(&[2])),
            ("memberY1", a(&[1])),
            ("memberY2", e()),
        ]),
        offs(vec![("memberX1", op(2, 1000, 1050))]),
    );
    let plan = c.plan(1);
    assert_eq!(plan.warmup_tasks, warmups(&[(0, "memberX1")]));
    assert_eq!(plan.parked, tasks_of(&[1]));
}

#[test]
fn should_evict_warmups_in_reverse_funding_order_when_the_budget_shrinks() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[0, 1])),
            member("memberB", "processB", w(&[0])),
            member("memberC1", "processC", w(&[1])),
            member("memberC2", "processC", e()),
        ],
        target(vec![
            ("memberA", e()),
            ("memberB", a(&[0])),
            ("memberC1", a(&[1])),
            ("memberC2", e()),
        ]),
        offs(vec![]),
    );
    let plan = c.plan(1);
    assert_eq!(plan.warmup_tasks, warmups(&[(1, "memberC1")]));
    assert_eq!(plan.parked, tasks_of(&[0]));
}

fn b_restoring_an_active(b: TasksTuple, b_offsets: MemberTaskOffsets) -> Case {
    case(
        vec![
            member("memberA", "processA", a(&[0, 2])),
            member("memberB", "processB", b),
            member("memberC", "processC", a(&[3])),
        ],
        target(vec![
            ("memberA", e()),
            ("memberB", a(&[0, 1])),
            ("memberC", a(&[2, 3])),
        ]),
        offs(vec![("memberB", b_offsets)]),
    )
}

#[test]
fn should_fund_a_plant_that_can_make_progress_ahead_of_one_on_a_member_restoring_an_active() {
    let group = b_restoring_an_active(a(&[1]), op(1, 500, 10_000));

    let plan = group.plan(1);
    assert_eq!(plan.warmup_tasks, warmups(&[(2, "memberC")]));
    assert_eq!(plan.parked, tasks_of(&[0]));
}

#[test]
fn should_still_fund_a_member_restoring_an_active_when_nothing_else_wants_the_slot() {
    let group = b_restoring_an_active(a(&[1]), op(1, 500, 10_000));

    let plan = group.plan(2);
    assert_eq!(
        plan.warmup_tasks,
        warmups(&[(0, "memberB"), (2, "memberC")])
    );
    assert!(plan.parked.is_empty());
}

#[test]
fn should_preempt_a_kept_warmup_that_has_restored_nothing_on_a_member_restoring_an_active() {
    let group = b_restoring_an_active(tuple(&[1], &[], &[0]), op(1, 500, 10_000));

    let plan = group.plan(1);
    assert_eq!(plan.warmup_tasks, warmups(&[(2, "memberC")]));
    assert_eq!(plan.parked, tasks_of(&[0]));
}

#[test]
fn should_keep_a_stalled_warmup_that_has_already_restored_something() {
    let offsets = om(&[(0, 9_000), (1, 500)], &[(0, 10_000), (1, 10_000)]);
    let group = b_restoring_an_active(tuple(&[1], &[], &[0]), offsets);

    let plan = group.plan(1);
    assert_eq!(plan.warmup_tasks, warmups(&[(0, "memberB")]));
    assert_eq!(plan.parked, tasks_of(&[2]));
}

fn grant_to_b(b_standby: &[i32], b_offsets: Vec<(&str, MemberTaskOffsets)>) -> Case {
    case(
        vec![
            member("memberA", "processA", a(&[2, 3])),
            member("memberB", "processB", tuple(&[1], b_standby, &[])),
            member("memberC", "processC", s(&[0, 1])),
        ],
        target(vec![
            ("memberA", e()),
            ("memberB", a(&[0, 1, 2])),
            ("memberC", a(&[3])),
        ]),
        offs(b_offsets),
    )
}

#[test]
fn should_count_a_cold_grant_this_step_makes_as_a_restore_on_the_member_receiving_it() {
    let group = grant_to_b(&[3], vec![]);

    let plan = group.plan(1);
    assert_eq!(plan.warmup_tasks, warmups(&[(3, "memberC")]));
    assert_eq!(plan.parked, tasks_of(&[2]));
}

#[test]
fn should_not_count_a_grant_that_promotes_a_copy_the_process_already_holds() {
    let group = grant_to_b(&[0], vec![("memberB", o(1000, 1000))]);

    let plan = group.plan(1);
    assert_eq!(plan.warmup_tasks, warmups(&[(2, "memberB")]));
    assert_eq!(plan.parked, tasks_of(&[3]));
}

#[test]
fn should_plan_nothing_when_the_warmup_budget_is_zero() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[0])),
            member("memberB", "processB", s(&[1])),
        ],
        target(vec![("memberA", e()), ("memberB", a(&[0]))]),
        offs(vec![]),
    );
    assert_plan(&c.plan(0), &[], &[], &[]);
}

// filterStandbys

#[test]
fn should_withhold_a_standby_on_a_process_that_still_runs_the_task_as_active() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[0])),
            member("memberB", "processB", e()),
        ],
        target(vec![("memberA", s(&[0])), ("memberB", a(&[0]))]),
        offs(vec![]),
    );
    assert_eq!(c.filter(1), withheld(&[("memberA", &[0])]));
}

#[test]
fn should_emit_the_standby_on_the_member_granting_the_active_away_in_the_same_step() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[0])),
            member("memberB", "processB", s(&[0])),
        ],
        target(vec![("memberA", s(&[0])), ("memberB", a(&[0]))]),
        offs(vec![("memberB", o(100, 100))]),
    );
    assert!(c.filter(1).is_empty());
}

#[test]
fn should_emit_a_standby_on_a_sibling_of_the_member_granting_the_active_away() {
    let c = case(
        vec![
            member("memberA1", "processA", a(&[0])),
            member("memberA2", "processA", e()),
            member("memberB", "processB", s(&[0])),
        ],
        target(vec![
            ("memberA1", e()),
            ("memberA2", s(&[0])),
            ("memberB", a(&[0])),
        ]),
        offs(vec![("memberB", o(100, 100))]),
    );
    assert!(c.filter(1).is_empty());
}

#[test]
fn should_emit_a_standby_blocked_only_by_a_pending_revocation() {
    let c = case(
        vec![member_pending("memberA", "processA", e(), a(&[0]))],
        target(vec![("memberA", s(&[0]))]),
        offs(vec![]),
    );
    assert!(c.filter(1).is_empty());
}

#[test]
fn should_withhold_a_standby_on_the_process_a_migration_is_staged_on() {
    let c = case(
        vec![
            member("memberA", "processA", e()),
            member("memberB", "processB", s(&[0])),
        ],
        target(vec![("memberA", a(&[0])), ("memberB", s(&[0]))]),
        offs(vec![]),
    );
    let decisions = TaskDecisions {
        staged: vec![staged(0, "memberB", "memberA", Some("processA"), None)],
        granted: vec![],
    };
    assert_eq!(c.filter_with(&decisions, 1), withheld(&[("memberB", &[0])]));
}

#[test]
fn should_emit_the_standby_on_the_process_a_migration_is_staged_away_from() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[0])),
            member("memberB", "processB", s(&[0])),
            member("memberC", "processC", e()),
        ],
        target(vec![
            ("memberA", s(&[0])),
            ("memberB", s(&[0])),
            ("memberC", a(&[0])),
        ]),
        offs(vec![]),
    );
    let decisions = TaskDecisions {
        staged: vec![staged(0, "memberB", "memberC", Some("processC"), None)],
        granted: vec![],
    };
    assert_eq!(c.filter_with(&decisions, 1), withheld(&[("memberB", &[0])]));
}

fn borrow_with_relocation() -> Case {
    case(
        vec![
            member("memberA", "processA", a(&[0])),
            member("memberB", "processB", s(&[0])),
            member("memberC", "processC", e()),
        ],
        target(vec![
            ("memberA", e()),
            ("memberB", a(&[0])),
            ("memberC", s(&[0])),
        ]),
        offs(vec![]),
    )
}

#[test]
fn should_withhold_the_relocated_standby_of_a_borrowed_migration() {
    assert_eq!(
        borrow_with_relocation().filter(1),
        withheld(&[("memberC", &[0])])
    );
}

fn borrow_with_two_relocations() -> Case {
    case(
        vec![
            member("memberA", "processA", a(&[0])),
            member("memberB", "processB", s(&[0])),
            member("memberC", "processC", e()),
            member("memberD", "processD", s(&[0])),
            member("memberE", "processE", e()),
        ],
        target(vec![
            ("memberA", e()),
            ("memberB", a(&[0])),
            ("memberC", s(&[0])),
            ("memberD", e()),
            ("memberE", s(&[0])),
        ]),
        offs(vec![]),
    )
}

#[test]
fn should_withhold_only_one_relocated_standby_of_a_borrowed_migration() {
    assert_eq!(
        borrow_with_two_relocations().filter(1),
        withheld(&[("memberC", &[0])])
    );
}

#[test]
fn should_not_withhold_a_relocated_standby_the_process_already_holds() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[0])),
            member("memberB", "processB", s(&[0])),
            member("memberC1", "processC", s(&[0])),
            member("memberC2", "processC", e()),
            member("memberE", "processE", e()),
        ],
        target(vec![
            ("memberA", e()),
            ("memberB", a(&[0])),
            ("memberC1", e()),
            ("memberC2", s(&[0])),
            ("memberE", s(&[0])),
        ]),
        offs(vec![]),
    );
    assert_eq!(c.filter(1), withheld(&[("memberE", &[0])]));
}

fn copies_of_task(assignment: &BTreeMap<String, TasksTuple>, task: &TaskId) -> usize {
    assignment
        .values()
        .flat_map(|t| [&t.active, &t.standby, &t.warmup])
        .filter(|tasks| {
            tasks
                .get(&*task.subtopology)
                .is_some_and(|p| p.contains(&task.partition))
        })
        .count()
}

#[test]
fn should_not_withhold_a_relocation_when_rule_one_already_holds_one_back() {
    let c = case(
        vec![
            member("memberZ", "processZ", a(&[0])),
            member("memberB", "processB", s(&[0])),
            member("memberC1", "processC", s(&[0])),
            member("memberA", "processA", e()),
        ],
        target(vec![
            ("memberZ", s(&[0])),
            ("memberB", a(&[0])),
            ("memberC1", e()),
            ("memberA", s(&[0])),
        ]),
        offs(vec![]),
    );
    assert_eq!(c.filter(1), withheld(&[("memberZ", &[0])]));
    assert_eq!(
        copies_of_task(&c.target, &t(0)),
        copies_of_task(&c.assemble(1), &t(0))
    );
}

#[test]
fn should_withhold_only_one_placement_when_a_promoted_migration_borrows() {
    let c = case(
        vec![
            member("memberH", "processH", s(&[0])),
            member("memberB", "processB", s(&[0])),
            member("memberX", "processX", e()),
        ],
        target(vec![
            ("memberH", s(&[0])),
            ("memberB", a(&[0])),
            ("memberX", s(&[0])),
        ]),
        offs(vec![("memberH", o(1000, 1050)), ("memberB", o(0, 10_000))]),
    );
    assert_eq!(c.filter(1), withheld(&[("memberH", &[0])]));
    let intermediate = c.assemble(1);
    assert_eq!(
        copies_of_task(&c.target, &t(0)),
        copies_of_task(&intermediate, &t(0))
    );
    assert_eq!(
        intermediate["memberH"].active,
        stateful(&[0]),
        "the promoted holder runs the task"
    );
    assert_eq!(
        intermediate["memberB"].standby,
        stateful(&[0]),
        "the borrowed copy stays where it warms the migration"
    );
    assert_eq!(
        intermediate["memberX"].standby,
        stateful(&[0]),
        "the cold placement is emitted"
    );
}

#[test]
fn should_not_withhold_a_relocation_assigned_to_a_member_that_is_gone() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[0])),
            member("memberB", "processB", s(&[0])),
            member("memberC", "processC", e()),
        ],
        target(vec![
            ("memberA", e()),
            ("memberB", a(&[0])),
            ("memberC", s(&[0])),
            ("memberD", s(&[0])),
        ]),
        offs(vec![]),
    );
    assert!(c.filter(1).is_empty());
}

#[test]
fn should_emit_the_relocated_standby_of_a_sibling_move() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[0])),
            member("memberB1", "processB", s(&[0])),
            member("memberB2", "processB", e()),
            member("memberC", "processC", e()),
        ],
        target(vec![
            ("memberA", e()),
            ("memberB1", e()),
            ("memberB2", a(&[0])),
            ("memberC", s(&[0])),
        ]),
        offs(vec![]),
    );
    assert!(c.filter(1).is_empty());
}

#[test]
fn should_not_withhold_a_relocated_standby_the_member_already_holds() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[0])),
            member("memberB", "processB", s(&[0])),
            member("memberC", "processC", s(&[0])),
        ],
        target(vec![
            ("memberA", e()),
            ("memberB", a(&[0])),
            ("memberC", s(&[0])),
        ]),
        offs(vec![]),
    );
    assert!(c.filter(1).is_empty());
}

#[test]
fn should_not_withhold_standbys_of_stateless_tasks() {
    let stateless: Tasks = [(STATELESS.to_string(), [0].into())].into();
    let c = case(
        vec![member(
            "memberA",
            "processA",
            TasksTuple {
                active: stateless.clone(),
                ..TasksTuple::default()
            },
        )],
        target(vec![(
            "memberA",
            TasksTuple {
                standby: stateless,
                ..TasksTuple::default()
            },
        )]),
        offs(vec![]),
    );
    assert!(c.filter(1).is_empty());
}

// assemble

#[test]
fn should_return_the_target_assignment_itself_when_nothing_diverges() {
    let c = case(
        vec![member("memberA", "processA", a(&[0]))],
        target(vec![("memberA", a(&[0]))]),
        offs(vec![]),
    );
    let refined = c.refine(1);
    assert!(refined.is_target());
    assert_eq!(refined.to_map(), c.target);
}

#[test]
fn should_keep_the_active_with_its_current_owner_and_withhold_it_from_the_target_owner() {
    let (members, target) = a_to_b(e());
    let c = case(members, target, offs(vec![]));
    assert_eq!(
        c.assemble(1),
        self::target(vec![("memberA", a(&[0])), ("memberB", w(&[0]))])
    );
}

#[test]
fn should_apply_no_patch_for_a_granted_task() {
    let c = case(
        vec![
            member("memberA", "processA", e()),
            member("memberB", "processB", e()),
        ],
        target(vec![("memberA", e()), ("memberB", a(&[0]))]),
        offs(vec![]),
    );
    assert!(c.refine(1).is_target());
}

#[test]
fn should_keep_a_borrowed_standby_where_history_left_it() {
    assert_eq!(
        borrow_with_relocation().assemble(1),
        target(vec![
            ("memberA", a(&[0])),
            ("memberB", s(&[0])),
            ("memberC", e())
        ])
    );
}

#[test]
fn should_move_a_sibling_standby_onto_the_target_owner_and_backfill_the_relocated_one() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[0])),
            member("memberB1", "processB", s(&[0])),
            member("memberB2", "processB", e()),
            member("memberC", "processC", e()),
        ],
        target(vec![
            ("memberA", e()),
            ("memberB1", e()),
            ("memberB2", a(&[0])),
            ("memberC", s(&[0])),
        ]),
        offs(vec![]),
    );
    assert_eq!(
        c.assemble(1),
        target(vec![
            ("memberA", a(&[0])),
            ("memberB1", e()),
            ("memberB2", w(&[0])),
            ("memberC", s(&[0]))
        ])
    );
}

#[test]
fn should_emit_the_swap_as_one_step_once_the_warmer_is_caught_up() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[0])),
            member("memberB", "processB", w(&[0])),
        ],
        target(vec![("memberA", s(&[0])), ("memberB", a(&[0]))]),
        offs(vec![("memberB", o(100, 100))]),
    );
    assert!(c.refine(1).is_target());
}

#[test]
fn should_drop_a_subtopology_key_whose_last_task_was_patched_away() {
    let (members, target) = a_to_b(e());
    let c = case(members, target, offs(vec![]));
    let member_b = c.assemble(1)["memberB"].clone();
    assert!(member_b.active.is_empty());
    assert_eq!(member_b, w(&[0]));
}

#[test]
fn should_preserve_the_active_task_count_through_every_derivation() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[0, 1])),
            member("memberB1", "processB", s(&[0])),
            member("memberB2", "processB", e()),
            member("memberC", "processC", e()),
        ],
        target(vec![
            ("memberA", e()),
            ("memberB1", e()),
            ("memberB2", a(&[0])),
            ("memberC", a(&[1])),
        ]),
        offs(vec![]),
    );
    for budget in 0..=3 {
        assert!(
            preserves_active_task_count(&c.target, &c.assemble(budget)),
            "at num.warmup.replicas={budget}"
        );
    }
}

#[test]
fn should_place_every_active_task_on_exactly_one_member() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[0, 1])),
            member("memberB", "processB", s(&[0])),
            member("memberC", "processC", e()),
        ],
        target(vec![
            ("memberA", e()),
            ("memberB", a(&[0])),
            ("memberC", a(&[1])),
        ]),
        offs(vec![]),
    );
    let mut owners: BTreeMap<TaskId, &str> = BTreeMap::new();
    let refined = c.assemble(1);
    for (member, tasks) in refined.iter() {
        for (sub, partitions) in &tasks.active {
            for &p in partitions {
                let previous = owners.insert(TaskId::new(sub.clone(), p), member);
                assert!(
                    previous.is_none(),
                    "task active on both {previous:?} and {member}"
                );
            }
        }
    }
    assert_eq!(
        owners.keys().cloned().collect::<BTreeSet<_>>(),
        tasks_of(&[0, 1])
    );
}

#[test]
fn should_preserve_the_replica_count_of_a_borrowed_migration() {
    let c = borrow_with_two_relocations();
    assert_eq!(
        copies_of_task(&c.target, &t(0)),
        copies_of_task(&c.assemble(1), &t(0))
    );
}

#[test]
fn should_never_place_a_task_twice_on_one_process() {
    let c = case(
        vec![
            member("memberA", "processA", a(&[0, 1])),
            member("memberB1", "processB", s(&[0])),
            member("memberB2", "processB", e()),
            member("memberC", "processC", e()),
        ],
        target(vec![
            ("memberA", s(&[1])),
            ("memberB1", e()),
            ("memberB2", a(&[0])),
            ("memberC", a(&[1])),
        ]),
        offs(vec![]),
    );
    let process: BTreeMap<&str, &str> = c
        .members
        .iter()
        .map(|m| (m.member_id.as_str(), m.process_id.as_str()))
        .collect();
    let mut seen = BTreeSet::new();
    for (member, tasks) in c.assemble(2).iter() {
        for role in [TaskRole::Active, TaskRole::Standby, TaskRole::Warmup] {
            for (sub, partitions) in tasks.role(role) {
                for &p in partitions {
                    assert!(
                        seen.insert((process[member.as_str()], sub.clone(), p)),
                        "{member} holds {sub}_{p} twice on its process"
                    );
                }
            }
        }
    }
}
