//! Playback: the clock playing by real time times the speed, stepping from event to event or
//! round to round, seeking, and starting the scenario again.

use super::{Effect, Playback, Playground, AT_REST, SAVE_WHILE_PLAYING_MS, SPEEDS};

impl Playground {
    /// Carries out what the clock was asked to do.
    pub(super) fn playback(&mut self, action: Playback) -> Vec<Effect> {
        match action {
            Playback::Frame(now) => self.frame(now),
            Playback::Play(play) => self.play(play),
            Playback::Toggle => self.play(!self.playing),
            Playback::StepEvent => self.step_event(),
            Playback::StepBack => self.step_back(),
            Playback::StepRound => self.step_round(),
            Playback::Seek(t) => {
                self.playing = false;
                self.seek(t)
            }
            Playback::Speed(speed) => {
                self.speed = speed.clamp(SPEEDS[0], SPEEDS[SPEEDS.len() - 1]);
                Vec::new()
            }
            Playback::Reset => self.reset(),
        }
    }

    /// The clock moves on by the real time since the last frame, times the speed.
    pub(super) fn frame(&mut self, now: f64) -> Vec<Effect> {
        if !self.playing {
            return Vec::new();
        }
        let Some(last) = self.last_frame.replace(now) else {
            self.last_save = now;
            return Vec::new();
        };
        // A long gap (a hidden tab) is not played through.
        let real = (now - last).clamp(0.0, 100.0);
        let virtual_ms = (real * self.speed).round() as u64;
        if virtual_ms == 0 {
            return Vec::new();
        }
        let clock = self.session.clock();
        let happened = self.events_by_clock();
        if let Err(e) = self.session.seek(clock + virtual_ms) {
            return self.fail(e.to_string());
        }
        let changed = self.events_by_clock() != happened;
        self.turns.frame(now, changed);
        if self.session.settled() {
            self.playing = false;
            self.last_frame = None;
            self.paused_at_rest = true;
            self.notice = Some(AT_REST.into());
            return vec![Effect::Autosave];
        }
        if now - self.last_save >= SAVE_WHILE_PLAYING_MS {
            self.last_save = now;
            return vec![Effect::Autosave];
        }
        Vec::new()
    }

    /// How many of the main lane's events happened by the clock: it moves on a frame in
    /// which the group changed (a member ready, a step of a round, a crash), not with replay.
    pub(super) fn events_by_clock(&self) -> usize {
        let clock = self.session.clock();
        self.session
            .main()
            .run
            .events()
            .partition_point(|e| e.at <= clock)
    }

    pub(super) fn play(&mut self, play: bool) -> Vec<Effect> {
        self.playing = play;
        self.last_frame = None;
        if play {
            self.notice = None;
            Vec::new()
        } else {
            vec![Effect::Autosave]
        }
    }

    /// Pauses and moves the clock to the next event.
    pub(super) fn step_event(&mut self) -> Vec<Effect> {
        self.playing = false;
        match self.session.next_event() {
            Some(t) => self.seek(t),
            None => {
                self.notice = Some("Nothing more happens: the group is at rest.".into());
                Vec::new()
            }
        }
    }

    /// Pauses and moves the clock back to the previous event.
    pub(super) fn step_back(&mut self) -> Vec<Effect> {
        self.playing = false;
        let target = self.session.previous_event().unwrap_or(0);
        self.seek(target)
    }

    /// Pauses and moves the clock to the next rebalance round.
    pub(super) fn step_round(&mut self) -> Vec<Effect> {
        self.playing = false;
        match self.session.next_round() {
            Ok(Some(t)) => self.seek(t),
            Ok(None) => {
                self.notice = Some("No further rebalance: the group is at rest.".into());
                Vec::new()
            }
            Err(e) => self.fail(e.to_string()),
        }
    }

    /// Starts the scenario again from 0 ms, under the same strategies.
    pub(super) fn reset(&mut self) -> Vec<Effect> {
        let scenario = self.session.scenario().clone();
        let strategies = self.session.strategies();
        self.notice = None;
        self.tour = None;
        self.load(scenario, &strategies)
    }

    /// Moves the clock to a moment.
    pub(super) fn seek(&mut self, time: u64) -> Vec<Effect> {
        match self.session.seek(time) {
            Ok(()) => vec![Effect::Autosave],
            Err(e) => self.fail(e.to_string()),
        }
    }
}
