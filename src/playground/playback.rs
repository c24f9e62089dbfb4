//! Playback: the clock playing by real time times the speed, stepping from event to event or
//! round to round, seeking, and starting the scenario again. The worker draws each moment; the
//! page moves the clock and says where it wants to be ([`Playground::ask`]).

use super::wire::Target;
use super::{Effect, Playback, Playground, Want, SAVE_WHILE_PLAYING_MS, SPEEDS};

impl Playground {
    /// Carries out what the clock was asked to do.
    pub(super) fn playback(&mut self, action: Playback) -> Vec<Effect> {
        match action {
            Playback::Frame(now) => self.frame(now),
            Playback::Play(play) => self.play(play),
            Playback::Toggle => self.play(!self.playing),
            Playback::StepEvent => self.step(Target::NextEvent(self.clock)),
            Playback::StepBack => self.step(Target::PreviousEvent(self.clock)),
            Playback::StepRound => self.step(Target::NextRound(self.clock)),
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

    /// The clock moves on by the real time since the last frame, times the speed: to the
    /// moment the page then asks for, once the worker has drawn it (the clock follows the
    /// moments drawn, so it never runs past what is computed).
    pub(super) fn frame(&mut self, now: f64) -> Vec<Effect> {
        if !self.playing {
            return Vec::new();
        }
        let Some(last) = self.last_frame.replace(now) else {
            self.last_save = now;
            return Vec::new();
        };
        // A long gap (a hidden tab, a wait for the worker) is not played through.
        let real = (now - last).clamp(0.0, 100.0);
        self.owed = (self.owed + real * self.speed).min(100.0 * self.speed);
        if (self.owed.round() as u64) == 0 {
            return Vec::new();
        }
        self.turns.frame(now);
        if self.shown.in_flight().is_none() {
            let progress = self.shown.progress();
            let mut target = self.clock + self.owed.round() as u64;
            // Not past what is computed (unless the worker stopped at a command it could not
            // carry out: asking past it says why).
            if !progress.finished && self.shown.history().blocked.is_none() {
                target = target.min(progress.computed.max(self.clock));
            }
            if target > self.clock {
                self.owed = (self.owed - (target - self.clock) as f64).max(0.0);
                self.want = Want {
                    target: Target::At(target),
                    follow: true,
                };
            }
        }
        if now - self.last_save >= SAVE_WHILE_PLAYING_MS {
            self.last_save = now;
            return vec![Effect::Autosave];
        }
        Vec::new()
    }

    pub(super) fn play(&mut self, play: bool) -> Vec<Effect> {
        self.playing = play;
        self.last_frame = None;
        self.owed = 0.0;
        if play {
            self.notice = None;
            Vec::new()
        } else {
            vec![Effect::Autosave]
        }
    }

    /// Pauses and moves the clock to where the worker finds `target` (the next event, the
    /// previous one, the next round); if there is none, the reply says so. A step taken
    /// while another is on its way is taken from where that one lands.
    fn step(&mut self, target: Target) -> Vec<Effect> {
        self.playing = false;
        if self.want.follow && self.want.target != Target::At(self.clock) {
            self.steps.push_back(target);
            return Vec::new();
        }
        self.want = Want {
            target,
            follow: true,
        };
        Vec::new()
    }

    /// The next step taken while one was on its way, from the clock where that one landed.
    pub(super) fn next_step(&mut self) {
        let Some(target) = self.steps.pop_front() else {
            return;
        };
        let clock = self.clock;
        self.want = Want {
            target: match target {
                Target::NextEvent(_) => Target::NextEvent(clock),
                Target::PreviousEvent(_) => Target::PreviousEvent(clock),
                Target::NextRound(_) => Target::NextRound(clock),
                other => other,
            },
            follow: true,
        };
    }

    /// Starts the scenario again from 0 ms, under the same strategies.
    pub(super) fn reset(&mut self) -> Vec<Effect> {
        let scenario = self.scenario().clone();
        let strategies = self.strategies().to_vec();
        let preset = self.preset;
        self.load(scenario, &strategies, (preset, None, None))
    }

    /// Moves the clock to a moment.
    pub(super) fn seek(&mut self, time: u64) -> Vec<Effect> {
        self.steps.clear();
        self.clock = time;
        self.want = Want {
            target: Target::At(time),
            follow: false,
        };
        vec![Effect::Autosave]
    }
}
