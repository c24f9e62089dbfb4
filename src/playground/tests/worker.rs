//! The page and its worker as messages: what the page draws before a moment comes, actions
//! taken while the worker computes, steps taken while one is on its way, the codec.

use super::preset;
use crate::model::{Command, MemberSpec};
use crate::playground::wire::{
    decode, encode, in_parts, Ask, Body, Panels, Reply, Request, Target, Timed, CARDS_PER_PART,
    PARTS_OVER, ROWS_PER_PART,
};
use crate::playground::{Action, Effect, Local, Playback, Simulation};
use crate::presets::scale_out;
use std::rc::Rc;

fn join(name: &str) -> Command {
    Command::Join(MemberSpec {
        name: name.into(),
        capacity: 1,
        restore_rate: Some(20_000),
        zone: Some("a".into()),
    })
}

/// The requests among effects.
fn requests(effects: &[Effect]) -> Vec<&Request> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Send(r) => Some(r),
            _ => None,
        })
        .collect()
}

#[test]
fn every_message_reads_back_as_it_was_sent() {
    let mut pg = preset("scale-up-running");
    let mut requests = vec![
        Request::Lanes {
            seq: 3,
            strategies: vec![crate::model::Strategy::Eager],
        },
        Request::Command {
            seq: 4,
            at_ms: 1_500,
            command: join("S9"),
            free_name: true,
        },
        Request::Command {
            seq: 5,
            at_ms: 0,
            command: Command::Restart {
                member: "S1".into(),
                down_ms: 30_000,
                keep_state: false,
            },
            free_name: false,
        },
        Request::Reschedule {
            seq: 6,
            from_ms: 100,
            commands: pg.commands().iter().cloned().map(Timed).collect(),
        },
        Request::ExportLog { seq: 7 },
        Request::Report { seq: 8 },
    ];
    for (i, target) in [
        Target::At(12),
        Target::NextEvent(1),
        Target::PreviousEvent(2),
        Target::NextRound(3),
        Target::Tour {
            tour: "scale-up".into(),
            step: 2,
        },
    ]
    .into_iter()
    .enumerate()
    {
        requests.push(Request::Show(Ask {
            seq: 10 + i as u64,
            target,
            compare: i % 2 == 0,
            panels: Panels {
                log: true,
                measures: i > 1,
                timeline: false,
                charts: i == 3,
            },
            chart_lane: i,
            end: 5_000,
            rolling_restart: Command::RollingRestart {
                down_ms: 6_000,
                keep_state: true,
            },
            speed: 16.0,
        }));
    }
    for request in &requests {
        assert_eq!(
            &decode::<Request>(&encode(request)).expect("reads"),
            request
        );
    }
    // Replies, each panel among them: a moment of the compare view with every panel.
    pg.act(Action::View(crate::playground::link::ViewMode::Compare));
    pg.act(Action::Playback(Playback::Seek(3_000)));
    let worker = pg.worker();
    let replies = worker.handle(Request::Show(Ask {
        seq: 99,
        target: Target::At(2_500),
        compare: true,
        panels: Panels {
            log: true,
            measures: true,
            timeline: true,
            charts: true,
        },
        chart_lane: 1,
        end: 5_000,
        rolling_restart: Command::CrashLeader,
        speed: 0.0,
    }));
    let Some(Reply {
        body: Body::Moment(moment),
        ..
    }) = replies.first()
    else {
        panic!("a moment: {replies:?}")
    };
    assert!(moment.lanes.len() > 1 && moment.lanes.iter().all(|l| l.metrics.is_some()));
    assert!(moment.panels.log.is_some() && moment.panels.measures.is_some());
    assert!(moment.panels.timeline.is_some() && moment.panels.charts.is_some());
    // What a reply carries reads back as it was sent (the names of the chips, the timeline's
    // rows and the chart's lines are the page's own: they do not cross).
    for reply in replies
        .iter()
        .chain(worker.handle(Request::Report { seq: 100 }).iter())
    {
        let bytes = encode(reply);
        assert_eq!(encode(&decode::<Reply>(&bytes).expect("reads")), bytes);
    }
    assert!(decode::<Reply>(&[1, 2, 3]).is_err(), "garbage is refused");
}

/// A moment over the limit goes as its changed cards a share at a time, the moment, and then
/// each of its panels (the task timeline's rows a share at a time before it), and the page
/// shows from the parts what it shows from the whole; a moment not over it, or another reply,
/// goes whole.
#[test]
fn a_large_moment_goes_in_parts_and_the_page_shows_what_the_whole_shows() {
    // A second lane the page has none of the cards of: all its 600 are sent.
    let opened = || {
        let mut pg = Local::with(scale_out(560, 600, 6_000), None);
        pg.act(Action::Playback(Playback::Seek(1_000)));
        let strategies = vec![pg.strategies()[0], crate::model::Strategy::Eager];
        pg.worker().handle(Request::Lanes {
            seq: 80,
            strategies,
        });
        pg
    };
    let every = Panels {
        log: true,
        measures: true,
        timeline: true,
        charts: false,
    };
    // The page's own ask for the moment, for every lane and panel, and its answer once the
    // worker has computed it.
    let answer = |pg: &mut Local, at: u64, panels: Panels| {
        let effects = pg.act_unsent(Action::Playback(Playback::Seek(at)));
        let Some(Request::Show(ask)) = requests(&effects).first().copied().cloned() else {
            panic!("the page asks for its moment: {effects:?}")
        };
        let ask = Ask {
            compare: true,
            panels,
            ..ask
        };
        let mut replies = pg.worker().handle(Request::Show(ask));
        while !replies.iter().any(|r| matches!(r.body, Body::Moment(_))) {
            replies.extend(pg.worker().work(64).0);
        }
        let at = replies
            .iter()
            .position(|r| matches!(r.body, Body::Moment(_)));
        replies.remove(at.unwrap_or_default())
    };
    let (mut whole, mut apart) = (opened(), opened());
    let reply = answer(&mut whole, 4_000, every);
    let size = encode(&reply).len();
    assert!(size > PARTS_OVER, "{size} bytes");
    assert_eq!(in_parts(reply.clone(), size).len(), 1, "not over the limit");
    whole.act(Action::Reply(reply));
    let reply = answer(&mut apart, 4_000, every);
    let Body::Moment(moment) = &reply.body else {
        panic!("a moment: {reply:?}")
    };
    let changed = moment.lanes.iter().map(|l| l.cards.changed.len());
    assert_eq!(changed.collect::<Vec<_>>(), [440, 600]);
    let parts: Vec<Reply> = in_parts(reply, 0)
        .iter()
        .map(|bytes| decode(bytes).expect("reads"))
        .collect();
    let bodies: Vec<String> = parts
        .iter()
        .map(|r| match &r.body {
            Body::Cards { lane, cards } => format!("{lane}: {} cards", cards.len()),
            Body::TimelineRows(rows) => format!("{} rows", rows.len()),
            Body::Moment(m) if m.panels == Default::default() => {
                let changed = m.lanes.iter().map(|l| l.cards.changed.len());
                format!("moment, {:?} cards", changed.collect::<Vec<_>>())
            }
            Body::Panels(p) if p.log.is_some() => "log".into(),
            Body::Panels(p) if p.timeline.is_some() => {
                format!(
                    "timeline, {} rows",
                    p.timeline.as_ref().map_or(0, |t| t.rows.len())
                )
            }
            Body::Panels(p) if p.measures.is_some() => "measures".into(),
            other => format!("{other:?}"),
        })
        .collect();
    let rest = |n: usize| n - (n - 1) / CARDS_PER_PART * CARDS_PER_PART;
    assert_eq!(
        bodies,
        [
            format!("0: {CARDS_PER_PART} cards"),
            format!("1: {CARDS_PER_PART} cards"),
            format!("1: {CARDS_PER_PART} cards"),
            format!("moment, [{}, {}] cards", rest(440), rest(600)),
            "log".into(),
            format!("{ROWS_PER_PART} rows"),
            format!("{ROWS_PER_PART} rows"),
            format!("timeline, {} rows", 6_000 - 2 * ROWS_PER_PART),
            "measures".into()
        ]
    );
    for part in parts {
        apart.act(Action::Reply(part));
    }
    assert_eq!(apart.single(), whole.single());
    assert_eq!(apart.lanes(), whole.lanes());
    let cards = apart
        .lanes()
        .iter()
        .map(|l| l.frame.cards.len())
        .collect::<Vec<_>>();
    assert_eq!(cards, [600, 600]);
    assert_eq!(
        apart.shown_log(&apart.single()).log,
        whole.shown_log(&whole.single()).log
    );
    assert_eq!(apart.task_timeline(), whole.task_timeline());
    assert_eq!(apart.measures(), whole.measures());
    // Any other reply goes whole.
    let strategies = apart.strategies().to_vec();
    let done = apart.worker().handle(Request::Lanes {
        seq: 81,
        strategies,
    });
    assert!(matches!(done[0].body, Body::Done(81)));
    assert_eq!(in_parts(done[0].clone(), 0), [encode(&done[0])]);
}

/// A moment not computed yet is answered once it is; after a first slice without it, the
/// group as computed so far comes first; and what is asked meanwhile waits its turn.
#[test]
fn a_moment_far_ahead_comes_after_the_group_so_far_and_requests_wait_their_turn() {
    let saved = {
        let mut pg = Local::with(scale_out(45, 50, 500), None);
        pg.act(Action::Playback(Playback::Seek(20_000)));
        crate::playground::link::SavedSession::of(
            pg.scenario(),
            pg.commands(),
            pg.strategies().to_vec(),
            20_000,
            Default::default(),
            None,
        )
        .to_json()
    };
    let mut worker = Simulation::new();
    let opened = worker.handle(Request::Open {
        seq: 1,
        session: 7,
        saved,
    });
    assert!(matches!(opened[0].body, Body::Opened(1)) && opened[0].session == 7);
    let ask = |seq, at| {
        Request::Show(Ask {
            seq,
            target: Target::At(at),
            compare: false,
            panels: Panels::default(),
            chart_lane: 0,
            end: 50_000,
            rolling_restart: Command::CrashLeader,
            speed: 0.0,
        })
    };
    assert!(worker.handle(ask(2, 20_000)).is_empty(), "not computed yet");
    // Asked meanwhile: a command at the moment awaited, then another moment.
    assert!(worker
        .handle(Request::Command {
            seq: 3,
            at_ms: 20_000,
            command: join("S99"),
            free_name: false,
        })
        .is_empty());
    assert!(worker.handle(ask(4, 20_000)).is_empty());
    let (first, more) = worker.work(1);
    assert!(more);
    let Body::Moment(early) = &first[0].body else {
        panic!("the group so far: {first:?}")
    };
    assert_eq!(early.seq, None, "answers nothing");
    assert!(early.time < 20_000 && !early.lanes[0].frame.cards.is_empty());
    let mut bodies = Vec::new();
    loop {
        let (replies, more) = worker.work(64);
        bodies.extend(replies.into_iter().map(|r| r.body));
        if !more {
            break;
        }
    }
    let answered: Vec<String> = bodies
        .iter()
        .filter_map(|b| match b {
            Body::Moment(m) => m.seq.map(|s| format!("moment {s} at {}", m.time)),
            Body::Done(s) => Some(format!("done {s}")),
            _ => None,
        })
        .collect();
    assert_eq!(
        answered,
        ["moment 2 at 20000", "done 3", "moment 4 at 20000"]
    );
    let Some(Body::Moment(last)) = bodies.iter().rev().find(|b| matches!(b, Body::Moment(_)))
    else {
        panic!("moments")
    };
    assert!(last.lanes[0].frame.cards.iter().any(|c| c.name == "S99"));
}

/// While the worker has not answered, the page draws the last moment it has, and the reader's
/// actions are kept: carried out in the order taken once the worker reads them.
#[test]
fn actions_taken_before_the_worker_answers_are_carried_out_in_order() {
    let mut pg = Local::with(scale_out(8, 10, 40), None);
    let shown = pg.shown().moment().time;
    let mut effects = pg.act_unsent(Action::Playback(Playback::Seek(4_000)));
    assert_eq!(pg.clock(), 4_000, "the clock is the reader's at once");
    assert_eq!(
        pg.shown().moment().time,
        shown,
        "the group drawn is the last one"
    );
    assert!(pg.waiting());
    effects.extend(pg.act_unsent(Action::Command(Command::Crash("S3".into()))));
    effects.extend(pg.act_unsent(Action::Command(Command::Drain("S4".into()))));
    effects.extend(pg.act_unsent(Action::Command(Command::Crash("S3".into()))));
    assert_eq!(
        pg.progress().as_deref(),
        Some("3 actions waiting for the simulation, in the order taken.")
    );
    let sent = requests(&effects);
    assert!(matches!(sent[0], Request::Show(a) if a.target == Target::At(4_000)));
    assert!(sent[1..]
        .iter()
        .all(|r| matches!(r, Request::Command { at_ms: 4_000, .. })));
    pg.deliver(effects);
    assert!(!pg.waiting());
    let state = |name: &str| {
        pg.single()
            .frame
            .cards
            .iter()
            .find(|c| c.name == name)
            .map(|c| c.status.name())
    };
    assert_eq!(state("S3"), Some("crashed"));
    assert_eq!(state("S4"), Some("leaving"));
    // The third, taken before the first was carried out, was refused in its turn.
    assert!(
        pg.error().is_some_and(|e| e.starts_with("crash S3: ")),
        "{:?}",
        pg.error()
    );
    assert_eq!(pg.shown().moment().time, 4_000);
}

#[test]
fn steps_taken_while_one_is_on_its_way_are_taken_from_where_it_lands() {
    let mut pg = preset("scale-up-running");
    let mut alone = preset("scale-up-running");
    for _ in 0..3 {
        alone.act(Action::Playback(Playback::StepEvent));
    }
    let mut effects = Vec::new();
    for _ in 0..3 {
        effects.extend(pg.act_unsent(Action::Playback(Playback::StepEvent)));
    }
    assert_eq!(requests(&effects).len(), 1, "one step asked at a time");
    pg.deliver(effects);
    assert_eq!(pg.clock(), alone.clock());
    assert!(pg.clock() > 250);
}

/// A member added while the group drawn is behind the clock is named from that group; when it
/// joins, a name taken by then gives way to the first free one.
#[test]
fn a_member_added_from_a_group_behind_the_clock_takes_the_first_free_name() {
    let mut pg = preset("scale-up-running");
    assert_eq!(pg.toolbar().next_name, "S5", "S5 joins at 2 s");
    let mut effects = pg.act_unsent(Action::Playback(Playback::Seek(3_000)));
    effects.extend(pg.act_unsent(Action::Join(crate::playground::JoinAction::Add)));
    assert!(requests(&effects).iter().any(|r| matches!(
        r,
        Request::Command { command: Command::Join(spec), free_name: true, .. } if spec.name == "S5"
    )));
    pg.deliver(effects);
    assert_eq!(pg.error(), None);
    let names: Vec<String> = pg
        .single()
        .frame
        .cards
        .iter()
        .map(|c| c.name.clone())
        .collect();
    assert_eq!(names, ["S1", "S2", "S3", "S4", "S5", "S6"]);
}

/// Until the page says the task timeline is in the view, and once it says it left, the
/// timeline is not asked for while playing, and the other panels are; as it comes into the
/// view it is asked for at once, alone, and shows the history to the clock.
#[test]
fn the_task_timeline_is_asked_for_only_in_the_view() {
    let mut pg = preset("scale-up-running");
    pg.act(Action::Playback(Playback::Speed(4.0)));
    let mut now = 1_000.0;
    let mut play = |pg: &mut Local, frames: usize| {
        let (timeline, log) = (pg.task_timeline(), pg.shown_log(&pg.single()));
        pg.act(Action::Playback(Playback::Play(true)));
        for _ in 0..frames {
            now += 16.0;
            let effects = pg.act_unsent(Action::Playback(Playback::Frame(now)));
            for request in requests(&effects) {
                assert!(
                    !matches!(request, Request::Show(ask) if ask.panels.timeline),
                    "asked for the timeline out of the view: {request:?}"
                );
            }
            pg.deliver(effects);
        }
        pg.act(Action::Playback(Playback::Play(false)));
        assert!(Rc::ptr_eq(&timeline, &pg.task_timeline()), "not read");
        assert!(
            !Rc::ptr_eq(&log, &pg.shown_log(&pg.single())),
            "the log was"
        );
    };
    play(&mut pg, 60);
    let effects = pg.act_unsent(Action::TimelineInView(true));
    let asked: Vec<Panels> = requests(&effects)
        .into_iter()
        .filter_map(|r| match r {
            Request::Show(ask) => Some(ask.panels),
            _ => None,
        })
        .collect();
    let timeline_only = Panels {
        timeline: true,
        ..Panels::default()
    };
    assert_eq!(asked, [timeline_only], "only the timeline was due");
    pg.deliver(effects);
    let clock = pg.session().clock();
    let shown = pg.task_timeline();
    assert!(
        shown.until > clock / 2 && shown.until <= pg.session().frontier(),
        "read to {} ms, the clock at {clock} ms",
        shown.until
    );
    pg.act(Action::TimelineInView(false));
    play(&mut pg, 60);
}
